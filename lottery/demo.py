"""Demo draws for `manage.py seed_demo`: a settled and paid Lotto round, one awaiting its result, one
open for sales with its Jokeri add-on draw (retail Jokeri sales), an open Eurojackpot round and an
open Keno round with retail sales. Idempotent (skips existing draws)."""

from __future__ import annotations

import datetime as dt
import io
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from .formats import line_format
from .games import retail_header
from .models import Draw, Game
from .services import (
    close_due_draws,
    draw_schedule,
    pay_draw,
    result_confirm,
    result_enter,
    settlement_approve,
)
from .services import settlement as settlement_service
from .services.retail import retail_import

ACTOR = "system:seed_demo"


def _sales_file(draw, lines: int, seed: int) -> io.BytesIO:
    rng = random.Random(seed)
    fmt = line_format(draw.game.code, draw.ruleset.params)
    sold = timezone.localtime(draw.sales_open_at + dt.timedelta(hours=3)).isoformat()
    out = ["ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents"]
    ticket = left = 0
    for _ in range(lines):
        if left == 0:
            ticket += 1
            left = rng.randint(1, 6)
        left -= 1
        main = [str(n) for n in rng.sample(range(1, fmt.main_max + 1), fmt.main_count)] + [""] * (7 - fmt.main_count)
        sec = [str(n) for n in rng.sample(range(1, fmt.secondary_max + 1), fmt.secondary_count)] if fmt.secondary_count else []
        sec += [""] * (2 - len(sec))
        plus = str(rng.randint(1, fmt.plus_max)) if fmt.plus_max and rng.random() < 0.4 else ""
        out.append(",".join([f"DEMO-{draw.game.code}-{draw.number}-{ticket:05d}", sold, f"SHOP{ticket % 40:02d}",
                             *main, *sec, plus, "250" if fmt.game == "eurojackpot" else "100", "50" if plus else "0"]))
    return io.BytesIO(("\n".join(out) + "\n").encode())


def _game_sales_file(draw, lines: int, seed: int) -> io.BytesIO:
    """Retail sales of a Keno or Jokeri draw (lottery.games columns): random tickets of 1-4 lines,
    a third of them with the add-on (Kunkku, Tuplaus)."""
    rng = random.Random(seed)
    header = retail_header(draw.game.code)
    sold = timezone.localtime(draw.sales_open_at + dt.timedelta(hours=2)).isoformat()
    out = [",".join(header)]
    ticket = left = 0
    for _ in range(lines):
        if left == 0:
            ticket += 1
            left = rng.randint(1, 4)
        left -= 1
        row = {"ticket": f"DEMO-{draw.game.code}-{draw.number}-{ticket:05d}", "sold_at": sold,
               "terminal": f"SHOP{ticket % 40:02d}", "stake_cents": rng.choice([100, 200, 500])}
        addon = rng.random() < 1 / 3
        if draw.game.code == "keno":
            for i, n in enumerate(sorted(rng.sample(range(1, 71), rng.randint(2, 11))), start=1):
                row[f"n{i}"] = n
            row["kunkku"] = 1 if addon else ""
        else:
            row["digits"] = "".join(str(rng.randint(0, 9)) for _ in range(7))
            if addon:
                row["tuplaus_position"], row["tuplaus_digit"] = rng.randint(1, 7), rng.randint(0, 9)
        row["addon_cents"] = 100 if addon else 0
        out.append(",".join(str(row.get(column, "")) for column in header))
    return io.BytesIO(("\n".join(out) + "\n").encode())


def seed(stdout=None) -> None:
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["operator", "supervisor", "supervisor2"])}
    if len(users) < 3:
        return
    now = timezone.now()
    today = timezone.localtime(now).replace(hour=22, minute=0, second=0, microsecond=0)
    made = []

    def schedule(code: str, number: int, close: dt.datetime, jackpot: int | None = None):
        game = Game.objects.get(code=code)
        existing = Draw.objects.filter(game=game, number=number).first()
        if existing:
            return existing, False
        draw = draw_schedule(actor=ACTOR, game=game, number=number, sales_open_at=close - dt.timedelta(days=6),
                             sales_close_at=close, draw_at=close + dt.timedelta(minutes=45), jackpot_cents=jackpot)
        made.append(str(draw))
        return draw, True

    settled, new = schedule("lotto", 1001, today - dt.timedelta(days=7), jackpot=1_000_000_00)
    if new:
        close_due_draws(actor=ACTOR)
        retail_import(actor=users["operator"], draw=settled, stream=_sales_file(settled, 3000, 1), file_name="demo-1001.csv")
        result_enter(actor=users["operator"], draw=settled, numbers={"numbers": [3, 9, 14, 21, 27, 33, 38],
                     "additional": 11, "plus": 7}, draw_method="device", witnesses="Notary A. Laine")
        queued: list = []
        real = settlement_service.enqueue
        settlement_service.enqueue = queued.append
        try:
            result_confirm(actor=users["supervisor"], draw=settled)
        finally:
            settlement_service.enqueue = real
        settlement_service.run_settlement(queued[0].pk)
        settlement_approve(actor=users["supervisor2"], draw=Draw.objects.get(pk=settled.pk))
        pay_draw(settled)
    waiting, new = schedule("lotto", 1002, today - dt.timedelta(days=1), jackpot=1_500_000_00)
    if new:
        close_due_draws(actor=ACTOR)
        retail_import(actor=users["operator"], draw=waiting, stream=_sales_file(waiting, 2000, 2), file_name="demo-1002.csv")
    schedule("lotto", 1003, today + dt.timedelta(days=5), jackpot=2_000_000_00)
    jokeri, new = schedule("jokeri", 1003, today + dt.timedelta(days=5), jackpot=100_000_00)  # linked to Lotto 1003
    if new:
        close_due_draws(actor=ACTOR)
        retail_import(actor=users["operator"], draw=jokeri, stream=_game_sales_file(jokeri, 300, 4),
                      file_name="demo-jokeri-1003.csv")
    keno, new = schedule("keno", 2001, today + dt.timedelta(days=1))
    if new:
        close_due_draws(actor=ACTOR)
        retail_import(actor=users["operator"], draw=keno, stream=_game_sales_file(keno, 800, 3),
                      file_name="demo-keno-2001.csv")
    schedule("eurojackpot", 501, today + dt.timedelta(days=3))
    close_due_draws(actor=ACTOR)
    if stdout is not None and made:
        stdout.write("Demo draws: " + ", ".join(made))
