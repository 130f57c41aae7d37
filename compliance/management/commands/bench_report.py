"""Benchmark of report rendering: time, pages and peak memory of one audit extract (PDF + CSV).

Run it on a database of its own:
    python manage.py bench_report --rows 10000
writes N audit events by `system:bench_report` once and renders their audit extract. A second run
finds the events made by the first and measures the rendering alone. The last line printed is JSON.
The draw payout report has its own benchmark in the lottery (`bench_draw_report`).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from compliance.audit import audit_record
from compliance.models import AuditEvent
from compliance.reports.bench import LAYOUTS, measure_render

ACTOR = "system:bench_report"


class Command(BaseCommand):
    help = "Render the audit extract of N events; print seconds, pages, peak memory."

    def add_arguments(self, parser):
        parser.add_argument("--rows", type=int, default=10_000, help="audit events")
        parser.add_argument("--layout", choices=LAYOUTS, default="auto")
        parser.add_argument("--language", default="en")

    def handle(self, *args, rows: int, layout: str, language: str, **options):
        have = AuditEvent.objects.filter(actor_repr=ACTOR).count()
        with transaction.atomic():
            for i in range(have, rows):
                audit_record(actor=ACTOR, action="bench.report_row", object_type="lottery.winning", object_id=i,
                             object_repr=f"Winner {i:06d}, prize class {i % 7 + 1}")
        today = timezone.localdate().isoformat()
        params = {"since": today, "until": today, "actor": ACTOR}
        self.stdout.write(json.dumps(measure_render("audit_extract", params, layout=layout, language=language)))
