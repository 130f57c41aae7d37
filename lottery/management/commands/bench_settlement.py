"""Benchmark of the draw pipeline: import, settle (and pay) N random lines through the real services.

    python manage.py bench_settlement --lines 1000000 [--game lotto] [--seed 1]

Run it on a database of its own (it adds a draw, its wagers and lines, and audit events). The last
line printed is JSON: lines, import_s, settle_s, pay_s, peak_mb, import_vs_copy, settle_vs_scan, with
the bare figures (a COPY of the same file into a plain table; the bare classification query) measured
in the same run. See docs/draws.md, "Benchmark".
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import resource
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from compliance import roles
from lottery import services
from lottery.games import registry
from lottery.games.base import RetailFormat
from lottery.matching import popcount_sql
from lottery.models import Draw, DrawState, Game, RunState
from lottery.salesfile import write_sales_file
from lottery.services import payouts as payout_service
from lottery.services import settlement as settlement_service
from lottery.services.retail import retail_import
from lottery.tasks import pay_draw, settle_run

ACTOR = "system:bench_settlement"


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class Command(BaseCommand):
    help = "Build a draw with N random lines through the real import, settle and pay it; print the timings."

    def add_arguments(self, parser):
        parser.add_argument("--lines", type=int, required=True)
        # The games whose retail file is the number-line file (`lottery.salesfile` writes it).
        games = [spec.code for spec in registry.all() if spec.codec.retail_format is RetailFormat.NUMBERS]
        parser.add_argument("--game", default=games[0], choices=games)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep-file", action="store_true", help="keep the generated sales file")
        parser.add_argument("--write-file", metavar="PATH",
                            help="only schedule the draw and write its sales file to PATH (to import it another way, "
                                 "e.g. uploaded as a job); no import, settlement or payout")

    def handle(self, *args, lines: int, game: str, seed: int, keep_file: bool, write_file: str | None = None,
               **options):
        if lines < 1:
            raise CommandError("--lines must be at least 1")
        rng = random.Random(seed)
        codec = registry.get(game).codec
        game_row = Game.objects.get(code=game)
        now = timezone.now()
        blocking = Draw.objects.filter(game=game_row).exclude(
            state__in=[DrawState.SETTLED, DrawState.APPROVED, DrawState.PAID, DrawState.CANCELLED]
        )
        if blocking.exists():
            raise CommandError(
                f"{game_row.name} has unsettled draws in this database ({', '.join(map(str, blocking[:5]))}); "
                "run the benchmark on a database of its own."
            )
        enterer, confirmer, approver = self._staff()
        number = (Draw.objects.filter(game=game_row).order_by("-number").values_list("number", flat=True).first() or 0) + 1
        draw = services.draw_schedule(
            actor=ACTOR, game=game_row, number=number, sales_open_at=now - dt.timedelta(days=2),
            sales_close_at=now - dt.timedelta(hours=1), draw_at=now - dt.timedelta(minutes=30),
            jackpot_cents=codec.bench_jackpot_cents, now=now - dt.timedelta(days=2),  # planned before its sales
        )
        if codec.bench_central_inputs:
            services.draw_set_central_inputs(actor=ACTOR, draw=draw, inputs=codec.bench_central_inputs)
        services.close_due_draws(actor=ACTOR)
        fmt = codec.line_format(draw.ruleset.params)

        path = write_sales_file(fmt, lines, rng, draw)
        if write_file:
            os.replace(path, write_file)
            self.stdout.write(json.dumps({"draw": draw.pk, "file": write_file, "lines": lines,
                                          "bytes": os.path.getsize(write_file)}))
            return
        size_mb = os.path.getsize(path) / 2**20
        self.stdout.write(f"draw {draw} (id {draw.pk}); sales file {path}: {lines} lines, {size_mb:.1f} MB")
        try:
            copy_s = self._bare_copy(path) if connection.vendor == "postgresql" else None
            self._checkpoint()
            t = time.perf_counter()
            with open(path, "rb") as stream:
                record = retail_import(actor=ACTOR, draw=draw, stream=stream, file_name=os.path.basename(path))
            import_s = time.perf_counter() - t
        finally:
            if not keep_file:
                os.unlink(path)
        if record.state != "done":
            raise CommandError(f"import refused: {record.errors[:3]}")
        self.stdout.write(f"import: {import_s:.2f} s ({record.method}); bare COPY: {copy_s and round(copy_s, 2)} s")

        result = codec.random_result(rng, draw.ruleset.params)
        services.result_enter(actor=enterer, draw=draw, numbers=result, draw_method="system", witnesses="benchmark")
        queued: list = []
        real_enqueue = settlement_service.enqueue
        settlement_service.enqueue = queued.append  # the run is started below, timed
        try:
            services.result_confirm(actor=confirmer, draw=draw)
        finally:
            settlement_service.enqueue = real_enqueue
        run = queued[0]
        scan_s, scan_workers, scan_serial_s = self._bare_scan(draw, run)
        # The Celery app is set up (finalized) on its first task, once per process, as a worker does when
        # it starts: not part of settling a run, so not timed.
        settle_run.app.finalize()
        t = time.perf_counter()
        settle_run.apply(args=[run.pk]).get()
        settle_s = time.perf_counter() - t
        run.refresh_from_db()
        if run.state != RunState.SETTLED:
            raise CommandError(f"settlement did not settle: {run.state} {run.error}")
        self.stdout.write(
            f"settle: {settle_s:.2f} s ({run.winners_count} winners, {run.chunks_total} chunks); "
            f"bare classification query: {scan_s:.3f} s ({scan_workers} parallel workers planned; "
            f"without them {scan_serial_s and round(scan_serial_s, 3)} s)"
        )

        real_pay_enqueue = payout_service._enqueue_pay
        payout_service._enqueue_pay = lambda draw_id: None  # the payout job is run below, timed
        try:
            t = time.perf_counter()
            services.settlement_approve(actor=approver, draw=draw)
            pay_draw.apply(args=[draw.pk]).get()
            pay_s = time.perf_counter() - t
        finally:
            payout_service._enqueue_pay = real_pay_enqueue
        draw.refresh_from_db()
        self.stdout.write(f"approve and pay: {pay_s:.2f} s (draw {draw.get_state_display()})")
        figures = {
            "lines": lines,
            "import_s": round(import_s, 3),
            "settle_s": round(settle_s, 3),
            "pay_s": round(pay_s, 3),
            "peak_mb": _peak_mb(),
            "import_vs_copy": round(import_s / copy_s, 2) if copy_s else None,
            "settle_vs_scan": round(settle_s / scan_s, 2) if scan_s else None,
            "copy_s": copy_s and round(copy_s, 3),
            "scan_s": round(scan_s, 3),
            "scan_workers": scan_workers,
            "settle_vs_serial_scan": round(settle_s / scan_serial_s, 2) if scan_serial_s else None,
        }
        self.stdout.write(json.dumps(figures))

    # -- pieces ------------------------------------------------------------------------------------

    def _staff(self):
        """Three different staff users with the roles the four-eyes steps need."""
        from django.contrib.auth.models import Group

        User = get_user_model()
        out = []
        for name, role in (("bench-enterer", roles.DRAW_SUPERVISOR), ("bench-confirmer", roles.DRAW_SUPERVISOR),
                           ("bench-approver", roles.COMPLIANCE_OFFICER)):
            user, _ = User.objects.get_or_create(username=name, defaults={"is_active": True})
            user.groups.add(Group.objects.get(name=role))
            out.append(user)
        return out

    def _checkpoint(self) -> None:
        """Start a timed write from a checkpoint (PostgreSQL): the bare COPY and the import each begin
        with the whole WAL budget (`max_wal_size`), so neither pays for a checkpoint the other's WAL
        brought on. CHECKPOINT needs a superuser or the pg_checkpoint role; without it the timings
        are taken as they come."""
        if connection.vendor != "postgresql":
            return
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("CHECKPOINT")
        except DatabaseError as exc:
            self.stderr.write(f"no CHECKPOINT before the timed writes ({str(exc).splitlines()[0]})")

    def _bare_copy(self, path: str) -> float:
        """COPY the same file into a plain table of its columns: the floor of any import."""
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_bare_copy")
            cursor.execute(
                "CREATE TABLE bench_bare_copy (ticket text, sold_at timestamptz, terminal text, n1 smallint,"
                " n2 smallint, n3 smallint, n4 smallint, n5 smallint, n6 smallint, n7 smallint, s1 smallint,"
                " s2 smallint, plus smallint, stake_cents integer, plus_cents integer)"
            )
        raw = connection.connection
        self._checkpoint()
        t = time.perf_counter()
        with raw.cursor() as cursor, open(path, "rb") as stream:
            with cursor.copy("COPY bench_bare_copy FROM STDIN (FORMAT csv, HEADER true)") as copy:
                while block := stream.read(1 << 20):
                    copy.write(block)
        elapsed = time.perf_counter() - t
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE bench_bare_copy")
        return elapsed

    def _bare_scan(self, draw: Draw, run) -> tuple[float, int, float | None]:
        """SELECT matches, count(*) ... GROUP BY over the same lines (after one untimed warm-up run), as
        the server plans it (its parallel workers planned are reported), and, for comparison only, the
        same query with parallel workers off (PostgreSQL)."""
        result = run.result
        sql = (f"SELECT {popcount_sql(f'main_mask & {int(result.main_mask)}', connection.vendor)} AS matches, "
               f"COUNT(*) FROM lottery_line WHERE draw_id = {int(draw.pk)} GROUP BY 1")
        workers, serial_s = 0, None
        with connection.cursor() as cursor:
            cursor.execute(sql)
            cursor.fetchall()
            t = time.perf_counter()
            cursor.execute(sql)
            cursor.fetchall()
            elapsed = time.perf_counter() - t
            if connection.vendor == "postgresql":
                cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
                plan = json.dumps(cursor.fetchone()[0])
                workers = max([int(x) for x in re.findall(r'"Workers Planned": (\d+)', plan)] or [0])
                with transaction.atomic():
                    cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
                    t = time.perf_counter()
                    cursor.execute(sql)
                    cursor.fetchall()
                    serial_s = time.perf_counter() - t
        return elapsed, workers, serial_s
