"""Compliance writes. Each takes `actor=` and records its audit event in the same transaction."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from .audit import audit_record
from .idcodes import normalise_name
from .identity import identifier_hash
from .models import ExclusionEntry
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


@transaction.atomic
def exclusion_entry_add(
    *,
    actor,
    registry,
    national_id: str = "",
    id_country: str = "FI",
    first_name: str = "",
    last_name: str = "",
    birth_date=None,
    starts_at=None,
    ends_at=None,
    external_id: str = "",
    reason: str = "",
    decided_by=None,
    request=None,
):
    """Add one barred person to a registry (by identifier, or by name and birth date). The hash is
    made by compliance.identity, as the people's are, so entries match people however the identifier
    was typed."""
    entry = ExclusionEntry.objects.create(
        registry=registry,
        identifier_hash=identifier_hash(national_id, id_country) if national_id else "",
        name_normalised=normalise_name(first_name, last_name) if (first_name or last_name) else "",
        name=" ".join(part.strip() for part in (first_name, last_name) if part and part.strip())[:300],
        birth_date=birth_date,
        starts_at=starts_at or timezone.now(),
        ends_at=ends_at,
        external_id=external_id,
        reason=reason,
        decided_by=decided_by,
    )
    audit_record(
        actor=actor,
        action="registry.entry_added",
        obj=entry,
        after={
            "registry": registry.name, "external_id": external_id, "starts_at": entry.starts_at,
            "ends_at": ends_at, "by_identifier": bool(national_id), "reason": reason,
        },
        request=request,
    )
    return entry
