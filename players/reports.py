"""The players' report kind: player protection (time reminders, limit refusals and self-exclusions of
a period), registered with compliance's report machinery from PlayersConfig.ready()."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance.reports.kinds import ReportKind, local, period_bounds, person_label, screening_refusals

from .models import SelfExclusion, SessionReminder

LIMIT_CODES = ("deposit_limit", "loss_limit", "time_limit")


def player_protection_rows(params: dict) -> list[dict]:
    since, until = period_bounds(params)
    rows = []
    reminders = (
        SessionReminder.objects.filter(due_at__gte=since, due_at__lt=until)
        .select_related("session__player__person").order_by("due_at", "pk")
    )
    for r in reminders:
        rows.append({"section": "reminder", "time": local(r.due_at),
                     "person": person_label(r.session.player.person),
                     "detail": f"{r.played_seconds // 60} min played; choice: {r.choice or 'none yet'}"})
    for d, r in screening_refusals(params, LIMIT_CODES):
        rows.append({"section": "limit", "time": local(d.created_at), "person": person_label(d.person),
                     "detail": f"{r['code']} ({r.get('period', '')}) on {d.action}"})
    exclusions = (
        SelfExclusion.objects.filter(requested_at__gte=since, requested_at__lt=until)
        .select_related("person").order_by("requested_at", "pk")
    )
    for x in exclusions:
        rows.append({"section": "self_exclusion", "time": local(x.requested_at), "person": person_label(x.person),
                     "detail": f"until {local(x.ends_at) if x.ends_at else 'permanent'}"})
    return rows


PLAYER_PROTECTION = ReportKind(
    "player_protection", _("Player protection"), "1", "players/reports/player_protection.html",
    (("section", _("Section")), ("time", _("Time")), ("person", _("Person")), ("detail", _("Detail"))),
    player_protection_rows, (), (14, 19, 40, 80),
)
