"""Compliance writes. Each takes `actor=` and records its audit event in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction

from .audit import audit_record
from .roles import ROLES


@transaction.atomic
def staff_set_roles(*, actor, user, roles: list[str], request=None) -> None:
    """Give a staff user exactly these roles; the change (before and after) is a significant event."""
    unknown = sorted(set(roles) - set(ROLES))
    if unknown:
        raise ValueError(f"Unknown role(s): {', '.join(unknown)}. Roles are: {', '.join(ROLES)}.")
    before = sorted(user.groups.values_list("name", flat=True))
    after = sorted(set(roles))
    if before == after:
        return
    user.groups.set(Group.objects.filter(name__in=after))
    audit_record(
        actor=actor,
        action="auth.roles_changed",
        obj=user,
        before={"roles": before},
        after={"roles": after},
        significant=True,
        request=request,
    )
