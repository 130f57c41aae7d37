"""The draw-pipeline benchmark command: it runs the real import, settlement and payout, and its last
line is the JSON the README and docs/draws.md quote (the timings themselves are not asserted)."""

from __future__ import annotations

import io
import json

from django.core.management import call_command
from django.db import connection

from lottery.models import Draw, Line, Winning

KEYS = {"lines", "import_s", "settle_s", "pay_s", "peak_mb", "import_vs_copy", "settle_vs_scan"}


def test_the_benchmark_runs_a_draw_through_the_pipeline_and_prints_its_figures(transactional_db):
    out = io.StringIO()
    call_command("bench_settlement", lines=400, seed=3, stdout=out, stderr=io.StringIO())
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    draw = Draw.objects.get(game__code="lotto")
    run = draw.settlement_runs.get()
    assert KEYS <= figures.keys()
    assert (figures["lines"], Line.objects.filter(draw=draw).count(), draw.state) == (400, 400, "paid")
    assert Winning.objects.filter(run=run).count() == run.winners_count
    if connection.vendor == "postgresql":  # the bare COPY exists only there
        assert figures["copy_s"] > 0 and figures["import_vs_copy"] > 0
    else:
        assert figures["import_vs_copy"] is None
