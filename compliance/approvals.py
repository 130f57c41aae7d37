"""Four-eyes approvals: one person asks, a different person decides (DESIGN §3, §5).

This is the one mechanism for "a second person must confirm": registry imports, early lifting of
bans, draw results, corrections, settlement payouts and large wins. An app registers a handler for
its kind and asks through `approval_request(...)`; the handler runs, in the decider's transaction,
only when a *different* person approves:

    from compliance.approvals import register_approval_handler, approval_request

    def _apply_payout(approval, *, approver):           # does the work, audits it
        ...

    register_approval_handler("lottery.payout", _apply_payout)   # at import, loaded by AppConfig.ready()
    approval_request(actor=user, kind="lottery.payout", obj=draw, payload={...}, reason="...")

Both steps are audit events (`approval.requested`, `approval.approved` / `approval.rejected`, the
decider recorded as `approver`). The handler's own audit event names the requester as actor and the
decider as `approver=`, with the decider's client address (`audit.request_context`). See
docs/compliance.md.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import words
from .audit import audit_record, plain_json, request_context
from .errors import DomainError
from .models import Approval
from .words import Subject

Handler = Callable[..., Any]


class ApprovalRefused(DomainError):
    """A request or a decision was refused; `str(exc)` is a message fit for staff.

    A handler refuses by raising it (or a subclass, e.g. the lottery's DrawError): the decision is
    rolled back with the handler's work and the request stays pending."""


class FourEyesError(ApprovalRefused):
    """The decision is not allowed: same person as the requester, missing permission, or not pending
    any more."""

    code = "four_eyes"
    status = 403


@dataclass(frozen=True)
class _Kind:
    on_approve: Handler
    on_reject: Handler | None = None
    on_cancel: Handler | None = None
    permission: str = ""
    rejection_refused: str = ""
    link: Callable[[Approval], str] | None = None
    title: Any = ""
    describe: Callable[[Approval], Subject] | None = None


_KINDS: dict[str, _Kind] = {}


def register_approval_handler(kind: str, fn: Handler, *, on_reject: Handler | None = None,
                              on_cancel: Handler | None = None, permission: str = "",
                              rejection_refused: str = "", link: Callable[[Approval], str] | None = None,
                              title: Any = "", describe: Callable[[Approval], Subject] | None = None) -> None:
    """Register what an approval of `kind` does. Registering again replaces the previous registration.

    - `fn(approval, *, approver)` runs when it is approved; `on_reject(approval, *, approver)` when it
      is rejected; `on_cancel(approval, *, actor)` when the requester withdraws it. All run in the
      deciding transaction; `approval.decided_at` is the time of the decision and `approval.note` its note.
    - `permission`, when given, is needed to decide this kind, besides `compliance.decide_approval`.
    - `rejection_refused`, when given, means this kind is never rejected (the request waits until it is
      approved or made void by the step that changed its object): a rejection is refused with this text.
    - `link(approval) -> url` is shown on the approvals page (e.g. the draw the request is about).
    - `title` names the kind in words ("Payout of a settlement"); `describe(approval) -> Subject` says
      what is being decided: the object by name and page ("Lotto #1002"), and the facts a decider needs
      (the person, registers and bans in force, amounts in euros). The approvals page shows these and
      never branches on a kind's name (compliance.words).
    """
    _KINDS[kind] = _Kind(on_approve=fn, on_reject=on_reject, on_cancel=on_cancel, permission=permission,
                         rejection_refused=rejection_refused, link=link, title=title, describe=describe)


def kind_permission(kind: str) -> str:
    """The permission a decider needs for this kind besides compliance.decide_approval ("" for none)."""
    registered = _KINDS.get(kind)
    return registered.permission if registered else ""


def may_decide(user, approval: Approval) -> bool:
    """Whether `user` may decide this request (never their own, nor one of whoever shaped their account)."""
    permission = kind_permission(approval.kind)
    needed = ["compliance.decide_approval", *([permission] if permission else [])]
    return (
        user.is_authenticated
        and user.pk != approval.requested_by_id
        and approval.state == Approval.State.REQUESTED
        and user.has_perms(needed)
        and not (approval.requested_by_id and _shaped_by(user, approval.requested_by))
    )


def _shaped_by(decider, requester) -> bool:
    from .controls import shaped_by  # controls registers its own approval kinds with this module

    return shaped_by(decider, requester)


def may_withdraw(user, approval: Approval) -> bool:
    """Whether `user` may withdraw this request: their own, still pending (`approval_cancel`)."""
    return (user.is_authenticated and approval.state == Approval.State.REQUESTED
            and approval.requested_by_id is not None and user.pk == approval.requested_by_id)


def decidable_approvals(user) -> list[Approval]:
    """The pending requests `user` may decide (as `may_decide`, never their own), oldest first, in a
    fixed number of queries whatever their number: the requests, the people who shaped the account,
    and the user's permissions (cached on the user)."""
    from .controls import shapers_of  # controls registers its own approval kinds with this module

    if not (user.is_authenticated and user.has_perm("compliance.decide_approval")):
        return []
    pending = list(pending_approvals().exclude(requested_by=user).order_by("requested_at", "pk"))
    if not pending:
        return []
    shapers = shapers_of(user)
    return [a for a in pending
            if a.requested_by_id not in shapers and (not kind_permission(a.kind) or user.has_perm(kind_permission(a.kind)))]


def own_pending_approvals(user) -> list[Approval]:
    """The user's own requests still waiting for another person, oldest first."""
    if not user.is_authenticated:
        return []
    return list(pending_approvals().filter(requested_by=user).order_by("requested_at", "pk"))


def may_reject(approval: Approval) -> bool:
    """Whether this kind can be rejected at all (some wait until approved or made void)."""
    registered = _KINDS.get(approval.kind)
    return registered is None or not registered.rejection_refused


def approval_link(approval: Approval) -> str:
    """The page the request is about, when its kind says so; "" otherwise."""
    registered = _KINDS.get(approval.kind)
    if registered is None or registered.link is None:
        return ""
    return registered.link(approval) or ""


def approval_kind_words(kind: str) -> str:
    """The kind's name in the active language (its code, in words, when it registered none). The audit
    trail's `kind` key also holds other kinds (a limit's, a venue's, a discrepancy's): in the
    catalogue's words when it has them."""
    registered = _KINDS.get(kind)
    if registered is not None and registered.title:
        return str(registered.title)
    if "." not in kind:
        said = words.code_words(kind)
        if said != kind:
            return said
        return words.key_words(kind)
    return words.action_words(kind)


def approval_subject(approval: Approval) -> Subject:
    """What the request is about, in words (the kind's describer), or its object and payload as
    labelled facts when the kind registered no describer."""
    registered = _KINDS.get(approval.kind)
    if registered is not None and registered.describe is not None:
        subject = registered.describe(approval)
        if not subject.url:
            subject.url = approval_link(approval)
        if not subject.title:
            subject.title = approval.target_repr
        return subject
    return Subject(title=approval.target_repr, url=approval_link(approval), facts=words.payload_facts(approval.payload))


words.register_words(values={"kind": approval_kind_words})  # an approval's kind in the audit trail, in words


def approval_kinds() -> list[str]:
    return sorted(_KINDS)


def approval_target(approval: Approval) -> models.Model | None:
    from django.apps import apps

    if not approval.target_type:
        return None
    model = apps.get_model(approval.target_type)
    return model.objects.filter(pk=approval.target_id).first()


def approval_pending_for(*, kind: str, obj: models.Model, lock: bool = False) -> Approval | None:
    """The pending request of `kind` about `obj`, if any (locked FOR UPDATE with `lock=True`)."""
    qs = Approval.objects.filter(kind=kind, state=Approval.State.REQUESTED, target_type=obj._meta.label_lower,
                                 target_id=str(obj.pk)).select_related("requested_by")
    if lock:
        qs = qs.select_for_update(of=("self",))
    return qs.order_by("pk").first()


def _is_person(actor: Any) -> bool:
    return actor is not None and not isinstance(actor, str) and bool(getattr(actor, "is_authenticated", False))


@transaction.atomic
def approval_request(*, actor, kind: str, obj: models.Model | None, payload: dict | None = None,
                     reason: str = "", request=None) -> Approval:
    """Ask for a second person's approval of `kind` on `obj`; audited as `approval.requested`.

    `actor` is the person asking, or a job ("system:<job>") when a step of the system asks (a
    finished settlement asks for its payout approval); a job's request can be decided by any person
    the kind's handler accepts."""
    if kind not in _KINDS:
        raise ValueError(f"No approval handler is registered for {kind!r}.")
    if isinstance(actor, str):
        if not actor.startswith("system:"):
            raise FourEyesError(_('An approval is requested by a signed-in person or a system job ("system:<job>").'))
    elif not _is_person(actor):
        raise FourEyesError(_("An approval must be requested by a signed-in person."))
    approval = Approval.objects.create(
        kind=kind,
        target_type=obj._meta.label_lower if obj is not None else "",
        target_id=str(obj.pk) if obj is not None else "",
        target_repr=str(obj)[:255] if obj is not None else "",
        payload=plain_json(payload or {}),  # dates and Decimals become strings, as in the audit trail
        reason=reason,
        requested_by=None if isinstance(actor, str) else actor,
        requested_by_repr=(actor if isinstance(actor, str) else actor.get_username())[:150],
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
def approval_decide(*, actor, approval: Approval, approve: bool, note: str = "", now: dt.datetime | None = None,
                    request=None) -> Approval:
    """Approve (running the kind's handler) or reject a pending request. The decider must not be the
    requester; the decision and the handler's work commit together or not at all."""
    approval = Approval.objects.select_for_update(of=("self",)).select_related("requested_by").get(pk=approval.pk)
    if approval.state != Approval.State.REQUESTED:
        raise FourEyesError(_("This request was already %(state)s; nothing to decide."),
                            state=Approval.State(approval.state).label)
    if not _is_person(actor):
        raise FourEyesError(_("A decision must be made by a signed-in person."))
    if actor.pk == approval.requested_by_id:
        raise FourEyesError(
            _("Four-eyes rule: you asked for this yourself, so a different person must approve or reject it.")
        )
    if approval.requested_by_id and _shaped_by(actor, approval.requested_by):
        raise FourEyesError(
            _("Four-eyes rule: the person who asked created this account or set its roles, password or second "
              "factor, so this account may never decide their requests; another person must decide.")
        )
    registered = _KINDS.get(approval.kind)
    if registered is not None and registered.permission and not actor.has_perm(registered.permission):
        raise FourEyesError(_("Deciding %(kind)s needs the permission %(permission)s."),
                            kind=approval.kind, permission=registered.permission)
    if not approve and registered is not None and registered.rejection_refused:
        raise ApprovalRefused(registered.rejection_refused)
    if approve and registered is None:
        raise FourEyesError(_("No handler is registered for %(kind)s; nothing was changed."), kind=approval.kind)
    approval.state = Approval.State.APPROVED if approve else Approval.State.REJECTED
    approval.decided_by = actor
    approval.decided_at = now or timezone.now()
    approval.note = note
    approval.save(update_fields=["state", "decided_by", "decided_at", "note"])
    audit_record(
        actor=actor,
        action="approval.approved" if approve else "approval.rejected",
        obj=approval,
        data={"kind": approval.kind, "target": f"{approval.target_type}:{approval.target_id}",
              "requested_by": approval.requester, "note": note},
        approver=actor,
        significant=True,
        request=request,
    )
    handler = None if registered is None else (registered.on_approve if approve else registered.on_reject)
    if handler is not None:
        with request_context(request):
            handler(approval, approver=actor)
    return approval


@transaction.atomic
def approval_cancel(*, actor, approval: Approval, note: str = "", now: dt.datetime | None = None,
                    request=None) -> Approval:
    """The requester withdraws a pending request (the kind's `on_cancel` runs in this transaction):
    only the person who asked, only while it is pending. Audited as `approval.cancelled`."""
    approval = Approval.objects.select_for_update(of=("self",)).get(pk=approval.pk)
    if approval.state != Approval.State.REQUESTED:
        raise FourEyesError(_("Only a pending request can be cancelled."))
    if not _is_person(actor) or actor.pk != approval.requested_by_id:
        raise FourEyesError(_("Only the person who asked can cancel a request."))
    approval.state = Approval.State.CANCELLED
    approval.decided_at = now or timezone.now()
    approval.note = note
    approval.save(update_fields=["state", "decided_at", "note"])
    audit_record(actor=actor, action="approval.cancelled", obj=approval,
                 data={"kind": approval.kind, "target": f"{approval.target_type}:{approval.target_id}", "note": note},
                 request=request)
    registered = _KINDS.get(approval.kind)
    if registered is not None and registered.on_cancel is not None:
        with request_context(request):
            registered.on_cancel(approval, actor=actor)
    return approval


@transaction.atomic
def approval_void(*, actor, approval: Approval, reason: str, now: dt.datetime | None = None) -> Approval:
    """Close a pending request whose object no longer needs the decision (the draw was cancelled, the
    result corrected, the payout superseded). Called by the service that changed the object, in its
    transaction; no handler runs. Audited as `approval.voided` with the reason."""
    approval = Approval.objects.select_for_update(of=("self",)).get(pk=approval.pk)
    if approval.state != Approval.State.REQUESTED:
        raise FourEyesError(_("Only a pending request can be made void."))
    approval.state = Approval.State.CANCELLED
    approval.decided_at = now or timezone.now()
    approval.note = reason
    approval.save(update_fields=["state", "decided_at", "note"])
    audit_record(actor=actor, action="approval.voided", obj=approval,
                 data={"kind": approval.kind, "target": f"{approval.target_type}:{approval.target_id}",
                       "reason": reason})
    return approval


def pending_approvals():
    return Approval.objects.filter(state=Approval.State.REQUESTED).select_related("requested_by")
