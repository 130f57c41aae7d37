"""The audit key (AUDIT_HMAC_KEYS): its format and system checks, rotation, and the sealing of an
unkeyed chain (docs/compliance.md, "Audit trail")."""

from __future__ import annotations

import secrets

import pytest
from django.db import connection
from django.test import override_settings

from compliance import triggers
from compliance.audit import (
    GENESIS_HASH,
    HASHED_FIELDS,
    ROTATE_ACTION,
    SEAL_ACTION,
    audit_key_rotate,
    audit_record,
    chain_seal_unkeyed,
    legacy_hash,
    seal_hash,
    verify_chain,
)
from compliance.auditkeys import KeyConfigError, keyring, parse
from compliance.checks import audit_key_is_set
from compliance.models import AuditChainHead, AuditEvent


def _key(key_id: str) -> str:
    return f"{key_id}:{secrets.token_hex(32)}"


# -- format and checks ---------------------------------------------------------------------------------

def test_keys_are_listed_newest_first():
    ring = parse([_key("k2"), _key("k1")])
    assert (ring.current_id, ring.ids) == ("k2", ("k2", "k1"))


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([], "empty"),
        (["nokey"], "not 'id:hexkey'"),
        (["bad id!:" + "ab" * 32], "key id"),
        (["k1:xyz"], "not hexadecimal"),
        (["k1:" + "ab" * 16], "at least 32"),
        ([_key("k1"), _key("k1")], "twice"),
    ],
)
def test_a_malformed_key_list_is_refused_with_what_is_wrong(entries, message):
    with pytest.raises(KeyConfigError, match=message):
        parse(entries)


def _check_ids() -> list[str]:
    return [e.id for e in audit_key_is_set()]


def test_production_without_the_audit_key_fails_the_system_check(settings):
    settings.AUDIT_HMAC_KEYS = []
    assert "valvoja.E004" in _check_ids()


def test_a_malformed_audit_key_fails_the_system_check(settings):
    settings.AUDIT_HMAC_KEYS = ["k1:short"]
    assert "valvoja.E005" in _check_ids()


def test_an_unknown_checkpoint_storage_fails_the_system_check(settings):
    settings.AUDIT_CHECKPOINT_STORE = "storage:no_such_alias"
    assert "valvoja.E006" in _check_ids()


def test_the_development_key_passes_the_system_check():
    assert _check_ids() == []


def test_each_event_records_the_key_that_sealed_it(db):
    event = audit_record(actor="system:test", action="test.keyed")
    assert event.key_id == keyring().current_id


def test_the_seal_depends_on_the_key(db):
    event = audit_record(actor="system:test", action="test.keyed")
    row = {f: getattr(event, f) for f in HASHED_FIELDS}
    other = seal_hash(row, event.prev_hash, event.key_id, b"\x01" * 32)
    assert other != event.hash and legacy_hash(row, event.prev_hash) != event.hash


# -- rotation ------------------------------------------------------------------------------------------

@pytest.fixture
def rotated(db):
    """The chain moved from the development key to a new key "k2" (listed first, the old one kept)."""
    old = keyring()
    audit_record(actor="system:test", action="test.before_rotation")
    entries = [_key("k2"), f"{old.current_id}:{old.keys[old.current_id].hex()}"]
    with override_settings(AUDIT_HMAC_KEYS=entries):
        event = audit_key_rotate(actor="system:test", reason="scheduled")
        yield {"event": event, "old": old.current_id, "entries": entries}


def test_rotation_is_an_audit_event_sealed_with_the_new_key(rotated):
    event = rotated["event"]
    assert (event.action, event.key_id, event.data["from"], event.significant) == (
        ROTATE_ACTION, "k2", rotated["old"], True)


def test_events_after_a_rotation_are_sealed_with_the_new_key(rotated):
    assert audit_record(actor="system:test", action="test.after_rotation").key_id == "k2"


def test_a_rotated_chain_verifies_with_old_and_new_keys_listed(rotated):
    audit_record(actor="system:test", action="test.after_rotation")
    assert verify_chain().ok


def test_until_the_rotation_a_newly_listed_key_is_not_used(db):
    """Step 1 of a rotation (the new key listed first everywhere) changes nothing yet, so processes
    that still have the old list keep working."""
    from compliance.audit import checkpoint_write

    old = keyring()
    with override_settings(AUDIT_HMAC_KEYS=[_key("k2"), f"{old.current_id}:{old.keys[old.current_id].hex()}"]):
        event = audit_record(actor="system:test", action="test.before_rotation")
        checkpoint, _ = checkpoint_write()
    assert (event.key_id, checkpoint.key_id) == (old.current_id, old.current_id)


def test_the_checkpoint_after_a_rotation_is_signed_with_the_new_key(rotated):
    from compliance.audit import checkpoint_write

    with override_settings(AUDIT_HMAC_KEYS=rotated["entries"]):
        checkpoint, _ = checkpoint_write()
    assert checkpoint.key_id == "k2"


def test_rows_of_a_key_no_longer_listed_do_not_verify(rotated):
    with override_settings(AUDIT_HMAC_KEYS=rotated["entries"][:1]):
        report = verify_chain()
    assert not report.ok and "does not list" in report.reason


def test_rotating_to_the_key_already_in_use_is_refused(rotated):
    with pytest.raises(ValueError, match="already sealed"):
        audit_key_rotate(actor="system:test")


def test_rotating_back_to_an_earlier_key_is_refused(rotated):
    back = [rotated["entries"][1], rotated["entries"][0]]
    with override_settings(AUDIT_HMAC_KEYS=back), pytest.raises(ValueError, match="used before"):
        audit_key_rotate(actor="system:test")


def test_an_event_sealed_with_the_old_key_after_the_rotation_is_detected(rotated):
    """Someone holding the retired key appends with it, as the application would have before."""
    head = AuditChainHead.objects.get(pk=1)
    old_first = [rotated["entries"][1], rotated["entries"][0]]
    with override_settings(AUDIT_HMAC_KEYS=old_first):
        keys = keyring()
        row = AuditEvent(seq=head.last_seq + 1, created_at=rotated["event"].created_at, actor_repr="mallory",
                         action="test.old_key", prev_hash=head.last_hash, key_id=rotated["old"])
        row.hash = seal_hash({f: getattr(row, f) for f in HASHED_FIELDS}, row.prev_hash, row.key_id,
                             keys.key(rotated["old"]))
        row.save(force_insert=True)
        head.last_seq, head.last_hash, head.last_key_id = row.seq, row.hash, row.key_id
        head.save()
        report = verify_chain()
    assert (report.ok, report.bad_seq) == (False, row.seq) and "without a rotation event" in report.reason


def test_recording_fails_closed_when_the_chains_key_is_not_configured(rotated):
    with override_settings(AUDIT_HMAC_KEYS=rotated["entries"][1:]), pytest.raises(KeyConfigError, match="k2"):
        audit_record(actor="system:test", action="test.unknown_key")


# -- sealing an unkeyed chain (migration 0008) -----------------------------------------------------------

def _unkeyed_chain(n: int) -> list[AuditEvent]:
    """Rows as the unkeyed chain wrote them, on an empty audit table (its triggers off meanwhile)."""
    from django.utils import timezone

    triggers.drop(connection)
    try:
        AuditChainHead.objects.all().delete()
        AuditEvent.objects.all().delete()
        prev, rows = GENESIS_HASH, []
        for i in range(1, n + 1):
            row = AuditEvent(seq=i, created_at=timezone.now(), actor_repr="system:old", action=f"old.{i}",
                             data={"i": i}, prev_hash=prev, key_id="")
            row.hash = legacy_hash({f: getattr(row, f) for f in HASHED_FIELDS}, prev)
            row.save(force_insert=True)
            prev = row.hash
            rows.append(row)
        AuditChainHead.objects.create(pk=1, last_seq=n, last_hash=prev, last_key_id="")
    finally:
        triggers.install(connection)
    return rows


def test_an_unkeyed_chain_does_not_verify_until_sealed(db):
    _unkeyed_chain(3)
    report = verify_chain()
    assert not report.ok and "never sealed" in report.reason


def test_sealing_appends_one_keyed_event_and_the_chain_verifies(db):
    _unkeyed_chain(3)
    seal = chain_seal_unkeyed(AuditEvent, AuditChainHead, actor_repr="system:migration")
    assert (seal.seq, seal.action, seal.data["unkeyed_chain_verified"]) == (4, SEAL_ACTION, True)
    assert verify_chain().ok


def test_sealing_twice_does_nothing(db):
    _unkeyed_chain(2)
    chain_seal_unkeyed(AuditEvent, AuditChainHead, actor_repr="system:migration")
    assert chain_seal_unkeyed(AuditEvent, AuditChainHead, actor_repr="system:migration") is None


def test_unkeyed_rows_rewritten_after_the_seal_are_detected(db):
    """The attacker rewrites an old row and recomputes the unkeyed hashes up to the seal."""
    rows = _unkeyed_chain(3)
    chain_seal_unkeyed(AuditEvent, AuditChainHead, actor_repr="system:migration")
    triggers.drop(connection)
    try:
        prev = rows[0].hash
        for row in rows[1:]:
            if row.seq == 2:
                row.action = "old.forged"
            row.prev_hash = prev
            row.hash = legacy_hash({f: getattr(row, f) for f in HASHED_FIELDS}, prev)
            AuditEvent.objects.filter(pk=row.pk).update(action=row.action, prev_hash=row.prev_hash, hash=row.hash)
            prev = row.hash
    finally:
        triggers.install(connection)
    report = verify_chain()
    assert (report.ok, report.bad_seq, report.reason) == (False, 4, "previous-hash link broken")


def test_recording_on_an_unsealed_chain_seals_it_first(db):
    _unkeyed_chain(2)
    event = audit_record(actor="system:test", action="test.after_old")
    assert AuditEvent.objects.get(seq=3).action == SEAL_ACTION and event.seq == 4 and verify_chain().ok


def test_an_unkeyed_event_after_the_seal_is_detected(db):
    """A forged row computed with the old, unkeyed algorithm and appended (triggers let it in)."""
    event = audit_record(actor="system:test", action="test.keyed")
    forged = AuditEvent(seq=event.seq + 1, created_at=event.created_at, actor_repr="mallory", action="test.forged",
                        prev_hash=event.hash, key_id="")
    forged.hash = legacy_hash({f: getattr(forged, f) for f in HASHED_FIELDS}, forged.prev_hash)
    forged.save(force_insert=True)
    report = verify_chain()
    assert (report.ok, report.bad_seq) == (False, forged.seq) and "unkeyed event after" in report.reason


@pytest.mark.django_db(transaction=True)
def test_migration_0008_seals_an_existing_unkeyed_chain():
    """Back to 0007 (the unkeyed chain), rows written as it wrote them, then forward: one seal event,
    and the whole chain verifies."""
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = [("compliance", "0007_drop_clear_text_api_keys")]
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("compliance")
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        triggers.drop(connection)
        with connection.cursor() as cursor:  # only the rows of the old chain (set-up events removed)
            cursor.execute("DELETE FROM compliance_auditchainhead")
            cursor.execute("DELETE FROM compliance_auditevent")
        prev = GENESIS_HASH
        old_apps = executor.loader.project_state(before).apps
        OldEvent, OldHead = (old_apps.get_model("compliance", m) for m in ("AuditEvent", "AuditChainHead"))
        for i in range(1, 4):
            row = OldEvent(seq=i, created_at=timezone.now(), actor_repr="system:old", action=f"old.{i}",
                           data={"i": i}, prev_hash=prev)
            row.hash = legacy_hash({f: getattr(row, f) for f in HASHED_FIELDS}, prev)
            row.save(force_insert=True)
            prev = row.hash
        OldHead.objects.update_or_create(pk=1, defaults={"last_seq": 3, "last_hash": prev})
        triggers.install_append_only(connection)
    finally:
        MigrationExecutor(connection).migrate(latest)
    seal = AuditEvent.objects.get(seq=4)
    report = verify_chain()
    assert (seal.action, seal.actor_repr, report.ok, report.checked) == (SEAL_ACTION, "system:migration", True, 4)
