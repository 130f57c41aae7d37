"""Benchmark of the draw payout report's rendering: time, pages and peak memory (PDF + CSV).

Run it on a database of its own:
    python manage.py bench_draw_report --winners 10000 [--layout table|listing]
builds a Lotto draw with exactly N winners once, through the real services (a retail sales file
imported by `retail_import`, the result entered and confirmed by two users, the real settlement task,
the payout approved by a third user and the payout job), then renders its payout report. `--layout
table` forces WeasyPrint tables (40 winners a table) whatever the number of winners, `listing` the
fixed-width listing; the default picks as the reports do. A second run finds the draw made by the
first and measures the rendering alone (the peak memory is the process's, so the first run's
includes building the draw). The last line printed is JSON. compliance's `bench_report` measures
the audit extract the same way (compliance.reports.bench).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import tempfile
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from compliance.reports.bench import LAYOUTS, measure_render
from compliance.roles import DRAW_SUPERVISOR
from lottery import services
from lottery.models import Draw, DrawState, Game, RetailImport, RunState
from lottery.reports import DRAW_PAYOUT
from lottery.services.retail import retail_import
from lottery.tasks import pay_draw, settle_run

ACTOR = "system:bench_report"
# The draw's result; the winning lines are made around it (Lotto: 7 of 40, additional, plus 1-30).
RESULT = {"numbers": [3, 8, 14, 22, 27, 33, 40], "additional": 12, "plus": 7}
# Winners per class, as shares of N: class 1 (7 correct) once, the rest as in a real round, roughly.
SHARES = (("1", 0.0), ("2", 0.0005), ("3", 0.002), ("4", 0.04), ("5", 0.3))  # class 6 (3 + 1) takes the rest


class Command(BaseCommand):
    help = "Render the payout report of a draw with N winners; print seconds, pages, peak memory."

    def add_arguments(self, parser):
        parser.add_argument("--winners", type=int, default=10_000, help="winners of the draw")
        parser.add_argument("--layout", choices=LAYOUTS, default="auto")
        parser.add_argument("--language", default="en")

    def handle(self, *args, winners: int, layout: str, language: str, **options):
        if winners < 1:
            raise CommandError("--winners must be at least 1")
        draw = self._payout_draw(winners)
        params = DRAW_PAYOUT.prepare({"draw": draw.pk})
        self.stdout.write(json.dumps(measure_render(DRAW_PAYOUT.key, params, layout=layout, language=language)))

    def _payout_draw(self, winners: int):
        """A settled, approved and paid Lotto draw with exactly `winners` winners (made once)."""
        file_name = f"bench-report-{winners}-winners.csv"
        done = (RetailImport.objects.filter(file_name=file_name, state=RetailImport.State.DONE,
                                            draw__state__in=[DrawState.APPROVED, DrawState.PAID])
                .select_related("draw").order_by("-pk").first())
        if done is not None:
            self.stderr.write(f"using {done.draw} (id {done.draw_id}), made by an earlier run")
            return done.draw
        lotto = Game.objects.get(code="lotto")
        blocking = Draw.objects.filter(game=lotto).exclude(
            state__in=[DrawState.SETTLED, DrawState.APPROVED, DrawState.PAID, DrawState.CANCELLED])
        if blocking.exists():
            raise CommandError(f"Lotto has unsettled draws in this database ({', '.join(map(str, blocking[:5]))}); "
                               "run the benchmark on a database of its own.")
        enterer, confirmer, approver = self._staff()
        t0 = time.perf_counter()
        now = timezone.now()
        number = (Draw.objects.filter(game=lotto).order_by("-number").values_list("number", flat=True).first() or 0) + 1
        draw = services.draw_schedule(
            actor=ACTOR, game=lotto, number=number, sales_open_at=now - dt.timedelta(days=2),
            sales_close_at=now - dt.timedelta(hours=1), draw_at=now - dt.timedelta(minutes=30),
            jackpot_cents=1_000_000_00, now=now - dt.timedelta(days=2),  # planned before its sales opened
        )
        services.close_due_draws(actor=ACTOR)  # opens and closes it: its sales period is over
        path = self._sales_file(draw, winners)
        try:
            with open(path, "rb") as stream:
                record = retail_import(actor=ACTOR, draw=draw, stream=stream, file_name=file_name)
        finally:
            os.unlink(path)
        if record.state != RetailImport.State.DONE:
            raise CommandError(f"import refused: {record.errors[:3]}")
        services.result_enter(actor=enterer, draw=draw, numbers=RESULT, draw_method="system", witnesses="benchmark")
        services.result_confirm(actor=confirmer, draw=draw)
        run = draw.settlement_runs.order_by("-version").first()
        settle_run.apply(args=[run.pk]).get()  # nothing to do if the eager after-commit task already settled it
        run.refresh_from_db()
        if run.state != RunState.SETTLED or run.winners_count != winners:
            raise CommandError(f"settlement: {run.state} with {run.winners_count} winners {run.error}")
        services.settlement_approve(actor=approver, draw=draw)
        pay_draw.apply(args=[draw.pk]).get()
        self.stderr.write(f"built {draw} (id {draw.pk}): {record.lines} lines, {winners} winners, "
                          f"{time.perf_counter() - t0:.1f} s")
        return Draw.objects.get(pk=draw.pk)

    def _staff(self):
        """Three Draw supervisors: the result's enterer and confirmer, and the payout's approver."""
        User = get_user_model()
        group = Group.objects.get(name=DRAW_SUPERVISOR)
        out = []
        for name, first, last in (("bench-report-enterer", "Eero", "Syöttäjä"),
                                  ("bench-report-confirmer", "Kaisa", "Vahvistaja"),
                                  ("bench-report-approver", "Aarne", "Hyväksyjä")):
            user, _ = User.objects.get_or_create(username=name, defaults={"first_name": first, "last_name": last})
            user.groups.add(group)
            out.append(user)
        return out

    def _sales_file(self, draw, winners: int) -> str:
        """`winners` winning lines spread over the classes (every tenth a Plussa line with the right plus
        number: boosted) and as many losing lines (two correct at most, never the right plus number), in
        tickets of up to four lines."""
        rng = random.Random(winners)
        drawn = RESULT["numbers"]
        additional, plus = RESULT["additional"], RESULT["plus"]
        others = [n for n in range(1, 41) if n not in drawn and n != additional]
        plan = [("1", 7, False)]
        for cls, share in SHARES[1:]:
            hits, with_additional = {"2": (6, True), "3": (6, False), "4": (5, False), "5": (4, False)}[cls]
            plan += [(cls, hits, with_additional)] * max(1, int(winners * share))
        plan = (plan + [("6", 3, True)] * winners)[:winners]
        lines = []
        for i, (_cls, hits, with_additional) in enumerate(plan):
            numbers = rng.sample(drawn, hits) + ([additional] if with_additional else [])
            numbers += rng.sample(others, 7 - len(numbers))
            line_plus = plus if i % 10 == 0 else (rng.choice([n for n in range(1, 31) if n != plus]) if i % 2 else None)
            lines.append((numbers, line_plus))
        for i in range(winners):
            numbers = rng.sample(drawn, 2) + rng.sample(others, 5)
            lines.append((numbers, rng.choice([n for n in range(1, 31) if n != plus]) if i % 2 else None))
        rng.shuffle(lines)
        sold = timezone.localtime(draw.sales_open_at + dt.timedelta(hours=1)).isoformat()
        fd, path = tempfile.mkstemp(prefix="bench-report-", suffix=".csv")
        with os.fdopen(fd, "w") as out:
            out.write("ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents\n")
            for i, (numbers, line_plus) in enumerate(lines):
                ticket = f"BR{draw.pk}-{i // 4:08d}"
                tail = f"{line_plus},100,50" if line_plus else ",100,0"
                out.write(f"{ticket},{sold},T{i // 4 % 97:04d},{','.join(map(str, numbers))},,,{tail}\n")
        return path
