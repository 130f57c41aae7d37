"""Rendering and archiving of reports (the Celery task `compliance.tasks.report_generate` calls
`report_render`)."""

from __future__ import annotations

import hashlib
import io
import logging
import os
import threading
from contextlib import contextmanager

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from ..audit import audit_record
from ..csvsafe import csv_writer
from ..jobs import current, is_transient, job_enqueue, progress
from ..models import Report
from .kinds import get_kind

LANGUAGES = [code for code, _ in settings.LANGUAGES]
# Above this many rows a report is laid out as fixed-width lines instead of a table: WeasyPrint lays
# out 10,000 table rows in minutes and gigabytes, the same rows as text in seconds (docs/compliance.md).
LISTING_ROWS = 500
LINES_PER_BLOCK = 60
log = logging.getLogger(__name__)


def _progress(report: Report, value: int) -> None:
    Report.objects.filter(pk=report.pk).update(progress=value)
    progress(value, 100)


def report_request(*, actor, kind: str, params: dict, language: str = "en", request=None) -> Report:
    """Record a queued report and its job (compliance.jobs) in one transaction; the job is sent to a
    worker once the row is committed, or by the dispatcher when the broker is back. ValueError when
    the parameters do not fit the kind (the message is for staff)."""
    definition = get_kind(kind)
    if language not in LANGUAGES:
        raise ValueError(f"Unknown language {language!r}")
    params = definition.prepare(params)  # checked and completed (e.g. the settlement version reported)
    with transaction.atomic():
        report = Report.objects.create(
            kind=kind, params=params, language=language, version=definition.version,
            created_by=None if isinstance(actor, str) else actor,
            created_by_repr=actor if isinstance(actor, str) else actor.get_username(),
        )
        audit_record(actor=actor, action="report.requested", obj=report,
                     data={"kind": kind, "params": params, "language": language}, request=request)
        job_enqueue(kind="compliance.tasks.report_generate", key=f"compliance.report:{report.pk}",
                    args={"report_id": report.pk}, actor=actor)
    return report


def render_bytes(kind: str, params: dict, language: str) -> tuple[bytes, bytes, int, int]:
    """(pdf, csv, rows, pages) for these parameters; a pure function of them and of the data."""
    from weasyprint import HTML

    definition = get_kind(kind)
    with translation.override(language):
        data = definition.data(params)
        labels = [str(label) for _, label in definition.columns]
        cells = [[definition.cell(key, row.get(key, "")) for key, _ in definition.columns] for row in data.rows]
    rows = data.rows
    csv_columns = definition.csv_columns or tuple(key for key, _ in definition.columns)
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")  # formulas neutralised (compliance/csvsafe.py)
    writer.writerow(csv_columns)
    for row in rows if data.csv_rows is None else data.csv_rows:
        writer.writerow([row.get(key, "") for key in csv_columns])
    csv_bytes = out.getvalue().encode("utf-8")
    listing = len(rows) > LISTING_ROWS
    header, blocks, chunks = "", [], []
    if listing:
        widths = definition.widths or tuple(max(8, len(x)) for x in labels)
        right = [key.endswith("_cents") for key, _ in definition.columns]  # amounts line up on the right
        header = _line(labels, widths, right)
        lines = [_line(c, widths, right) for c in cells]
        step = definition.block_lines or LINES_PER_BLOCK
        blocks = ["\n".join(lines[i:i + step]) for i in range(0, len(lines), step)]
    elif cells:
        step = definition.table_rows or len(cells)
        chunks = [cells[i:i + step] for i in range(0, len(cells), step)]
    with translation.override(language):
        title = str(definition.title)
        html = render_to_string(
            definition.template,
            {
                "kind": definition, "title": title, "title_css": _css_string(title), "params": params,
                "heading": data.heading, "heading_css": _css_string(data.heading),
                "extra": [(k, params[k]) for k in definition.extra_params if params.get(k)],
                "columns": definition.columns, "rows": rows, "chunks": chunks,
                "right_columns": [i for i, (key, _) in enumerate(definition.columns) if key.endswith("_cents")],
                "listing": listing, "listing_header": header, "listing_blocks": blocks, "version": definition.version,
                "language": language, "operator_zone": settings.TIME_ZONE,
                # PDF metadata date: the end of the period, or the last change of the data shown, so
                # that re-rendering gives the same bytes.
                "created_iso": data.as_of.isoformat(), "since": params.get("since", ""),
                "until": params.get("until", ""), **data.context,
            },
        )
    document = HTML(string=html, base_url=str(settings.BASE_DIR)).render()
    with _font_timestamps(data.as_of):
        pdf = document.write_pdf()
    return pdf, csv_bytes, len(rows), len(document.pages)


_SOURCE_DATE = threading.Lock()


@contextmanager
def _font_timestamps(moment):
    """The embedded fonts' timestamps: the report's as-of time. WeasyPrint subsets the fonts with
    HarfBuzz when the system has libharfbuzz-subset, else with fontTools, which stamps each font with
    the time of writing unless SOURCE_DATE_EPOCH (reproducible-builds.org) says otherwise; without
    this, the same parameters gave other bytes whenever a second passed between two renders. The
    variable is the process's environment, so one PDF at a time is written with it set."""
    with _SOURCE_DATE:
        before = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(int(moment.timestamp()))
        try:
            yield
        finally:
            if before is None:
                del os.environ["SOURCE_DATE_EPOCH"]
            else:
                os.environ["SOURCE_DATE_EPOCH"] = before


def _css_string(text: str) -> str:
    """Text for a CSS string in double quotes (the page header's `content`): quote and backslash
    escaped, as CSS escapes them (Django's escapejs writes JavaScript escapes, which CSS reads wrongly)."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ")
    return mark_safe(text)  # escaped for its place: a CSS string inside <style>


def report_file_name(report: Report, fmt: str) -> str:
    """Download name: kind and period (or draw and version) and the report number."""
    p = report.params
    what = f"draw{p.get('draw', '')}-v{p.get('version', '')}" if "draw" in p else f"{p.get('since', '')}-{p.get('until', '')}"
    return f"valvoja-{report.kind}-{what}-{report.pk}.{fmt}"


def _line(values, widths, right=()) -> str:
    """One fixed-width line: each value cut or padded to its column's width, two spaces between;
    a column marked in `right` is padded on the left."""
    right = right or [False] * len(widths)
    return "  ".join(
        str(v)[:w].rjust(w) if r else str(v)[:w].ljust(w) for v, w, r in zip(values, widths, right, strict=False)
    ).rstrip()


def report_render(report_id: int) -> Report | None:
    """Claim a queued report, render and archive it. Running it twice is harmless: a report that
    is already running or done is left alone, except by a later attempt of its own job (the job's
    claim makes that attempt the only one; the previous one died at "running")."""
    running = current()
    claimable = [Report.Status.QUEUED]
    if running is not None and running.attempts > 1:
        claimable.append(Report.Status.RUNNING)
    claimed = Report.objects.filter(pk=report_id, status__in=claimable).update(
        status=Report.Status.RUNNING, progress=5
    )
    if not claimed:
        return None
    report = Report.objects.get(pk=report_id)
    try:
        _progress(report, 20)
        pdf, csv_bytes, rows, pages = render_bytes(report.kind, report.params, report.language)
        _progress(report, 90)
        stem = f"{report.kind}-{report.pk}"
        report.pdf.save(f"{stem}.pdf", ContentFile(pdf), save=False)
        report.csv.save(f"{stem}.csv", ContentFile(csv_bytes), save=False)
        report.sha256 = hashlib.sha256(pdf).hexdigest()
        report.csv_sha256 = hashlib.sha256(csv_bytes).hexdigest()
        report.rows, report.pages = rows, pages
        report.status, report.progress, report.finished_at = Report.Status.DONE, 100, timezone.now()
        with transaction.atomic():
            report.save()
            audit_record(actor=report.created_by or report.created_by_repr, action="report.generated", obj=report,
                         data={"kind": report.kind, "params": report.params, "version": report.version,
                               "language": report.language, "sha256": report.sha256, "rows": rows,
                               "pages": pages})
    except Exception as exc:
        if not is_transient(exc):  # a cut connection: the job tries again and resumes the report
            Report.objects.filter(pk=report.pk).update(status=Report.Status.FAILED,
                                                       error=f"{type(exc).__name__}: {exc}")
        raise
    return report
