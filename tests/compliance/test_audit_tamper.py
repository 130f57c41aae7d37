"""The twelve tamper cases of issue 15, item 6, done as a database writer would, each detected.

The attacker writes the database with raw SQL. Where the triggers stand in the way, they are switched
off as a table owner can (PostgreSQL: `ALTER TABLE ... DISABLE TRIGGER USER`, or the superuser's
`SET session_replication_role = replica`; SQLite: drop the triggers and create them again). They know
the algorithms but not the audit key (it is in the environment, not in the database): a seal they
compute is either the unkeyed SHA-256 of the first chain or an HMAC under a key of their own.

Every case starts from the same chain: 12 events, a signed checkpoint written outside the database
after the 8th. What the checkpoint window leaves open (removing only events written after the newest
checkpoint, with triggers off and the head moved back) is documented in docs/compliance.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from compliance import triggers
from compliance.audit import (
    GENESIS_HASH,
    HASHED_FIELDS,
    _canonical,
    audit_record,
    checkpoint_write,
    legacy_hash,
    verify_chain,
)

# Positions counted from the events the test database already holds (roles and schedules set up by
# the migrations are audited): the case's chain is base + 1 ... base + EVENTS.
EVENTS = 12
COLUMNS = ("id", "seq", "prev_hash", "hash", "key_id", *[f for f in HASHED_FIELDS if f != "seq"])
ATTACKER_KEY = b"\x42" * 32  # not the audit key: the attacker never sees it


# -- the chain every case starts from -----------------------------------------------------------------

class Pos:
    """Where things are in the chain of a case (set by the `chain` fixture)."""

    base = 0

    @classmethod
    def last(cls) -> int:
        return cls.base + EVENTS

    @classmethod
    def checkpoint(cls) -> int:
        return cls.base + 8

    @classmethod
    def target(cls) -> int:  # the row most cases go after
        return cls.base + 5


@pytest.fixture
def chain(db):
    from compliance.models import AuditChainHead

    head = AuditChainHead.objects.filter(pk=1).first()
    Pos.base = head.last_seq if head else 0
    for i in range(1, EVENTS + 1):
        audit_record(actor="system:test", action=f"test.event{i}", data={"i": i, "amount": "10.00"})
        if i == 8:
            cp, report = checkpoint_write()
            assert cp is not None and cp.seq == Pos.checkpoint(), report
    report = verify_chain()
    assert report.ok and report.last_seq == Pos.last() and report.checkpoint_seq == Pos.checkpoint(), report


# -- the attacker's tools ----------------------------------------------------------------------------

def _sql(sql: str, params: list | tuple = ()) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _rows() -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(COLUMNS)} FROM compliance_auditevent ORDER BY seq")
        return [dict(zip(COLUMNS, r, strict=True)) for r in cursor.fetchall()]


def _row(seq: int) -> dict:
    return next(r for r in _rows() if r["seq"] == seq)


def _content(row: dict) -> dict:
    """A row as the hash functions read it (JSON columns parsed, the time as a datetime)."""
    import datetime as dt

    out = dict(row)
    for name in ("before", "after", "data"):
        if isinstance(out[name], str):
            out[name] = json.loads(out[name])
    if isinstance(out["created_at"], str):
        out["created_at"] = dt.datetime.fromisoformat(out["created_at"])
    if out["created_at"].tzinfo is None:
        out["created_at"] = out["created_at"].replace(tzinfo=dt.timezone.utc)
    out["significant"] = bool(out["significant"])
    return out


def _forged_seal(row: dict, prev_hash: str, how: str) -> str:
    """The best seal the attacker can compute without the audit key."""
    content = _content({**row, "prev_hash": prev_hash})
    if how == "sha256":
        return legacy_hash(content, prev_hash)
    payload = json.dumps({"prev_hash": prev_hash, "key_id": row["key_id"], **_canonical(content)},
                         sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return hmac.new(ATTACKER_KEY, payload, hashlib.sha256).hexdigest()


def _set(row_id: int, **values) -> None:
    assignments = ", ".join(f"{k} = %s" for k in values)
    _sql(f"UPDATE compliance_auditevent SET {assignments} WHERE id = %s", [*values.values(), row_id])


def _set_head(seq: int, hash_: str, key_id: str) -> None:
    _sql("UPDATE compliance_auditchainhead SET last_seq = %s, last_hash = %s, last_key_id = %s WHERE id = 1",
         [seq, hash_, key_id])


def _rechain_from(seq: int, how: str) -> None:
    """Recompute prev_hash and the seal of every row from `seq` on, and point the head at the end."""
    rows = _rows()
    prev = next((r["hash"] for r in rows if r["seq"] == seq - 1), GENESIS_HASH)
    for r in rows:
        if r["seq"] < seq:
            continue
        new = _forged_seal(r, prev, how)
        _set(r["id"], prev_hash=prev, hash=new, **({"key_id": ""} if how == "sha256" else {}))
        prev = new
    last = _rows()[-1]
    _set_head(last["seq"], last["hash"], last["key_id"])


@contextlib.contextmanager
def _triggers_off():
    """What a table owner can do: switch the audit tables' triggers off, then on again."""
    if connection.vendor == "postgresql":
        _sql("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks in the way of ALTER TABLE
        for table in (triggers.TABLE, triggers.HEAD):
            _sql(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            yield
        finally:
            _sql("SET CONSTRAINTS ALL IMMEDIATE")
            for table in (triggers.TABLE, triggers.HEAD):
                _sql(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    else:
        triggers.drop(connection)
        try:
            yield
        finally:
            triggers.install(connection)


# -- the twelve cases --------------------------------------------------------------------------------
# Each returns the sequence number at which verification must report the chain broken.

def edit_a_field(how):
    _set(_row(Pos.target())["id"], action="test.forged")
    return Pos.target()


def edit_and_recompute_that_rows_hash(how):
    r = _row(Pos.target())
    r["action"] = "test.forged"
    _set(r["id"], action="test.forged", hash=_forged_seal(r, r["prev_hash"], how),
         **({"key_id": ""} if how == "sha256" else {}))
    return Pos.target()


def edit_and_recompute_every_later_hash(how):
    _set(_row(Pos.target())["id"], data=json.dumps({"i": Pos.target(), "amount": "99999.00"}))
    _rechain_from(Pos.target(), how)
    return Pos.target()


def delete_a_middle_row(how):
    _sql("DELETE FROM compliance_auditevent WHERE seq = %s", [Pos.target()])
    return Pos.target() + 1  # reported where the gap shows


def delete_renumber_and_rehash(how):
    _sql("DELETE FROM compliance_auditevent WHERE seq = %s", [Pos.target()])
    for r in _rows():
        if r["seq"] > Pos.target():
            _set(r["id"], seq=r["seq"] - 1)
    _rechain_from(Pos.target(), how)
    return Pos.target()


def delete_the_newest_rows(how):
    _sql("DELETE FROM compliance_auditevent WHERE seq > %s", [Pos.last() - 2])
    return Pos.last() - 1  # the first missing one


def delete_the_newest_rows_and_move_the_head_back(how):
    keep = Pos.checkpoint() - 2  # reaches back past the newest checkpoint
    _sql("DELETE FROM compliance_auditevent WHERE seq > %s", [keep])
    r = _row(keep)
    _set_head(r["seq"], r["hash"], r["key_id"])
    return keep + 1


def insert_a_forged_row_in_the_middle(how):
    rows = _rows()
    for r in reversed(rows):  # make room at Pos.target(), from the top so that seq stays unique
        if r["seq"] >= Pos.target():
            _set(r["id"], seq=r["seq"] + 1)
    model = _row(Pos.target() - 1)
    forged = {**model, "seq": Pos.target(), "action": "test.forged_insert", "data": json.dumps({"forged": True})}
    _insert(forged, prev_hash=model["hash"], how=how)
    _rechain_from(Pos.target(), how)
    return Pos.target()


def append_a_forged_row_and_update_the_head(how):
    last = _rows()[-1]
    forged = {**last, "seq": last["seq"] + 1, "action": "test.forged_append", "data": json.dumps({"forged": True})}
    _insert(forged, prev_hash=last["hash"], how=how)
    new = _row(last["seq"] + 1)
    _set_head(new["seq"], new["hash"], new["key_id"])
    return last["seq"] + 1


def delete_every_event_and_the_head(how):
    _sql("DELETE FROM compliance_auditchainhead")
    _sql("DELETE FROM compliance_auditevent")
    return 1


def swap_two_rows_content(how):
    a, b = _row(Pos.target() - 1), _row(Pos.target() + 1)
    moved = ("action", "data", "actor_repr", "object_type", "object_id", "object_repr", "created_at")
    _set(a["id"], **{k: b[k] for k in moved})
    _set(b["id"], **{k: a[k] for k in moved})
    return Pos.target() - 1


def replace_the_head_with_an_older_state(how):
    r = _row(Pos.target())
    _set_head(r["seq"], r["hash"], r["key_id"])
    return Pos.target() + 1  # the first event beyond the head


def _insert(row: dict, *, prev_hash: str, how: str) -> None:
    key_id = "" if how == "sha256" else row["key_id"]
    values = {**row, "prev_hash": prev_hash, "key_id": key_id}
    values["hash"] = _forged_seal({**values}, prev_hash, how)
    values.pop("id")
    cols = list(values)
    _sql(f"INSERT INTO compliance_auditevent ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})",
         [values[c] for c in cols])


# name -> (the tampering, needs the triggers off)
CASES = {
    "edit a field": (edit_a_field, True),
    "edit and recompute that row's hash": (edit_and_recompute_that_rows_hash, True),
    "edit and recompute every later hash": (edit_and_recompute_every_later_hash, True),
    "delete a middle row": (delete_a_middle_row, True),
    "delete, renumber and re-hash": (delete_renumber_and_rehash, True),
    "delete the newest rows": (delete_the_newest_rows, True),
    "delete the newest rows and move the head back": (delete_the_newest_rows_and_move_the_head_back, True),
    "insert a forged row in the middle": (insert_a_forged_row_in_the_middle, True),
    # Normal application rights: the triggers stay on and let both statements through.
    "append a forged row with a valid-looking hash and update the head": (
        append_a_forged_row_and_update_the_head, False),
    "delete every event and the head": (delete_every_event_and_the_head, True),
    "swap two rows' content": (swap_two_rows_content, True),
    "replace the head with an older state": (replace_the_head_with_an_older_state, True),
}


def _tamper(case: str, how: str) -> int:
    tamper, needs_bypass = CASES[case]
    with transaction.atomic():
        if needs_bypass:
            with _triggers_off():
                return tamper(how)
        return tamper(how)


@pytest.mark.parametrize("how", ["sha256", "guessed-key"])
@pytest.mark.parametrize("case", list(CASES))
def test_tamper_case_is_detected_by_audit_verify(chain, case, how):
    bad_seq = _tamper(case, how)
    report = verify_chain()
    assert not report.ok, f"{case} ({how}) was not detected"
    assert report.bad_seq == bad_seq, f"{case} ({how}): reported at seq {report.bad_seq}: {report.reason}"


def test_there_are_twelve_cases():
    assert len(CASES) == 12


@pytest.mark.parametrize("case", ["edit a field", "delete every event and the head",
                                  "append a forged row with a valid-looking hash and update the head"])
def test_audit_verify_command_names_the_broken_row_and_exits_non_zero(chain, case, capsys):
    bad_seq = _tamper(case, "guessed-key")
    with pytest.raises(SystemExit) as exit_info:
        call_command("audit_verify")
    assert exit_info.value.code == 1 and f"seq={bad_seq}" in capsys.readouterr().err


def test_a_tampered_chain_is_not_checkpointed(chain):
    _tamper("append a forged row with a valid-looking hash and update the head", "guessed-key")
    checkpoint, report = checkpoint_write()
    assert checkpoint is None and not report.ok and report.bad_seq == Pos.last() + 1


# -- what the triggers refuse without a bypass (normal application rights) ------------------------------

def _refused(sql: str, params: list | tuple = ()) -> bool:
    try:
        with transaction.atomic():
            _sql(sql, params)
    except DatabaseError:
        return True
    return False


def test_the_head_cannot_be_moved_back(chain):
    r = _row(Pos.target())
    assert _refused("UPDATE compliance_auditchainhead SET last_seq = %s, last_hash = %s WHERE id = 1",
                    [r["seq"], r["hash"]])


def test_the_head_cannot_name_anything_but_the_last_event(chain):
    assert _refused("UPDATE compliance_auditchainhead SET last_hash = %s WHERE id = 1", ["f" * 64])


def test_the_head_cannot_be_deleted(chain):
    assert _refused("DELETE FROM compliance_auditchainhead")


def test_an_event_that_does_not_follow_the_head_is_refused(chain):
    last = _rows()[-1]
    forged = {**last, "seq": last["seq"] + 2}
    with pytest.raises(DatabaseError), transaction.atomic():
        _insert(forged, prev_hash=last["hash"], how="guessed-key")


def test_a_second_head_row_is_refused(chain):
    last = _rows()[-1]
    assert _refused("INSERT INTO compliance_auditchainhead (id, last_seq, last_hash, last_key_id) "
                    "VALUES (2, %s, %s, %s)", [last["seq"], last["hash"], last["key_id"]])


@pytest.mark.postgres
def test_the_head_cannot_be_truncated(chain):
    if connection.vendor != "postgresql":
        pytest.skip("TRUNCATE exists only on PostgreSQL")
    assert _refused("TRUNCATE compliance_auditchainhead")


@pytest.mark.postgres
def test_everything_deleted_with_replication_role_replica_is_detected(chain):
    """The superuser's bypass: `session_replication_role = replica` skips every ordinary trigger."""
    if connection.vendor != "postgresql":
        pytest.skip("session_replication_role exists only on PostgreSQL")
    with transaction.atomic():
        _sql("SET LOCAL session_replication_role = replica")
        _sql("DELETE FROM compliance_auditchainhead")
        _sql("DELETE FROM compliance_auditevent")
    report = verify_chain()
    assert (report.ok, report.bad_seq) == (False, 1) and "checkpoint" in report.reason


def test_the_chain_still_verifies_and_grows_after_the_cases_setup(chain):
    """Control: the starting chain itself is intact, and the triggers let the application append."""
    audit_record(actor="system:test", action="test.after")
    assert verify_chain().ok
