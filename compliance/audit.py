"""The audit trail service: the only writer of `AuditEvent`, and the chain verifier (DESIGN §5).

Every regulated change calls `audit_record(actor=..., action=..., ...)` inside the transaction that
makes the change, so the change and its audit event commit or roll back together.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, models, transaction
from django.utils import timezone

from .auditkeys import KeyRing, keyring
from .checkpoints import Checkpoint, CheckpointError, get_store
from .models import AuditChainHead, AuditEvent

GENESIS_HASH = "0" * 64
SEAL_ACTION = "audit.chain_sealed"  # the first keyed event after events of the unkeyed chain
ROTATE_ACTION = "audit.key_rotated"  # the chain's sealing key changes only at such an event

# Fields covered by the hash, in a fixed list so that adding a column later cannot silently change
# what old rows hash to.
HASHED_FIELDS = (
    "seq",
    "created_at",
    "actor_id",
    "actor_repr",
    "action",
    "object_type",
    "object_id",
    "object_repr",
    "before",
    "after",
    "data",
    "approver_id",
    "approver_repr",
    "ip_address",
    "significant",
)


def plain_json(value: Any) -> Any:
    """JSON-safe copy (Decimals, dates, UUIDs become strings) so what is stored is what is hashed."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _canonical(row: dict[str, Any]) -> dict[str, Any]:
    content = {name: row[name] for name in HASHED_FIELDS}
    created = content["created_at"]
    content["created_at"] = created.astimezone(dt.timezone.utc).isoformat(timespec="microseconds")
    return content


def _payload(content: dict[str, Any]) -> bytes:
    return json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder
    ).encode("utf-8")


def legacy_hash(row: dict[str, Any], prev_hash: str) -> str:
    """The unkeyed SHA-256 of the first chain (rows with an empty `key_id`, sealed by migration 0008)."""
    return hashlib.sha256(_payload({"prev_hash": prev_hash, **_canonical(row)})).hexdigest()


def seal_hash(row: dict[str, Any], prev_hash: str, key_id: str, key: bytes) -> str:
    """HMAC-SHA256 under the audit key `key_id` of the row's content, its key id and the previous seal."""
    content = {"prev_hash": prev_hash, "key_id": key_id, **_canonical(row)}
    return hmac.new(key, _payload(content), hashlib.sha256).hexdigest()


def expected_hash(row: dict[str, Any], keys: KeyRing) -> str:
    """What the row's `hash` must be (KeyConfigError when its key is not configured)."""
    if not row["key_id"]:
        return legacy_hash(row, row["prev_hash"])
    return seal_hash(row, row["prev_hash"], row["key_id"], keys.key(row["key_id"]))


def _who(actor: Any) -> tuple[Any, str]:
    """(user or None, printable name). Jobs pass a string such as "system:settlement"."""
    if actor is None or isinstance(actor, AnonymousUser):
        return None, "anonymous"
    if isinstance(actor, str):
        return None, actor
    return actor, actor.get_username()


def _object_fields(obj: models.Model | None) -> dict[str, str]:
    if obj is None:
        return {}
    return {
        "object_type": obj._meta.label_lower,
        "object_id": str(obj.pk),
        "object_repr": str(obj)[:255],
    }


_REQUEST: ContextVar[Any] = ContextVar("audit_request", default=None)


@contextmanager
def request_context(request: Any):
    """Inside it, an audit event recorded without a request of its own takes this request's client
    address: an approval handler's events carry the address of the person whose decision ran them."""
    token = _REQUEST.set(request)
    try:
        yield
    finally:
        _REQUEST.reset(token)


def current_request() -> Any:
    """The request of `request_context` (every web request runs in one, see config.middleware), or None."""
    return _REQUEST.get()


def client_ip(request: Any) -> str | None:
    if request is None:
        request = _REQUEST.get()
    if request is None:
        return None
    return request.META.get("REMOTE_ADDR") or None


def audit_record(
    *,
    actor: Any,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str | int = "",
    object_repr: str = "",
    before: Any = None,
    after: Any = None,
    data: Any = None,
    approver: Any = None,
    significant: bool = False,
    request: Any = None,
) -> AuditEvent:
    """Append one event to the chain, in the caller's transaction (or a new one)."""
    actor_user, actor_repr = _who(actor)
    approver_user, approver_repr = _who(approver) if approver is not None else (None, "")
    fields = {
        "object_type": object_type,
        "object_id": str(object_id),
        "object_repr": object_repr[:255],
        **_object_fields(obj),
    }
    with transaction.atomic():
        head = _locked_head()
        keys = keyring()
        if head.last_seq and not head.last_key_id:
            # Events of the unkeyed chain that migration 0008 did not seal (loaded later): seal them first.
            _append(head, keys.current_id, keys, **_seal_fields(head, AuditEvent))
        event = _append(
            head,
            head.last_key_id or keys.current_id,
            keys,
            actor=actor_user,
            actor_repr=actor_repr[:150],
            action=action,
            before=plain_json(before),
            after=plain_json(after),
            data=plain_json(data),
            approver=approver_user,
            approver_repr=approver_repr[:150],
            ip_address=client_ip(request),
            significant=significant,
            **fields,
        )
    return event


def _locked_head() -> AuditChainHead:
    """The chain head, locked for this transaction; every writer of the chain waits here."""
    head = AuditChainHead.objects.select_for_update().filter(pk=1).first()
    if head is None:
        # First event of an empty database (or of a test after the tables were emptied). Concurrent
        # first writers race to insert; the loser's insert is ignored, then all lock. The database
        # refuses a head that does not name the last event (compliance.triggers).
        last = AuditEvent.objects.order_by("-seq").values("seq", "hash", "key_id").first()
        try:
            with transaction.atomic():
                AuditChainHead.objects.bulk_create(
                    [
                        AuditChainHead(
                            pk=1,
                            last_seq=last["seq"] if last else 0,
                            last_hash=last["hash"] if last else GENESIS_HASH,
                            last_key_id=last["key_id"] if last else "",
                        )
                    ],
                    ignore_conflicts=True,
                )
        except DatabaseError:
            pass  # another writer created the head and added an event meanwhile: our copy is stale
        head = AuditChainHead.objects.select_for_update().get(pk=1)
    return head


def _append(head: Any, key_id: str, keys: KeyRing, *, event_model: Any = None, **fields: Any) -> Any:
    """Insert the event after `head` (locked), sealed with `key_id`, and move the head to it."""
    model = event_model or AuditEvent
    event = model(
        seq=head.last_seq + 1,
        created_at=fields.pop("created_at", None) or timezone.now(),
        prev_hash=head.last_hash,
        key_id=key_id,
        **fields,
    )
    content = {f: getattr(event, f) for f in HASHED_FIELDS}
    event.hash = seal_hash(content, event.prev_hash, key_id, keys.key(key_id))
    event.save(force_insert=True)
    head.last_seq, head.last_hash, head.last_key_id = event.seq, event.hash, key_id
    head.save(update_fields=["last_seq", "last_hash", "last_key_id"])
    return event


def _seal_fields(head: Any, event_model: Any, actor_repr: str = "system:audit") -> dict[str, Any]:
    """The `audit.chain_sealed` event that ends the unkeyed chain: what it seals and whether the
    unkeyed chain verified when it was sealed (sealing never hides a break: the unkeyed rows are still
    checked on every verification)."""
    walk = _Walk(keyring())
    reason = ""
    rows = event_model.objects.filter(seq__lte=head.last_seq).order_by("seq").values(*_ROW_FIELDS)
    for row in rows.iterator(chunk_size=5000):
        reason = walk.step(row)
        if reason:
            break
    return {
        "actor": None,
        "actor_repr": actor_repr,
        "action": SEAL_ACTION,
        "object_type": "compliance.auditevent",
        "data": {
            "unkeyed_events": head.last_seq,
            "unkeyed_last_hash": head.last_hash,
            "unkeyed_chain_verified": not reason and walk.checked == head.last_seq,
            "unkeyed_chain_problem": reason or ("" if walk.checked == head.last_seq else "the chain is shorter"),
        },
        "significant": True,
    }


def chain_seal_unkeyed(event_model: Any, head_model: Any, actor_repr: str) -> Any:
    """Seal an unkeyed chain with the current audit key (migration 0008; safe to run twice).

    The rows are left as they are (the table is append-only and they are the evidence); one keyed event
    is appended whose seal covers the previous row's hash, and through it every unkeyed row. Returns the
    seal event, or None when there is nothing to seal."""
    last = event_model.objects.order_by("-seq").values("seq", "hash", "key_id").first()
    if last is None or last["key_id"]:
        return None
    keys = keyring()
    with transaction.atomic():
        head = head_model.objects.select_for_update().filter(pk=1).first()
        if head is None:
            head = head_model(pk=1)
        # The seal follows the newest row whatever the old head said; the old head goes into the event.
        old_head = (head.last_seq, head.last_hash) if head.pk and head.last_hash else None
        head.last_seq, head.last_hash, head.last_key_id = last["seq"], last["hash"], ""
        head.save()
        fields = _seal_fields(head, event_model, actor_repr)
        fields["data"]["head_before"] = list(old_head) if old_head else None
        return _append(head, keys.current_id, keys, event_model=event_model, **fields)


def audit_key_rotate(*, actor: Any, reason: str = "") -> AuditEvent:
    """Move the chain to the newest key of AUDIT_HMAC_KEYS: one `audit.key_rotated` event, sealed with
    the new key, after which every event is sealed with it. ValueError (nothing changed) when the chain
    is already sealed with that key, or when the key was used before (keys are never reused)."""
    keys = keyring()
    new = keys.current_id
    with transaction.atomic():
        head = _locked_head()
        old = head.last_key_id or ""
        if old == new:
            raise ValueError(f"The audit chain is already sealed with the newest key {new!r}; list the new key "
                             "first in AUDIT_HMAC_KEYS on every process, then rotate.")
        if AuditEvent.objects.filter(key_id=new).exists():
            raise ValueError(f"The key id {new!r} was used before; a rotation needs a key id never used.")
        if old:
            keys.key(old)  # the outgoing key must still be listed, so its rows stay verifiable
        actor_user, actor_repr = _who(actor)
        return _append(
            head, new, keys, actor=actor_user, actor_repr=actor_repr[:150], action=ROTATE_ACTION,
            object_type="compliance.auditevent", data={"from": old, "to": new, "reason": reason},
            ip_address=client_ip(None), significant=True,
        )


_ROW_FIELDS = ("id", "prev_hash", "hash", "key_id", *HASHED_FIELDS)


class _Walk:
    """Checks rows one after the other in sequence order; `step` returns why a row is bad, or ""."""

    def __init__(self, keys: KeyRing, *, after: dict[str, Any] | None = None):
        self.keys = keys
        self.prev_hash = after["hash"] if after else GENESIS_HASH
        self.expected_seq = after["seq"] + 1 if after else 1
        self.key_id: str | None = (after["key_id"] or None) if after else None  # None: not sealed yet
        self.unkeyed_seen = bool(after and not after["key_id"])
        self.used: set[str] | None = None if after else set()  # keys used so far (unknown when resumed)
        self.checked = 0
        self.last: dict[str, Any] | None = after

    def step(self, row: dict[str, Any]) -> str:
        if row["seq"] != self.expected_seq:
            return f"sequence gap: expected {self.expected_seq}"
        if row["prev_hash"] != self.prev_hash:
            return "previous-hash link broken"
        kid = row["key_id"] or ""
        if not kid:
            if self.key_id is not None:
                return "unkeyed event after the chain was sealed with a key"
            self.unkeyed_seen = True
        else:
            if kid not in self.keys.keys:
                return f"sealed with key {kid!r}, which AUDIT_HMAC_KEYS does not list"
            data = row["data"] if isinstance(row["data"], dict) else {}
            if self.key_id is None:
                if self.unkeyed_seen and row["action"] != SEAL_ACTION:
                    return f"the first keyed event after unkeyed events is not {SEAL_ACTION}"
            elif kid != self.key_id:
                if row["action"] != ROTATE_ACTION or data.get("from") != self.key_id or data.get("to") != kid:
                    return f"sealing key changes from {self.key_id!r} to {kid!r} without a rotation event"
                if self.used is not None and kid in self.used:
                    return f"rotation back to key {kid!r}, which sealed earlier events"
        if not hmac.compare_digest(expected_hash(row, self.keys), row["hash"]):
            return "content does not match its seal" if kid else "content does not match its hash"
        if kid:
            self.key_id = kid
            if self.used is not None:
                self.used.add(kid)
        self.prev_hash = row["hash"]
        self.expected_seq += 1
        self.checked += 1
        self.last = row
        return ""


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    checked: int
    bad_seq: int | None = None
    bad_id: int | None = None
    reason: str = ""
    last_seq: int = 0  # where the verified chain ends
    last_hash: str = GENESIS_HASH
    last_key_id: str = ""
    checkpoint_seq: int | None = None  # the newest checkpoint compared
    checkpoint_time: str = ""
    checkpoints: int = 0  # how many checkpoints were compared
    store: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "bad_seq": self.bad_seq,
            "bad_id": self.bad_id,
            "reason": self.reason,
            "last_seq": self.last_seq,
            "checkpoint_seq": self.checkpoint_seq,
            "checkpoint_time": self.checkpoint_time,
            "checkpoints": self.checkpoints,
            "store": self.store,
        }


# How many of the newest checkpoints a full verification compares with the chain.
CHECKPOINTS_VERIFIED = 10


def verify_chain(
    chunk_size: int = 5000, *, checkpoints: int = CHECKPOINTS_VERIFIED, store: Any = None, incremental: bool = False
) -> ChainReport:
    """Verify the seals, links and key changes of the chain, the head, and the newest `checkpoints`
    checkpoints (0: all): the chain must reach the newest one and have the recorded seal at each.

    `incremental` starts from the newest checkpoint instead of the first event (the checkpoint writer
    uses it, so that it never signs a forged tail); a full verification also checks that no key is used
    again after a rotation. The report names the first bad row and why."""
    keys = keyring()
    store = store if store is not None else get_store()
    where = str(store)
    try:
        cps = store.latest(1 if incremental else checkpoints)
        for cp in cps:
            cp.verify(keys)
    except (CheckpointError, OSError) as exc:
        return ChainReport(False, 0, reason=f"checkpoint store {where}: {exc}", store=where)
    newest = max(cps, key=lambda c: c.seq) if cps else None
    at_seq: dict[int, list[Checkpoint]] = {}
    for cp in cps:
        at_seq.setdefault(cp.seq, []).append(cp)
    cp_info = {
        "checkpoint_seq": newest.seq if newest else None,
        "checkpoint_time": newest.time if newest else "",
        "checkpoints": len(cps),
        "store": where,
    }

    def broken(walk: _Walk, seq: int | None, row_id: int | None, reason: str) -> ChainReport:
        return ChainReport(False, walk.checked, seq, row_id, reason, **cp_info)

    head_before = AuditChainHead.objects.filter(pk=1).values("last_seq", "last_hash", "last_key_id").first()
    rows = AuditEvent.objects.order_by("seq").values(*_ROW_FIELDS)
    after = None
    if incremental and newest is not None:
        after = AuditEvent.objects.filter(seq=newest.seq).values(*_ROW_FIELDS).first()
        if after is None or after["hash"] != newest.hash:
            return broken(
                _Walk(keys), newest.seq, after and after["id"],
                f"the event at seq {newest.seq} does not match the checkpoint of {newest.time} ({where})"
                if after else f"the checkpoint of {newest.time} records seq {newest.seq}, which no longer exists",
            )
        rows = rows.filter(seq__gt=newest.seq)
    walk = _Walk(keys, after=after)
    for row in rows.iterator(chunk_size=chunk_size):
        reason = walk.step(row)
        if reason:
            return broken(walk, row["seq"], row["id"], reason)
        for cp in at_seq.get(row["seq"], ()):
            if cp.hash != row["hash"]:
                return broken(walk, row["seq"], row["id"], f"seal differs from the checkpoint of {cp.time} ({where})")
    end = walk.last["seq"] if walk.last else 0
    last_id = walk.last["id"] if walk.last else None
    if walk.unkeyed_seen and walk.key_id is None:
        return broken(walk, end, last_id, "the unkeyed events were never sealed with a key")
    # The head was read before the rows and is read again after: events committed meanwhile may lie
    # between the two, never outside them. Missing events are reported at the first missing number.
    head_after = AuditChainHead.objects.filter(pk=1).values("last_seq", "last_hash", "last_key_id").first()
    if head_before is None or head_after is None:
        if end:
            return broken(walk, end, last_id, "the chain head is missing")
    else:
        if end < head_before["last_seq"]:
            return broken(walk, end + 1, None, f"events missing: the chain ends at seq {end} but the head records "
                                               f"seq {head_before['last_seq']}")
        if end > head_after["last_seq"]:
            return broken(walk, head_after["last_seq"] + 1, None,
                          f"the chain runs to seq {end}, beyond the head (seq {head_after['last_seq']})")
        if end == head_after["last_seq"] and (
            head_after["last_hash"] != walk.prev_hash or head_after["last_key_id"] != (walk.last or {}).get("key_id", "")
        ):
            return broken(walk, end, last_id, "the head does not match the last event")
    if newest is not None and end < newest.seq:
        return broken(
            walk, end + 1, None,
            f"events missing: the chain ends at seq {end} but the checkpoint of {newest.time} records seq "
            f"{newest.seq} ({where})",
        )
    return ChainReport(
        True, walk.checked, last_seq=end, last_hash=walk.prev_hash, last_key_id=walk.key_id or "", **cp_info
    )


def checkpoint_write(*, store: Any = None, now: dt.datetime | None = None) -> tuple[Checkpoint | None, ChainReport]:
    """Verify the events since the newest checkpoint and, when the chain has grown and verifies, write a
    signed checkpoint of where it ends. (None, report) when there is nothing new or the chain is broken."""
    store = store if store is not None else get_store()
    report = verify_chain(store=store, incremental=True)
    if not report.ok or report.last_seq == 0:
        return None, report
    if report.checkpoint_seq == report.last_seq:
        return None, report  # nothing new since the newest checkpoint
    # Signed with the key the chain is sealed with: during a rolling key change every process knows it.
    cp = Checkpoint.sign(seq=report.last_seq, hash_=report.last_hash, moment=now or timezone.now(), keys=keyring(),
                         key_id=report.last_key_id)
    store.append(cp)
    return cp, report
