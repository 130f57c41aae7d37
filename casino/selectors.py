"""Casino reads shared by pages, commands and the API."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import formats

from casino.rules import registry, versions
from casino.rules.base import EngineError

from .models import CasinoRuleVersion, Discrepancy, RecordedRound, RoundCheck, Table, Venue


def version_at(rulebook: str, game: str, variant: str, when: dt.datetime) -> CasinoRuleVersion | None:
    """The version of a variant in force at `when`: the latest effective_from at or before it."""
    return (CasinoRuleVersion.objects.filter(rulebook=rulebook, game=game, variant=variant, effective_from__lte=when)
            .order_by("-effective_from").first())


def variant_choices() -> list[tuple[str, str, str]]:
    """Every (rulebook, game, variant) the engines know, in a stable order."""
    return [(rulebook, game, code) for (rulebook, game), engine in sorted(registry.engines().items())
            for code in engine.variants]


@dataclass(frozen=True)
class Edge:
    bet: str
    exact: Fraction

    @property
    def percent(self) -> str:
        """The edge as a percentage with six places, rounded toward zero (1/37 is 2.702702 %)."""
        millionths = abs(self.exact) * 100 * 10**6
        whole = millionths.numerator // millionths.denominator
        sign = "-" if self.exact < 0 else ""
        return f"{sign}{whole // 10**6}.{whole % 10**6:06d}"

    @property
    def percent_text(self) -> str:
        """`percent` for people: the decimal separator of the active language ("2,702702" in fi and sv)."""
        return self.percent.replace(".", formats.get_format("DECIMAL_SEPARATOR"))


@dataclass(frozen=True)
class EdgeReport:
    edges: tuple[Edge, ...] | None  # None: the family computes no edge (casino.rules.versions.house_edge)
    error: str = ""  # the data lacks a value the edge needs: "field: message"


@lru_cache(maxsize=256)
def _edges(rulebook: str, game: str, rules_json: str) -> EdgeReport:
    try:
        found = versions.house_edge(registry.get(rulebook, game), json.loads(rules_json))
    except EngineError as exc:
        return EdgeReport(None, f"{exc.field}: {exc.message}")
    if found is None:
        return EdgeReport(None)
    return EdgeReport(tuple(Edge(bet, Fraction(v)) for bet, v in found.items()))


def house_edges(rulebook: str, game: str, rules: dict) -> EdgeReport:
    """The house edge of every bet of a rule data, exact; computed once per process and data (some
    families enumerate for a second or two, and a published version never changes)."""
    return _edges(rulebook, game, versions.canonical_json(rules))


def checks_by(user) -> QuerySet[RoundCheck]:
    """A caller's own checks, newest first (a channel or table system sees only its own)."""
    return RoundCheck.objects.filter(checked_by=user).select_related("rule_version")


# --------------------------------------------------------------------------- casino operations (issue 19)


def venues_visible() -> QuerySet[Venue]:
    return Venue.objects.order_by("name")


def tables_for_system(user) -> QuerySet[Table]:
    """The tables a caller may post rounds to and read: a table system (no staff access) only those
    assigned to it; staff who record rounds, every table."""
    if user.has_perm("compliance.access_backoffice"):
        return Table.objects.all()
    return Table.objects.filter(systems=user)


def rounds_filtered(*, table: int | None = None, venue: int | None = None, day=None, game: str = "",
                    person: int | None = None, discrepancy_only: bool = False) -> QuerySet[RecordedRound]:
    """The rounds list's query: each filter has its index (casino.models.RecordedRound.Meta.indexes;
    the player filter goes through RoundPlayer's (person, round) index, discrepancies are few)."""
    qs = RecordedRound.objects.all()
    if table:
        qs = qs.filter(table_id=table)
    if venue:
        qs = qs.filter(venue_id=venue)
    if day:
        qs = qs.filter(day=day)
    if game:
        qs = qs.filter(game=game)
    if person:
        qs = qs.filter(players__person_id=person)
    if discrepancy_only:
        qs = qs.filter(Exists(Discrepancy.objects.filter(round_id=OuterRef("pk"))))
    return qs.select_related("table__venue").order_by("-played_at", "-id")
