"""Four-eyes approvals: one person asks, a different person decides (DESIGN §3, §5).

Any app that needs a second person registers a handler for its kind and asks through
`approval_request(...)`; the handler runs, in the decider's transaction, only when a *different*
person approves:

    from compliance.approvals import register_approval_handler, approval_request

    def _apply_payout(approval, *, approver):           # does the work, audits it
        ...

    register_approval_handler("lottery.payout", _apply_payout)   # in AppConfig.ready()
    approval_request(actor=user, kind="lottery.payout", obj=draw, payload={...}, reason="...")

Both steps are audit events (`approval.requested`, `approval.approved` / `approval.rejected`, the
decider recorded as `approver`). The handler's own audit event should name the requester as actor
and the decider as `approver=`. See docs/compliance.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models, transaction
from django.utils import timezone

from .audit import _plain, audit_record
from .models import Approval

Handler = Callable[..., Any]
_HANDLERS: dict[str, Handler] = {}
# Handlers that may be registered only for a reject (e.g. to mark a staged import rejected).
_REJECT_HANDLERS: dict[str, Handler] = {}
# Permission a decider must hold for the kind, besides compliance.decide_approval.
_PERMISSIONS: dict[str, str] = {}


class FourEyesError(Exception):
    """The decision is not allowed: same person as the requester, or not pending any more."""


def register_approval_handler(kind: str, fn: Handler, *, on_reject: Handler | None = None,
                              permission: str = "") -> None:
    """`fn(approval, *, approver)` runs when an approval of `kind` is approved; `on_reject` (same
    signature) when it is rejected. `permission`, when given, is needed to decide this kind, besides
    `compliance.decide_approval`. Registering again replaces the previous handler."""
    _HANDLERS[kind] = fn
    if on_reject is not None:
        _REJECT_HANDLERS[kind] = on_reject
    if permission:
        _PERMISSIONS[kind] = permission


def may_decide(user, approval: Approval) -> bool:
    """Whether `user` may decide this request (never their own)."""
    needed = ["compliance.decide_approval", *([_PERMISSIONS[approval.kind]] if approval.kind in _PERMISSIONS else [])]
    return (
        user.is_authenticated
        and user.pk != approval.requested_by_id
        and approval.state == Approval.State.REQUESTED
        and user.has_perms(needed)
    )


def approval_kinds() -> list[str]:
    return sorted(_HANDLERS)


def approval_target(approval: Approval) -> models.Model | None:
    from django.apps import apps

    if not approval.target_type:
        return None
    model = apps.get_model(approval.target_type)
    return model.objects.filter(pk=approval.target_id).first()


@transaction.atomic
def approval_request(*, actor, kind: str, obj: models.Model | None, payload: dict | None = None,
                     reason: str = "", request=None) -> Approval:
    """Ask for a second person's approval of `kind` on `obj`; audited as `approval.requested`."""
    if kind not in _HANDLERS:
        raise ValueError(f"No approval handler is registered for {kind!r}.")
    if actor is None or isinstance(actor, str) or not actor.is_authenticated:
        raise FourEyesError("An approval must be requested by a signed-in person.")
    approval = Approval.objects.create(
        kind=kind,
        target_type=obj._meta.label_lower if obj is not None else "",
        target_id=str(obj.pk) if obj is not None else "",
        target_repr=str(obj)[:255] if obj is not None else "",
        payload=_plain(payload or {}),  # dates and Decimals become strings, as in the audit trail
        reason=reason,
        requested_by=actor,
    )
    audit_record(
        actor=actor,
        action="approval.requested",
        obj=approval,
        data={"kind": kind, "target": f"{approval.target_type}:{approval.target_id}",
              "payload": approval.payload, "reason": reason},
        request=request,
    )
    return approval


@transaction.atomic
def approval_decide(*, actor, approval: Approval, approve: bool, note: str = "", request=None) -> Approval:
    """Approve (running the kind's handler) or reject a pending request. The decider must not be the
    requester; the decision and the handler's work commit together or not at all."""
    approval = Approval.objects.select_for_update().get(pk=approval.pk)
    if approval.state != Approval.State.REQUESTED:
        raise FourEyesError(f"This request was already {approval.get_state_display()}; nothing to decide.")
    if actor is None or isinstance(actor, str) or not actor.is_authenticated:
        raise FourEyesError("A decision must be made by a signed-in person.")
    if actor.pk == approval.requested_by_id:
        raise FourEyesError(
            "Four-eyes rule: you asked for this yourself, so a different person must approve or reject it."
        )
    if approval.kind in _PERMISSIONS and not actor.has_perm(_PERMISSIONS[approval.kind]):
        raise FourEyesError(f"Deciding {approval.kind} needs the permission {_PERMISSIONS[approval.kind]}.")
    approval.state = Approval.State.APPROVED if approve else Approval.State.REJECTED
    approval.decided_by = actor
    approval.decided_at = timezone.now()
    approval.note = note
    approval.save(update_fields=["state", "decided_by", "decided_at", "note"])
    audit_record(
        actor=actor,
        action="approval.approved" if approve else "approval.rejected",
        obj=approval,
        data={"kind": approval.kind, "target": f"{approval.target_type}:{approval.target_id}",
              "requested_by": approval.requested_by.get_username(), "note": note},
        approver=actor,
        significant=True,
        request=request,
    )
    handler = (_HANDLERS if approve else _REJECT_HANDLERS).get(approval.kind)
    if approve and handler is None:
        raise FourEyesError(f"No handler is registered for {approval.kind!r}; nothing was changed.")
    if handler is not None:
        handler(approval, approver=actor)
    return approval


@transaction.atomic
def approval_cancel(*, actor, approval: Approval, request=None) -> Approval:
    """The requester withdraws a pending request."""
    approval = Approval.objects.select_for_update().get(pk=approval.pk)
    if approval.state != Approval.State.REQUESTED:
        raise FourEyesError("Only a pending request can be cancelled.")
    if actor.pk != approval.requested_by_id:
        raise FourEyesError("Only the person who asked can cancel a request.")
    approval.state = Approval.State.CANCELLED
    approval.decided_at = timezone.now()
    approval.save(update_fields=["state", "decided_at"])
    audit_record(actor=actor, action="approval.cancelled", obj=approval, data={"kind": approval.kind},
                 request=request)
    return approval


def pending_approvals():
    return Approval.objects.filter(state=Approval.State.REQUESTED).select_related("requested_by")
