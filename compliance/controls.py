"""Two people for every control switch (issue 14 item 2).

A control is a field whose change weakens or moves a regulated safeguard: a registry switched off or
given another adapter, an operator's mandatory limit, a regulated job's schedule, a staff member's
roles. Such a change is never saved by the person who makes it: `control_change_request` files an
approval (`compliance.approvals`), and a different person's approval applies it, in the deciding
transaction, as a significant audit event naming both. The Django admin's forms call it for the
controlled fields of their models (compliance.admin.ControlledAdmin), so the admin stays the place
where reference data is edited while nobody edits a control alone.

Granting a role is a control too; removing one is not (it only takes rights away) and applies at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from . import approval_words
from .approvals import ApprovalRefused, approval_request, register_approval_handler
from .audit import audit_record, plain_json
from .models import Approval, AuditEvent
from .roles import ADMINISTRATOR, ROLES
from .services import staff_set_roles

CONTROL_KIND = "compliance.control_change"
ROLE_GRANT_KIND = "compliance.role_grant"


@dataclass(frozen=True)
class Control:
    fields: tuple[str, ...]  # the controlled fields ("*": every field, and adding and deleting rows)
    permission: str  # needed to decide, besides compliance.decide_approval


#: model label -> what is controlled. Apps add theirs with `register_control`.
CONTROLS: dict[str, Control] = {}


def register_control(label: str, *, fields: tuple[str, ...], permission: str) -> None:
    CONTROLS[label.lower()] = Control(fields=fields, permission=permission)


def controlled_fields(obj_or_model) -> tuple[str, ...]:
    label = obj_or_model._meta.label_lower
    control = CONTROLS.get(label)
    if control is None:
        return ()
    if control.fields == ("*",):
        return tuple(f.name for f in obj_or_model._meta.concrete_fields if not f.primary_key)
    return control.fields


def field_value(obj: models.Model, name: str) -> Any:
    field = obj._meta.get_field(name)
    return getattr(obj, field.attname)


@transaction.atomic
def control_change_request(*, actor, obj: models.Model, changes: dict[str, Any] | None, operation: str = "update",
                           reason: str = "", request=None) -> Approval:
    """Ask for a change of `obj`'s controlled fields (`operation` "update", "create" or "delete")."""
    label = obj._meta.label_lower
    if label not in CONTROLS:
        raise ValueError(f"{label} has no controlled fields")
    if operation not in ("update", "create", "delete"):
        raise ValueError(operation)
    changes = {k: plain_json(v) for k, v in (changes or {}).items()}
    before = {k: plain_json(field_value(obj, k)) for k in changes} if operation == "update" else {}
    return approval_request(
        actor=actor, kind=CONTROL_KIND, obj=obj if obj.pk else None,
        payload={"model": label, "pk": obj.pk, "operation": operation, "changes": changes, "before": before},
        reason=reason or f"{operation} {obj._meta.verbose_name}: "
        + ", ".join(f"{k} {before.get(k)!r} -> {v!r}" for k, v in changes.items()),
        request=request,
    )


def _apply_control(approval: Approval, *, approver) -> None:
    p = approval.payload
    control = CONTROLS[p["model"]]
    if not approver.has_perm(control.permission):
        raise ApprovalRefused(_("Deciding this change needs the permission %(permission)s."),
                              permission=control.permission)
    model = apps.get_model(p["model"])
    if p["operation"] == "create":
        obj = model(**{model._meta.get_field(k).attname: v for k, v in p["changes"].items()})
        obj.full_clean()
        obj.save()
    else:
        obj = model.objects.select_for_update().filter(pk=p["pk"]).first()
        if obj is None:
            raise ApprovalRefused(_("The row this change is about no longer exists."))
        if p["operation"] == "delete":
            obj.delete()
        else:
            for name, value in p["changes"].items():
                setattr(obj, model._meta.get_field(name).attname, value)
            obj.full_clean()
            obj.save(update_fields=[model._meta.get_field(k).name for k in p["changes"]])
    audit_record(actor=approval.requested_by or approval.requested_by_repr, action=f"control.{p['operation']}",
                 object_type=p["model"], object_id=obj.pk if obj.pk else p["pk"], object_repr=str(obj)[:255],
                 before=p.get("before"), after=p["changes"], approver=approver, significant=True)


register_approval_handler(CONTROL_KIND, _apply_control, permission="compliance.approve_control_change",
                          title=approval_words.CONTROL_TITLE, describe=approval_words.describe_control)

register_control("compliance.exclusionregistry", fields=("active", "adapter"),
                 permission="compliance.approve_control_change")
# Regulated jobs (compliance.schedules): switching one off, retiming it or pointing it elsewhere.
register_control("django_celery_beat.periodictask",
                 fields=("enabled", "task", "crontab", "interval", "solar", "clocked", "one_off", "start_time",
                         "expires", "args", "kwargs"),
                 permission="compliance.approve_control_change")


# --- Roles ----------------------------------------------------------------------------------------------


@transaction.atomic
def role_grant_request(*, actor, user, roles: list[str], request=None) -> Approval:
    """Ask for `roles` to be added to `user` (a second person decides; `compliance.change_role_grant`)."""
    unknown = sorted(set(roles) - set(ROLES))
    if unknown:
        raise ValueError(f"Unknown role(s): {', '.join(unknown)}.")
    return approval_request(actor=actor, kind=ROLE_GRANT_KIND, obj=user, payload={"roles": sorted(roles)},
                            reason=f"Give {user.get_username()} the role(s) {', '.join(sorted(roles))}",
                            request=request)


def staff_roles_change(*, actor, user, roles: list[str], request=None) -> list[str]:
    """Set a staff member's roles as asked: the roles taken away go at once (`staff_set_roles`, a
    significant event), the roles added become a request for a second person. Returns the added roles."""
    before = set(user.groups.values_list("name", flat=True))
    wanted = set(roles)
    if before - wanted:
        staff_set_roles(actor=actor, user=user, roles=sorted(before & wanted), request=request)
    added = sorted(wanted - before)
    if added:
        role_grant_request(actor=actor, user=user, roles=added, request=request)
    return added


def _grant_roles(approval: Approval, *, approver) -> None:
    user = get_user_model().objects.get(pk=int(approval.target_id))
    before = sorted(user.groups.values_list("name", flat=True))

    user.groups.add(*Group.objects.filter(name__in=approval.payload["roles"]))
    if ADMINISTRATOR in approval.payload["roles"] and not user.is_staff:
        user.is_staff = True  # the Django admin is the Administrator's
        user.save(update_fields=["is_staff"])
    after = sorted(user.groups.values_list("name", flat=True))
    audit_record(actor=approval.requested_by or approval.requested_by_repr, action="auth.roles_changed", obj=user,
                 before={"roles": before}, after={"roles": after}, approver=approver, significant=True)


register_approval_handler(ROLE_GRANT_KIND, _grant_roles, permission="compliance.approve_role_grant",
                          title=approval_words.ROLE_GRANT_TITLE, describe=approval_words.describe_role_grant)


# --- Who may not decide whose requests ---------------------------------------------------------------

#: Audit actions by which one person makes or shapes another's account.
SHAPING_ACTIONS = ("admin.add", "auth.user_created", "auth.roles_changed", "auth.password_changed",
                   "auth.otp_reset", "auth.token_issued")


def shaped_by(decider, requester) -> bool:
    """Whether `requester` created `decider`'s account, changed its roles, set its password, reset its
    second factor or issued its tokens. Such an account never decides that person's requests: its
    creator may hold its credentials, have enrolled its second factor, and any waiting period could
    simply be waited out (docs/compliance.md, "Four eyes")."""
    if requester is None or decider is None:
        return False
    user_label = get_user_model()._meta.label_lower
    return AuditEvent.objects.filter(
        actor_id=requester.pk, object_type=user_label, object_id=str(decider.pk), action__in=SHAPING_ACTIONS
    ).exists()


def shapers_of(decider) -> set[int]:
    """The ids of everyone who shaped `decider`'s account (see `shaped_by`), in one query: their
    requests are never `decider`'s to decide."""
    user_label = get_user_model()._meta.label_lower
    return set(AuditEvent.objects.filter(object_type=user_label, object_id=str(decider.pk), action__in=SHAPING_ACTIONS,
                                         actor_id__isnull=False).values_list("actor_id", flat=True))


# --- Break glass ----------------------------------------------------------------------------------------


def _audit_superuser(sender, instance, created, **kwargs) -> None:
    """A superuser bypasses every permission, so one made anywhere (`createsuperuser`, the shell) is a
    significant event: `createsuperuser` stays as the audited break-glass (issue 14 item 2)."""
    if not instance.is_superuser:
        return
    if not created and AuditEvent.objects.filter(action="auth.superuser_created", object_id=str(instance.pk),
                                                 object_type=instance._meta.label_lower).exists():
        return
    audit_record(actor="system:break-glass", action="auth.superuser_created", obj=instance,
                 after={"username": instance.get_username()}, significant=True)


models.signals.post_save.connect(_audit_superuser, sender=get_user_model(), dispatch_uid="compliance.superuser")
