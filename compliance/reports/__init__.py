"""Compliance reports: PDF (WeasyPrint, from templates/compliance/reports/) and CSV, archived with
their parameters, template version and SHA-256 (docs/compliance.md).

`report_request(...)` records a queued `Report` and hands it to the Celery task; `report_render`
does the work (the task calls it). The same kind, parameters, language and template version give
the same bytes: nothing in the output depends on when or by whom it was made.
"""

from .kinds import KINDS, ReportKind, get_kind  # noqa: F401
from .render import report_render, report_request  # noqa: F401
