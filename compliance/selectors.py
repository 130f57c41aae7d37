"""Reads shared by the staff pages, the API and (later) the reports."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection
from django.db.models import QuerySet

from .idcodes import normalise_name
from .models import AuditEvent, ExclusionRegistry, RegistryImport, ScreeningDecision


@dataclass(frozen=True)
class AuditFilter:
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    actor: str = ""
    action: str = ""
    object_type: str = ""
    object_id: str = ""
    significant: bool = False


def audit_events(f: AuditFilter) -> QuerySet[AuditEvent]:
    """Events matching the filter, newest first. `action` matches a prefix (e.g. "auth.")."""
    qs = AuditEvent.objects.select_related("actor", "approver").order_by("-seq")
    if f.since:
        qs = qs.filter(created_at__gte=f.since)
    if f.until:
        qs = qs.filter(created_at__lt=f.until)
    if f.actor:
        qs = qs.filter(actor_repr__iexact=f.actor)
    if f.action:
        qs = qs.filter(action__startswith=f.action)
    if f.object_type:
        qs = qs.filter(object_type=f.object_type)
    if f.object_id:
        qs = qs.filter(object_id=f.object_id)
    if f.significant:
        qs = qs.filter(significant=True)
    return qs


def audit_actions() -> list[str]:
    return list(AuditEvent.objects.order_by("action").values_list("action", flat=True).distinct())


def audit_object_types() -> list[str]:
    return list(
        AuditEvent.objects.exclude(object_type="").order_by("object_type").values_list("object_type", flat=True).distinct()
    )


def screening_decisions(*, since=None, until=None, person=None, name: str = "", action: str = "",
                        allowed: bool | None = None, code: str = ""):
    """The screening log, newest first, filtered. `code` matches one reason code of the decision."""
    qs = ScreeningDecision.objects.select_related("person").order_by("-created_at", "-pk")
    if since:
        qs = qs.filter(created_at__gte=since)
    if until:
        qs = qs.filter(created_at__lt=until)
    if person:
        qs = qs.filter(person_id=person)
    if name.strip():
        for token in normalise_name(name).split():
            qs = qs.filter(person__name_normalised__contains=token)
    if action:
        qs = qs.filter(action=action)
    if allowed is not None:
        qs = qs.filter(allowed=allowed)
    if code:
        if connection.vendor == "postgresql":
            qs = qs.filter(reasons__contains=[{"code": code}])
        else:  # SQLite has no JSON containment; the stored text is '{"code": "<code>", ...}'
            qs = qs.filter(reasons__icontains=f'"code": "{code}"')
    return qs


def registry_overview():
    """Each registry with its entry count, latest import and whether it is stale."""
    from django.db.models import Count
    from django.utils import timezone

    now = timezone.now()
    out = []
    for reg in ExclusionRegistry.objects.annotate(entry_count=Count("entries")).order_by("name"):
        latest = RegistryImport.objects.filter(registry=reg).order_by("-uploaded_at", "-pk").first()
        imported = reg.kind in ("national", "foreign")
        stale = imported and reg.active and (
            reg.last_updated is None or (now - reg.last_updated).total_seconds() > reg.max_age_hours * 3600
        )
        out.append({"registry": reg, "entries": reg.entry_count, "latest_import": latest, "stale": stale})
    return out
