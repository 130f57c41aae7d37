"""The casino's report kinds (issue 19 item 5), registered with compliance's report machinery (PDF by
WeasyPrint and CSV, in fi/sv/en, archived with their version and SHA-256; docs/compliance.md, "Reports"):

* `casino_venue_day`, the daily venue report: per venue and gaming day, the rounds recorded, their
  stakes, what was paid, what the engines say was due, the stake-limit voids (voided excess) and the
  win-cap cuts, and the discrepancies found, open and resolved. Summed by the database (one grouped
  query over the rounds joined to their verification, on the (day, venue) index, and one over the
  discrepancies), so the report costs a grouped scan of the period's rounds, not a row per round.
* `casino_disputes_complaints`: the disputes and complaints of a period, with each complaint's
  deadlines (answer, payment of winnings) met, missed or open.

Both reports are **as of a moment** (`as_of`, recorded in the parameters when the report is requested):
only what was recorded by then counts (rounds, verifications, resolutions, answers, payments), and the
deadlines are judged on that moment's day, so the archived report renders to the same bytes later.
Money columns end in `_cents`: integer cents in the CSV, euros in the report's language in the PDF.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from compliance.reports.kinds import (
    ReportData,
    ReportKind,
    checked_period,
    local,
    pdf_cell,
    zone,
)
from players.models import Person

from .dispute_selectors import MET, MISSED, OPEN, OVERDUE, deadline_state
from .disputes import role_label
from .models import Complaint, Discrepancy, Dispute, RecordedRound, Venue

# ------------------------------------------------------------------------------------------ parameters


def casino_prepare(params: dict) -> dict:
    """The period (both days included), an optional venue code, and `as_of`: the moment the report is
    made as of (now when not given), recorded so that the archived parameters say what was reported."""
    out = checked_period(params)
    venue = str(params.get("venue") or "").strip()
    if venue:
        if not Venue.objects.filter(code=venue).exists():
            raise ValueError(gettext("There is no venue %(venue)r.") % {"venue": venue})
        out["venue"] = venue
    as_of = params.get("as_of")
    moment = parse_datetime(as_of) if isinstance(as_of, str) else None
    if as_of not in (None, "") and (moment is None or timezone.is_naive(moment)):
        raise ValueError(gettext("'as_of' is a date and time with its zone."))
    moment = moment or timezone.now()
    out["as_of"] = moment.astimezone(zone()).isoformat()
    return out


def venue_choices() -> list[tuple[str, str]]:
    return list(Venue.objects.order_by("name").values_list("code", "name"))


def casino_fields() -> dict[str, forms.Field]:
    return {"casino_venue": forms.ChoiceField(label=_("Venue (casino reports)"), required=False,
                                              choices=[("", _("all venues")), *venue_choices()])}


def casino_form_params(data: dict) -> dict:
    return {"venue": data["casino_venue"]} if data.get("casino_venue") else {}


def _as_of(params: dict) -> dt.datetime:
    return parse_datetime(params["as_of"])


def _days(params: dict) -> tuple[dt.date, dt.date]:
    return dt.date.fromisoformat(params["since"]), dt.date.fromisoformat(params["until"])


def _heading(params: dict, venue_name: str) -> str:
    period = f"{params['since']} – {params['until']}"
    return f"{venue_name} · {period}" if venue_name else period


def _venue_name(params: dict) -> str:
    if not params.get("venue"):
        return ""
    return Venue.objects.filter(code=params["venue"]).values_list("name", flat=True).first() or params["venue"]


# ------------------------------------------------------------------------------ the daily venue report

DAY_SUMS = ("rounds", "verified", "stakes_cents", "paid_cents", "due_cents", "difference_cents",
            "voided_excess_cents", "capped_excess_cents", "discrepancies_open", "discrepancies_resolved")


def venue_day_rows(params: dict) -> list[dict]:
    """One row per venue and gaming day with a round recorded (by `as_of`), summed by the database."""
    first, last = _days(params)
    as_of = _as_of(params)
    rounds = RecordedRound.objects.filter(day__gte=first, day__lte=last, recorded_at__lte=as_of)
    found = Discrepancy.objects.filter(day__gte=first, day__lte=last, created_at__lte=as_of)
    if params.get("venue"):
        rounds = rounds.filter(venue__code=params["venue"])
        found = found.filter(venue__code=params["venue"])
    verified = Q(verification__verified_at__lte=as_of)
    sums = (rounds.values("venue_id", "day")
            .annotate(rounds=Count("pk"), stakes_cents=Sum("stake_total_cents"), paid_cents=Sum("paid_total_cents"),
                      verified=Count("verification", filter=verified),
                      due_cents=Sum("verification__due_total_cents", filter=verified),
                      difference_cents=Sum("verification__difference_cents", filter=verified),
                      voided_excess_cents=Sum("verification__voided_excess_cents", filter=verified),
                      capped_excess_cents=Sum("verification__capped_excess_cents", filter=verified))
            .order_by())
    resolved = Q(resolved_at__lte=as_of)
    counts = {(d["venue_id"], d["day"]): d for d in found.values("venue_id", "day").annotate(
        discrepancies_open=Count("pk", filter=~resolved), discrepancies_resolved=Count("pk", filter=resolved))
        .order_by()}
    names = dict(Venue.objects.values_list("pk", "name"))
    rows = []
    for s in sums:
        d = counts.get((s["venue_id"], s["day"]), {})
        rows.append({"venue": names[s["venue_id"]], "day": s["day"].isoformat(), "rounds": s["rounds"],
                     "verified": s["verified"], "stakes_cents": s["stakes_cents"] or 0, "paid_cents": s["paid_cents"] or 0,
                     "due_cents": s["due_cents"] or 0, "difference_cents": s["difference_cents"] or 0,
                     "voided_excess_cents": s["voided_excess_cents"] or 0,
                     "capped_excess_cents": s["capped_excess_cents"] or 0,
                     "discrepancies_open": d.get("discrepancies_open", 0),
                     "discrepancies_resolved": d.get("discrepancies_resolved", 0)})
    rows.sort(key=lambda r: (r["venue"], r["day"]))
    return rows


def _total(rows: list[dict]) -> dict:
    return {key: sum(r[key] for r in rows) for key in DAY_SUMS}


def venue_day_build(params: dict) -> ReportData:
    rows = venue_day_rows(params)
    by_venue: dict[str, list[dict]] = {}
    for row in rows:
        by_venue.setdefault(row["venue"], []).append(row)
    venue_name = _venue_name(params)
    return ReportData(
        rows=rows, heading=_heading(params, venue_name), as_of=_as_of(params),
        context={"venues": [{"name": name, "rows": items, "total": _total(items)} for name, items in by_venue.items()],
                 "total": _total(rows), "venue_name": venue_name, "as_of_text": local(_as_of(params))})


VENUE_DAY = ReportKind(
    "casino_venue_day", _("Daily venue report"), "1", "casino/reports/venue_day.html",
    (("venue", _("Venue")), ("day", _("Gaming day")), ("rounds", _("Rounds")), ("verified", _("Verified")),
     ("stakes_cents", _("Stakes (€)")), ("paid_cents", _("Paid (€)")), ("due_cents", _("Due (€)")),
     ("difference_cents", _("Paid minus due (€)")), ("voided_excess_cents", _("Voided excess (€)")),
     ("capped_excess_cents", _("Cap cuts (€)")), ("discrepancies_open", _("Open discrepancies")),
     ("discrepancies_resolved", _("Resolved discrepancies"))),
    None, (), (24, 10, 7, 7, 15, 15, 15, 14, 13, 13, 6, 6),
    build=venue_day_build, prepare_params=casino_prepare, form_fields=casino_fields, form_params=casino_form_params,
    table_rows=40, block_lines=52,
)


# -------------------------------------------------------------------- disputes and complaints of a period

DISPUTE, COMPLAINT = "dispute", "complaint"
RECORD_WORDS = {DISPUTE: pgettext_lazy("report record", "dispute"), COMPLAINT: pgettext_lazy("report record", "complaint")}
# A deadline as of the report's moment: met, missed (done late, or not done by then), open.
LATE, UNMET = "late", "unmet"
REPORT_DEADLINE_WORDS = {
    MET: pgettext_lazy("deadline", "met"),
    LATE: pgettext_lazy("deadline", "missed: done late"),
    UNMET: pgettext_lazy("deadline", "missed: not done"),
    OPEN: pgettext_lazy("deadline", "open"),
}


def _report_state(due: dt.date | None, done_on: dt.date | None, day: dt.date) -> str:
    state = deadline_state(due, done_on, day)
    return {MISSED: LATE, OVERDUE: UNMET}.get(state, OPEN if state and state != MET else state)


def _known(moment: dt.datetime | None, as_of: dt.datetime) -> bool:
    return moment is not None and moment <= as_of


def _person(p: Person | None) -> str:
    return f"{p.first_name} {p.last_name} ({p.pk})" if p is not None else ""


def complaint_row(c: Complaint, as_of: dt.datetime) -> dict:
    """A complaint as it stood at `as_of`: what was answered, extended and paid by then, and its
    deadlines judged on that day."""
    day = as_of.astimezone(zone()).date()
    extended = _known(c.extended_at, as_of)
    due = c.extended_answer_due if extended else c.answer_due
    answered = _known(c.answered_at, as_of)
    winnings = _known(c.winnings_recorded_at, as_of)
    paid = _known(c.paid_at, as_of)
    return {
        "record": COMPLAINT, "number": c.pk, "venue": c.venue.name, "table": c.round.table.code if c.round else "",
        "day": c.received_on.isoformat(), "player": _person(c.person) or c.player_name, "channel": c.channel,
        "summary": c.subject, "round": c.round.ref if c.round else "", "dispute": c.dispute_id or "",
        "answer_due": due.isoformat(), "extended": "yes" if extended else "",
        "answered_on": c.answered_on.isoformat() if answered else "",
        "answer_deadline": _report_state(due, c.answered_on if answered else None, day),
        "winnings_cents": c.winnings_cents if winnings else "",
        "payment_due": c.payment_due.isoformat() if winnings else "",
        "paid_on": c.paid_on.isoformat() if paid else "",
        "payment_deadline": _report_state(c.payment_due, c.paid_on if paid else None, day) if winnings else "",
    }


def dispute_row(d: Dispute, people: dict[int, Person], as_of: dt.datetime) -> dict:
    players = []
    for party in d.players:
        person = people.get(party.get("person")) if party.get("person") else None
        players.append(_person(person) if person else str(party.get("person") or party.get("description", "")))
    amended_by = [a.pk for a in d.amendments.all() if a.recorded_at <= as_of]
    return {
        "record": DISPUTE, "number": d.pk, "venue": d.venue.name, "table": d.table.code,
        "day": local(d.occurred_at), "player": "; ".join(players),
        "staff": "; ".join(f"{s['name']} ({s['role']})" if s.get("role") else s["name"] for s in d.staff),
        "decided_by": "; ".join(f"{x['name']} ({x['role']})" for x in d.deciders),
        # The PDF's words (the data is built in the report's language; the CSV keeps the codes above).
        "decided_by_text": "; ".join(f"{x['name']} ({role_label(x['role'])})" for x in d.deciders),
        "round_outcome_text": str(Dispute.RoundOutcome(d.round_outcome).label),
        "summary": d.decision, "round": d.round.ref if d.round else d.round_description,
        "round_outcome": d.round_outcome, "amends": d.amends_id or "",
        "amended_by": amended_by[0] if amended_by else "",
    }


def disputes_complaints_build(params: dict) -> ReportData:
    first, last = _days(params)
    as_of = _as_of(params)
    disputes = Dispute.objects.filter(day__gte=first, day__lte=last, recorded_at__lte=as_of)
    complaints = Complaint.objects.filter(received_on__gte=first, received_on__lte=last, recorded_at__lte=as_of)
    if params.get("venue"):
        disputes = disputes.filter(venue__code=params["venue"])
        complaints = complaints.filter(venue__code=params["venue"])
    disputes = list(disputes.select_related("venue", "table", "round").prefetch_related("amendments")
                    .order_by("occurred_at", "pk"))
    people = Person.objects.in_bulk({p["person"] for d in disputes for p in d.players if p.get("person")})
    dispute_rows = [dispute_row(d, people, as_of) for d in disputes]
    complaint_rows = [complaint_row(c, as_of) for c in complaints.select_related("venue", "person", "round__table")
                      .order_by("received_on", "pk")]
    order = (MET, LATE, UNMET, OPEN)
    summary = {
        "disputes": len(dispute_rows),
        "amended": sum(1 for r in dispute_rows if r["amended_by"]),
        "complaints": len(complaint_rows),
        "deadlines": [{"label": REPORT_DEADLINE_WORDS[state],
                       "answers": sum(1 for r in complaint_rows if r["answer_deadline"] == state),
                       "payments": sum(1 for r in complaint_rows if r["payment_deadline"] == state)} for state in order],
        "winnings_cents": sum(r["winnings_cents"] or 0 for r in complaint_rows),
    }
    venue_name = _venue_name(params)
    for r in complaint_rows:
        r["channel_text"] = disputes_complaints_cell("channel", r["channel"])
        r["answer_deadline_text"] = disputes_complaints_cell("answer_deadline", r["answer_deadline"])
        r["payment_deadline_text"] = disputes_complaints_cell("payment_deadline", r["payment_deadline"])
    return ReportData(
        rows=dispute_rows + complaint_rows, heading=_heading(params, venue_name), as_of=as_of,
        context={"disputes": dispute_rows, "complaints": complaint_rows, "summary": summary,
                 "venue_name": venue_name, "as_of_text": local(as_of)},
    )


def disputes_complaints_cell(key: str, value: Any) -> str:
    """The PDF's cell: codes in the report's language (the CSV keeps the codes)."""
    if key == "record":
        return str(RECORD_WORDS.get(value, value))
    if key in ("answer_deadline", "payment_deadline"):
        return str(REPORT_DEADLINE_WORDS.get(value, value))
    if key == "channel":
        return str(Complaint.Channel(value).label) if value in Complaint.Channel.values else str(value)
    if key == "round_outcome":
        return str(Dispute.RoundOutcome(value).label) if value in Dispute.RoundOutcome.values else str(value)
    return pdf_cell(key, value)


DISPUTES_COMPLAINTS = ReportKind(
    "casino_disputes_complaints", _("Disputes and complaints"), "1", "casino/reports/disputes_complaints.html",
    (("record", _("Record")), ("number", _("No.")), ("venue", _("Venue")), ("day", _("Date")),
     ("player", _("Player")), ("summary", _("Decision or subject")), ("answer_due", _("Answer due")),
     ("answered_on", _("Answered")), ("answer_deadline", _("Answer deadline")), ("winnings_cents", _("Winnings (€)")),
     ("payment_due", _("Payment due")), ("paid_on", _("Paid")), ("payment_deadline", _("Payment deadline"))),
    None, (), (9, 5, 18, 16, 24, 40, 10, 10, 18, 12, 10, 10, 18),
    build=disputes_complaints_build, prepare_params=casino_prepare, cell=disputes_complaints_cell,
    csv_columns=("record", "number", "venue", "table", "day", "player", "staff", "decided_by", "round",
                 "round_outcome", "amends", "amended_by", "channel", "summary", "dispute", "answer_due", "extended",
                 "answered_on", "answer_deadline", "winnings_cents", "payment_due", "paid_on", "payment_deadline"),
    form_fields=casino_fields, form_params=casino_form_params, table_rows=30, block_lines=52,
)

REPORT_KINDS = (VENUE_DAY, DISPUTES_COMPLAINTS)
