"""Jackpot reads shared by the pages, the API and the liability report (docs/casino-operations.md,
"Jackpots")."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Prefetch, Q, QuerySet, Sum
from django.utils import timezone

from casino.rules.jackpot_ledger import column_of

from .models import Jackpot, JackpotAccrual, JackpotEntry, JackpotVersion
from .selectors import tables_for_system


def version_in_force(versions, when: dt.datetime | None = None) -> JackpotVersion | None:
    """Of a jackpot's versions (any order), the one in force at `when` (now): the latest effective_from
    at or before it; before the first, the first (terms announced ahead are shown as they will be)."""
    when = when or timezone.now()
    ordered = sorted(versions, key=lambda v: v.effective_from)
    current = [v for v in ordered if v.effective_from <= when]
    return current[-1] if current else (ordered[0] if ordered else None)


def jackpots_with_versions() -> QuerySet[Jackpot]:
    return Jackpot.objects.select_related("venue", "removal_to__venue").prefetch_related(
        Prefetch("versions", queryset=JackpotVersion.objects.select_related("overflow_to__venue")
                 .prefetch_related("tables__venue").order_by("-version")))


@dataclass
class Pending:
    """What verified rounds accrued that the end of the gaming day has not posted yet."""

    contributions_cents: int = 0
    wins_cents: int = 0
    accruals: int = 0
    held: int = 0  # large wins awaiting a second person


def pending_by_jackpot(ids) -> dict[int, Pending]:
    rows = (JackpotAccrual.objects.filter(jackpot_id__in=list(ids), posting__isnull=True, superseded_at__isnull=True)
            .values("jackpot_id").annotate(c=Sum("contribution_cents"), w=Sum("win_cents"), n=Count("pk"),
                                           h=Count("pk", filter=Q(win_state=JackpotAccrual.WinState.HELD))))
    return {r["jackpot_id"]: Pending(r["c"] or 0, r["w"] or 0, r["n"], r["h"]) for r in rows}


def jackpot_rows(venue: int | None = None) -> list[dict[str, Any]]:
    """The jackpots (of a venue) with their terms in force, posted balance and what is pending."""
    qs = jackpots_with_versions().order_by("venue__name", "state", "code")
    if venue:
        qs = qs.filter(venue_id=venue)
    jackpots = list(qs)
    pending = pending_by_jackpot(j.pk for j in jackpots)
    return [{"jackpot": j, "version": version_in_force(j.versions.all()), "pending": pending.get(j.pk, Pending())}
            for j in jackpots]


def jackpots_for_system(user) -> QuerySet[Jackpot]:
    """The jackpots a caller may read over the API: a table system those linked to a table assigned to
    it (by any of their versions); staff who record rounds, every jackpot."""
    tables = tables_for_system(user)
    return (jackpots_with_versions().filter(versions__tables__in=tables).distinct().order_by("venue__code", "code"))


def active_jackpots() -> QuerySet[Jackpot]:
    return Jackpot.objects.filter(state=Jackpot.State.ACTIVE).select_related("venue").order_by("venue__name", "code")


# --------------------------------------------------------------------------------------- liability

FIGURES = ("funded", "contributions", "wins", "transfers")


def liability(since: dt.date, until: dt.date, venue: int | None = None) -> list[dict[str, Any]]:
    """Per jackpot (of a venue), from its ledger by gaming day: the balance before `since` (opening),
    what the period's lines funded, contributed, paid out as wins and transferred, and the balance
    after `until` (closing = opening + funded + contributions - wins + transfers)."""
    entries = JackpotEntry.objects.filter(day__lte=until)
    if venue:
        entries = entries.filter(jackpot__venue_id=venue)
    net = F("amount_cents") + F("held_cents")
    sums = entries.values("jackpot_id", "kind").annotate(
        before=Sum(net, filter=Q(day__lt=since)), within=Sum(net, filter=Q(day__gte=since))).order_by()
    figures: dict[int, dict[str, int]] = {}
    for s in sums:
        f = figures.setdefault(s["jackpot_id"], {"opening": 0, **{k: 0 for k in FIGURES}})
        f["opening"] += s["before"] or 0
        within = s["within"] or 0
        column = column_of(s["kind"])
        f[column] += -within if column == "wins" else within
    rows = []
    for j in jackpots_with_versions().filter(pk__in=list(figures)).order_by("venue__name", "code"):
        f = figures[j.pk]
        end = timezone.make_aware(dt.datetime.combine(until + dt.timedelta(days=1), dt.time()))
        version = version_in_force(j.versions.all(), end)
        removed = j.removed_at is not None and j.removed_at < end
        closing = f["opening"] + f["funded"] + f["contributions"] - f["wins"] + f["transfers"]
        rows.append({"venue": j.venue.name, "jackpot": j.code, "name": version.name if version else j.code,
                     "kind": version.kind if version else "",
                     "state": Jackpot.State.REMOVED if removed else Jackpot.State.ACTIVE,
                     "opening_cents": f["opening"], "funded_cents": f["funded"],
                     "contributions_cents": f["contributions"], "wins_cents": f["wins"],
                     "transfers_cents": f["transfers"], "closing_cents": closing})
    return rows
