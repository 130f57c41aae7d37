"""Reads shared by the staff pages, the API and (later) the reports."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet

from .idcodes import normalise_name
from .models import AuditEvent, ExclusionRegistry, RegistryImport, ScreeningDecision
from .words import actions_choices, object_types_choices


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
    """Events matching the filter, newest first. `actor`, `action` and `object_type` match part of the
    text, case aside: of the code ("auth.", "result") or of its name in the active language ("Tulos",
    "Draw"; compliance.words)."""
    qs = AuditEvent.objects.select_related("actor", "approver").order_by("-seq")
    if f.since:
        qs = qs.filter(created_at__gte=f.since)
    if f.until:
        qs = qs.filter(created_at__lt=f.until)
    if f.actor:
        qs = qs.filter(actor_repr__icontains=f.actor)
    if f.action:
        named = [code for code, name in actions_choices(audit_actions()) if f.action.casefold() in name.casefold()]
        qs = qs.filter(Q(action__icontains=f.action) | Q(action__in=named))
    if f.object_type:
        named = [code for code, name in object_types_choices(audit_object_types())
                 if f.object_type.casefold() in name.casefold()]
        qs = qs.filter(Q(object_type__icontains=f.object_type) | Q(object_type__in=named))
    if f.object_id:
        qs = qs.filter(object_id=f.object_id)
    if f.significant:
        qs = qs.filter(significant=True)
    return qs


def audit_actions() -> list[str]:
    return list(AuditEvent.objects.order_by("action").values_list("action", flat=True).distinct())


def audit_actors() -> list[str]:
    """Who acted, for the actor filter's choices (the most recent 200 names)."""
    return sorted(set(AuditEvent.objects.order_by("-seq").values_list("actor_repr", flat=True)[:5000]))[:200]


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


def entries_in_force(*, identifier_hash: str = "", name_normalised: str = "", birth_date=None, now=None,
                     jurisdiction: str | None = None) -> list:
    """Every register entry in force at `now` that names this person (by identifier hash, or by
    normalised name and birth date), from every active register that applies: what the player page
    and a ban-lifting decision show ("on the national register since ..., operator ban: reason").
    The same match as screening's database look-up (compliance.registries)."""
    from django.db.models import Q
    from django.utils import timezone

    from .models import ExclusionEntry

    now = now or timezone.now()
    who = Q(identifier_hash=identifier_hash) if identifier_hash else Q(pk__in=[])
    if name_normalised and birth_date:
        who |= Q(name_normalised=name_normalised, birth_date=birth_date)
    qs = ExclusionEntry.objects.filter(who, registry__active=True, starts_at__lte=now).filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=now))
    if jurisdiction is not None:
        qs = qs.filter(Q(registry__jurisdiction="") | Q(registry__jurisdiction=jurisdiction))
    return list(qs.select_related("registry", "decided_by").order_by("registry__name", "-starts_at", "pk"))


def entry_words(entry) -> str:
    """One register entry in words: the register, since when, until when, the reason."""
    from django.utils import timezone
    from django.utils.translation import gettext

    start = timezone.localtime(entry.starts_at).strftime("%Y-%m-%d")
    if entry.ends_at is None:
        span = gettext("since %(start)s, until further notice") % {"start": start}
    else:
        span = gettext("%(start)s to %(end)s") % {"start": start,
                                                 "end": timezone.localtime(entry.ends_at).strftime("%Y-%m-%d %H:%M")}
    text = f"{entry.registry.name} ({entry.registry.get_kind_display()}): {span}"
    if entry.reason:
        text += " · " + gettext("reason: %(reason)s") % {"reason": entry.reason}
    return text
