"""Benchmark: render an audit extract of N rows (PDF + CSV) and report time, pages and peak memory.

Run it on a database of its own: it writes N audit events by `system:bench_report` first (once).
    DATABASE_URL=postgres://.../bench_h5 python manage.py bench_report --rows 10000
The last line printed is JSON.
"""

import json
import resource
import time

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from compliance.audit import audit_record
from compliance.models import AuditEvent
from compliance.reports.render import render_bytes

ACTOR = "system:bench_report"


class Command(BaseCommand):
    help = "Render an N-row audit extract and print seconds, pages and peak memory as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--rows", type=int, default=10_000)

    def handle(self, *args, **o):
        have = AuditEvent.objects.filter(actor_repr=ACTOR).count()
        with transaction.atomic():
            for i in range(have, o["rows"]):
                audit_record(actor=ACTOR, action="bench.report_row", object_type="lottery.winning", object_id=i,
                             object_repr=f"Winner {i:06d}, prize class {i % 7 + 1}")
        today = timezone.localdate().isoformat()
        params = {"since": today, "until": today, "actor": ACTOR}
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        pdf, csv_bytes, rows, pages = render_bytes("audit_extract", params, "en")
        seconds = time.perf_counter() - t0
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self.stdout.write(json.dumps({
            "rows": rows, "pages": pages, "render_s": round(seconds, 2), "pdf_mb": round(len(pdf) / 1e6, 2),
            "peak_rss_mb": round(rss_after / 1024), "rss_before_mb": round(rss_before / 1024),
        }))
