"""The casino's report kind "jackpot liability" (issue 19 items 3 and 5), registered with compliance's
report machinery from CasinoConfig.ready(): per venue and jackpot, for a period of gaming days, the
opening balance, what the operator paid in (seed, resets), the contributions, the wins, the transfers
(overflow, removal) and the closing balance, from the jackpots' liability ledgers. PDF and CSV in fi, sv
and en, archived with their SHA-256 like every report.

Money columns end in `_cents`: integer cents in the CSV, euros in the PDF. The kind and the state are
codes in the CSV and words in the PDF.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.reports.kinds import ReportData, ReportKind, checked_period, pdf_cell, period_bounds

from .jackpot_selectors import liability
from .models import Jackpot, JackpotVersion, Venue

MONEY = ("opening_cents", "funded_cents", "contributions_cents", "wins_cents", "transfers_cents", "closing_cents")


def venue_choices() -> list[tuple[str, str]]:
    return list(Venue.objects.filter(jackpots__isnull=False).distinct().order_by("name").values_list("code", "name"))


def liability_fields() -> dict[str, forms.Field]:
    return {"jackpot_venue": forms.ChoiceField(label=_("Venue (jackpot liability)"), required=False,
                                               choices=[("", _("all venues")), *venue_choices()])}


def liability_form_params(data: dict) -> dict:
    return {"venue": data["jackpot_venue"]} if data.get("jackpot_venue") else {}


def liability_prepare(params: dict) -> dict:
    """The period (gaming days, both included) and an optional venue code."""
    out = checked_period(params)
    code = str(params.get("venue") or "").strip()
    if code:
        if not Venue.objects.filter(code=code).exists():
            raise ValueError(gettext("There is no venue %(venue)r.") % {"venue": code})
        out["venue"] = code
    return out


def liability_build(params: dict) -> ReportData:
    _, until = period_bounds(params)
    venue = Venue.objects.filter(code=params["venue"]).first() if params.get("venue") else None
    rows = liability(dt.date.fromisoformat(params["since"]), dt.date.fromisoformat(params["until"]),
                     venue.pk if venue else None)
    totals = {key: sum(r[key] for r in rows) for key in MONEY}
    return ReportData(rows=rows, heading=f"{params['since']} – {params['until']}", as_of=until,
                      context={"venue": venue.name if venue else "", "totals": totals,
                               "balanced": all(r["closing_cents"] == r["opening_cents"] + r["funded_cents"]
                                               + r["contributions_cents"] - r["wins_cents"] + r["transfers_cents"]
                                               for r in rows)})


def liability_cell(key: str, value: Any) -> str:
    if key == "kind":
        return str(JackpotVersion.Kind(value).label) if value in JackpotVersion.Kind.values else str(value)
    if key == "state":
        return str(Jackpot.State(value).label) if value in Jackpot.State.values else str(value)
    return pdf_cell(key, value)


JACKPOT_LIABILITY = ReportKind(
    "jackpot_liability", _("Jackpot liability"), "1", "casino/reports/jackpot_liability.html",
    (("venue", _("Venue")), ("jackpot", _("Jackpot")), ("name", _("Name")), ("kind", _("Kind")),
     ("state", _("State")), ("opening_cents", _("Opening balance (€)")), ("funded_cents", _("Seed and resets (€)")),
     ("contributions_cents", _("Contributions (€)")), ("wins_cents", _("Wins (€)")),
     ("transfers_cents", _("Transfers (€)")), ("closing_cents", _("Closing balance (€)"))),
    None, (), (20, 20, 24, 12, 10, 14, 14, 14, 14, 14, 14),
    build=liability_build, prepare_params=liability_prepare, cell=liability_cell, form_fields=liability_fields,
    form_params=liability_form_params,
)
