"""Reads shared by the staff pages, the API and (later) the reports."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet

from .models import AuditEvent


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
