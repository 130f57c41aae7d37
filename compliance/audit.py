"""The audit trail service: the only writer of `AuditEvent`, and the chain verifier (DESIGN §5).

Every regulated change calls `audit_record(actor=..., action=..., ...)` inside the transaction that
makes the change, so the change and its audit event commit or roll back together.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from .models import AuditChainHead, AuditEvent

GENESIS_HASH = "0" * 64

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


def _plain(value: Any) -> Any:
    """JSON-safe copy (Decimals, dates, UUIDs become strings) so what is stored is what is hashed."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _canonical(row: dict[str, Any]) -> dict[str, Any]:
    content = {name: row[name] for name in HASHED_FIELDS}
    created = content["created_at"]
    content["created_at"] = created.astimezone(dt.timezone.utc).isoformat(timespec="microseconds")
    return content


def compute_hash(row: dict[str, Any], prev_hash: str) -> str:
    payload = json.dumps(
        {"prev_hash": prev_hash, **_canonical(row)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        cls=DjangoJSONEncoder,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


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
        head = AuditChainHead.objects.select_for_update().filter(pk=1).first()
        if head is None:
            # First event, or the head was cleared with the table (tests): continue from the last row.
            # Concurrent first writers race to insert; the loser's insert is ignored, then all lock.
            last = AuditEvent.objects.order_by("-seq").values("seq", "hash").first()
            AuditChainHead.objects.bulk_create(
                [
                    AuditChainHead(
                        pk=1,
                        last_seq=last["seq"] if last else 0,
                        last_hash=last["hash"] if last else GENESIS_HASH,
                    )
                ],
                ignore_conflicts=True,
            )
            head = AuditChainHead.objects.select_for_update().get(pk=1)
        event = AuditEvent(
            seq=head.last_seq + 1,
            created_at=timezone.now(),
            actor=actor_user,
            actor_repr=actor_repr[:150],
            action=action,
            before=_plain(before),
            after=_plain(after),
            data=_plain(data),
            approver=approver_user,
            approver_repr=approver_repr[:150],
            ip_address=client_ip(request),
            significant=significant,
            prev_hash=head.last_hash,
            **fields,
        )
        event.hash = compute_hash({f: getattr(event, f) for f in HASHED_FIELDS}, event.prev_hash)
        event.save(force_insert=True)
        head.last_seq = event.seq
        head.last_hash = event.hash
        head.save(update_fields=["last_seq", "last_hash"])
    return event


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    checked: int
    bad_seq: int | None = None
    bad_id: int | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "bad_seq": self.bad_seq,
            "bad_id": self.bad_id,
            "reason": self.reason,
        }


def verify_chain(chunk_size: int = 5000) -> ChainReport:
    """Recompute every hash in sequence order; report the first row that does not verify."""
    prev_hash = GENESIS_HASH
    expected_seq = 1
    checked = 0
    rows = AuditEvent.objects.order_by("seq").values("id", "prev_hash", "hash", *HASHED_FIELDS)
    for row in rows.iterator(chunk_size=chunk_size):
        if row["seq"] != expected_seq:
            return ChainReport(False, checked, row["seq"], row["id"], f"sequence gap: expected {expected_seq}")
        if row["prev_hash"] != prev_hash:
            return ChainReport(False, checked, row["seq"], row["id"], "previous-hash link broken")
        if compute_hash(row, row["prev_hash"]) != row["hash"]:
            return ChainReport(False, checked, row["seq"], row["id"], "content does not match its hash")
        prev_hash = row["hash"]
        expected_seq += 1
        checked += 1
    head = AuditChainHead.objects.filter(pk=1).first()
    if head is not None and (head.last_seq != checked or head.last_hash != prev_hash):
        return ChainReport(
            False, checked, head.last_seq, None, f"chain ends at seq {checked} but head records seq {head.last_seq}"
        )
    return ChainReport(True, checked)
