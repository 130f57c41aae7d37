"""Timing one report's rendering (PDF + CSV) for the report benchmarks: compliance's `bench_report`
(the audit extract) and each app's own (lottery's `bench_draw_report`)."""

from __future__ import annotations

import resource
import time

from django.db import connection

from . import render

LAYOUTS = ("auto", "table", "listing")


def peak_mb() -> int:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def measure_render(kind: str, params: dict, *, layout: str = "auto", language: str = "en") -> dict:
    """Render the report once and say how long it took, its pages and the process's peak memory.
    `layout="table"` forces WeasyPrint tables whatever the number of rows, `listing` the fixed-width
    listing; `auto` picks as the reports do."""
    saved = render.LISTING_ROWS
    render.LISTING_ROWS = {"auto": saved, "table": 10**12, "listing": -1}[layout]
    rss_before = peak_mb()
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        pdf, csv_bytes, count, pages = render.render_bytes(kind, params, language)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        render.LISTING_ROWS = saved
    chosen = layout if layout != "auto" else ("listing" if count > saved else "table")
    return {
        "kind": kind, "database": connection.vendor, "layout": chosen, "rows": count, "pages": pages,
        # Wall-clock seconds, and this process's CPU seconds (what a busy shared machine does not inflate).
        "seconds": round(seconds, 2), "cpu_s": round(cpu, 2), "peak_mb": peak_mb(), "rss_before_mb": rss_before,
        "pdf_mb": round(len(pdf) / 1e6, 2), "csv_kb": round(len(csv_bytes) / 1e3),
    }
