"""The report kinds: what rows each one has and which template draws it, and the registry of them.

compliance keeps the machinery (rendering, PDF, CSV, archive, jobs) and its own kinds (the audit
extract, exclusion hits); each app registers its kinds from its `AppConfig.ready()` with
`register_kind` (players: player protection; lottery: the draw payout report and large wins).

A kind is a `ReportKind(key, title, version, template, columns, rows)`. `rows(params)` returns a
list of dicts with the column keys (plain strings and numbers, so CSV and PDF show the same values;
in the PDF a column whose key ends in `_cents` is shown in euros in the report's language). A kind whose report is more than
a period and a list (the draw payout report) gives `build(params) -> ReportData` instead, and
`prepare(params)` to check and complete its parameters when the report is requested.
Bump `version` whenever the template or the rows change what a report shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..checkpoints import CheckpointError, get_store
from ..models import ScreeningDecision
from ..money import cents_value, format_cents
from ..selectors import AuditFilter, audit_events


def zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)

def period_bounds(params: dict) -> tuple[dt.datetime, dt.datetime]:
    """`since` and `until` are local dates, both included: [since 00:00, until+1 00:00) in the operator's zone."""
    since = dt.date.fromisoformat(params["since"])
    until = dt.date.fromisoformat(params["until"]) + dt.timedelta(days=1)
    z = zone()
    return dt.datetime.combine(since, dt.time(), tzinfo=z), dt.datetime.combine(until, dt.time(), tzinfo=z)


def checked_period(params: dict) -> dict:
    """`{"since", "until"}` of a request, checked (ValueError in the reader's language when a date is
    missing or not a date, or the period runs backwards): the start of every kind's `prepare`."""
    try:
        since, until = period_bounds(params)
    except (KeyError, TypeError, ValueError):
        raise ValueError(gettext("The period needs 'since' and 'until' dates (YYYY-MM-DD).")) from None
    if since >= until:
        raise ValueError(gettext("'From' must not be after 'Until'."))
    return {"since": params["since"], "until": params["until"]}

def local(value: dt.datetime | None) -> str:
    return value.astimezone(zone()).strftime("%Y-%m-%d %H:%M:%S") if value else ""


def pdf_cell(key: str, value: Any) -> str:
    """How a row's value is shown in the PDF (the CSV keeps the value): money columns in euros in the
    report's language, without the symbol (their headings say "(€)"); an empty cell stays empty."""
    if not key.endswith("_cents"):
        return str(value)
    cents = cents_value(value)
    return "" if cents is None else format_cents(cents, symbol=False)


def person_label(p) -> str:
    """'12 Aino Virtanen' for a report row; '' for nobody."""
    return f"{p.pk} {p.first_name} {p.last_name}" if p is not None else ""


@dataclass(frozen=True)
class ReportData:
    """What one report shows. Nothing in it may depend on when or by whom the report is made."""

    rows: list[dict]  # the listing: a table, or fixed-width lines above render.LISTING_ROWS
    heading: str  # the page header's right-hand text: the period, or the draw
    as_of: dt.datetime  # the PDF's creation date: the end of the period, or the data's last change
    context: dict = field(default_factory=dict)  # what the kind's template shows besides the rows
    csv_rows: list[dict] | None = None  # the CSV's rows when they are more than `rows`


@dataclass(frozen=True)
class ReportKind:
    key: str
    title: object
    version: str
    template: str
    columns: tuple[tuple[str, object], ...]
    rows: Callable[[dict], list[dict]] | None
    extra_params: tuple[str, ...] = ()
    # Characters per column in the fixed-width listing that large reports use (render.LISTING_ROWS).
    widths: tuple[int, ...] = ()
    # A kind that is not "a period and a list": its own report data, parameter check, CSV columns
    # (default: the column keys) and PDF cell text (default: pdf_cell).
    build: Callable[[dict], ReportData] | None = None
    prepare_params: Callable[[dict], dict] | None = None
    csv_columns: tuple[str, ...] = ()
    cell: Callable[[str, Any], str] = pdf_cell
    # The fields the kind adds to the reports page's request form, made fresh for each form (their
    # choices may come from the database), and its parameters from the form's cleaned data (default:
    # the `extra_params` that were given). ValueError from `form_params` is shown on the form.
    form_fields: Callable[[], dict[str, forms.Field]] | None = None
    form_params: Callable[[dict], dict] | None = None
    period: bool = True  # the report covers a period (since, until)
    # Rows per <table> in the table layout (0: one table), lines per block in the listing layout.
    table_rows: int = 0
    block_lines: int = 60

    def prepare(self, params: dict) -> dict:
        """Check the parameters of a request and complete them (e.g. the settlement version that is
        current), so that the archived parameters say exactly what was reported. ValueError if bad."""
        if self.prepare_params is not None:
            return self.prepare_params(dict(params))
        checked_period(params)
        return params

    def fields(self) -> dict[str, forms.Field]:
        return self.form_fields() if self.form_fields is not None else {}

    def params_from_form(self, data: dict) -> dict:
        """The kind's own parameters from the request form's cleaned data (the period is the form's)."""
        if self.form_params is not None:
            return self.form_params(data)
        params = {}
        for key in self.extra_params:
            value = data.get(key)
            if isinstance(value, str):
                value = value.strip()
            if value not in (None, ""):
                params[key] = value
        return params

    def data(self, params: dict) -> ReportData:
        if self.build is not None:
            return self.build(params)
        _, until = period_bounds(params)
        return ReportData(rows=self.rows(params), heading=f"{params['since']} – {params['until']}", as_of=until)


def audit_extract_rows(params: dict) -> list[dict]:
    since, until = period_bounds(params)
    flt = AuditFilter(
        since=since, until=until, actor=params.get("actor", ""), object_type=params.get("object_type", ""),
        object_id=params.get("object_id", ""),
    )
    rows = []
    for e in audit_events(flt).order_by("seq").iterator(chunk_size=2000):
        rows.append({
            "seq": e.seq, "time": local(e.created_at), "actor": e.actor_repr, "action": e.action,
            "object": f"{e.object_type}:{e.object_id}".strip(":"), "object_repr": e.object_repr,
            "approver": e.approver_repr, "significant": "yes" if e.significant else "", "hash": e.hash[:16],
        })
    return rows

# The audit extract shows this many of the newest checkpoints written before the end of its period.
EXTRACT_CHECKPOINTS = 5


def audit_extract_data(params: dict) -> ReportData:
    """The events of the period, and the newest signed checkpoints written before the period ended
    (docs/compliance.md, "Audit trail"): an auditor compares the seal at a checkpoint's sequence number
    with the chain, and the checkpoint's signature with the key. Checkpoints are only ever appended, so
    a past period's extract renders the same every time."""
    _, until = period_bounds(params)
    checkpoints, problem = [], ""
    try:
        store = get_store()
        for cp in reversed(store.written_before(until, EXTRACT_CHECKPOINTS)):
            checkpoints.append({"seq": cp.seq, "hash": cp.hash, "time": local(cp.moment), "key_id": cp.key_id,
                                "signature": cp.signature})
    except (CheckpointError, OSError) as exc:
        problem = str(exc)
    return ReportData(
        rows=audit_extract_rows(params), heading=f"{params['since']} – {params['until']}", as_of=until,
        context={"checkpoints": checkpoints, "checkpoint_problem": problem},
    )


EXCLUSION_CODES = ("registry_excluded", "self_excluded", "registry_unavailable")

def screening_refusals(params: dict, codes: tuple[str, ...]):
    """(decision, reason) of the period's refused screening decisions whose reason is one of `codes`."""
    since, until = period_bounds(params)
    qs = (
        ScreeningDecision.objects.filter(allowed=False, created_at__gte=since, created_at__lt=until)
        .select_related("person").order_by("created_at", "pk")
    )
    for d in qs.iterator(chunk_size=2000):
        for r in d.reasons:
            if r.get("code") in codes:
                yield d, r

NOT_REGISTERED = "(not registered)"  # the CSV's value; the PDF says it in the report's language


def exclusion_hits_rows(params: dict) -> list[dict]:
    return [
        {"time": local(d.created_at), "action": d.action, "person": person_label(d.person) or NOT_REGISTERED,
         "code": r["code"], "registry": r.get("registry", ""), "asked_by": d.actor_repr, "decision": d.pk}
        for d, r in screening_refusals(params, EXCLUSION_CODES)
    ]

def audit_extract_fields() -> dict[str, forms.Field]:
    return {
        "actor": forms.CharField(label=_("Actor (audit extract)"), required=False, max_length=150),
        "object_type": forms.CharField(label=_("Object type (audit extract)"), required=False, max_length=100),
        "object_id": forms.CharField(label=_("Object id (audit extract)"), required=False, max_length=64),
    }


def audit_extract_cell(key: str, value: Any) -> str:
    """The audit extract's PDF cell: "yes" of the significant column in the report's language."""
    if key == "significant":
        return str(_("yes")) if value else ""
    return pdf_cell(key, value)


# The exclusion hits' reasons in the PDF (the CSV keeps the codes).
EXCLUSION_REASONS = {
    "registry_excluded": _("on an exclusion register"),
    "self_excluded": _("self-excluded"),
    "registry_unavailable": _("register could not be checked"),
}


def exclusion_hits_cell(key: str, value: Any) -> str:
    """The exclusion hits' PDF cell: the action and the reason in words of the report's language."""
    if key == "action":
        return str(ScreeningDecision.Action(value).label) if value in ScreeningDecision.Action.values else str(value)
    if key == "code":
        return str(EXCLUSION_REASONS.get(value, value))
    if key == "person" and value == NOT_REGISTERED:
        return str(_("(not registered)"))
    return pdf_cell(key, value)


AUDIT_EXTRACT = ReportKind(
    "audit_extract", _("Audit extract"), "3", "compliance/reports/audit_extract.html",
    (("seq", _("No.")), ("time", _("Time")), ("actor", _("Actor")), ("action", _("Action")),
     ("object", _("Object")), ("object_repr", _("Description")), ("approver", _("Approver")),
     ("significant", _("Significant")), ("hash", _("Hash"))),
    audit_extract_rows, ("actor", "object_type", "object_id"), (7, 19, 20, 26, 26, 40, 12, 3, 16),
    build=audit_extract_data, form_fields=audit_extract_fields, cell=audit_extract_cell,
)
EXCLUSION_HITS = ReportKind(
    "exclusion_hits", _("Exclusion hits"), "2", "compliance/reports/table.html",
    (("time", _("Time")), ("action", _("Action")), ("person", _("Person")), ("code", _("Reason")),
     ("registry", _("Register")), ("asked_by", _("Asked by")), ("decision", _("Decision"))),
    exclusion_hits_rows, (), (19, 10, 34, 20, 34, 20, 10), cell=exclusion_hits_cell,
)

# The registry: key -> kind, in registration order (the reports page offers them in this order).
KINDS: dict[str, ReportKind] = {}


def register_kind(kind: ReportKind) -> None:
    """Offer a report kind on the reports page and to `report_request`. Called from AppConfig.ready()."""
    if kind.key in KINDS and KINDS[kind.key] is not kind:
        raise ValueError(f"Report kind {kind.key!r} is registered twice.")
    KINDS[kind.key] = kind


def get_kind(key: str) -> ReportKind:
    try:
        return KINDS[key]
    except KeyError:
        raise ValueError(f"Unknown report kind {key!r}") from None

