"""Time `audit_record`: `bench_audit --events 10000` appends that many events, each in its own
transaction as the application does, and prints a JSON line. It writes real audit events: run it on a
database of its own (README, "Benchmarks")."""

import json
import time

from django.core.management.base import BaseCommand
from django.db import connection

from compliance.audit import audit_record


class Command(BaseCommand):
    help = "Append N audit events (each its own transaction) and print the time per call as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--events", type=int, default=10_000)

    def handle(self, *args, **options):
        n = max(1, options["events"])
        start = time.perf_counter()
        for i in range(n):
            audit_record(actor="system:bench", action="bench.record", object_type="bench", object_id=i,
                         data={"i": i, "amount": "12.34"})
        seconds = time.perf_counter() - start
        self.stdout.write(json.dumps({"vendor": connection.vendor, "events": n, "seconds": round(seconds, 2),
                                      "per_call_us": round(seconds / n * 1e6)}))
