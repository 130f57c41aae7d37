"""Demo draws for `manage.py seed_demo`: a settled and paid Lotto round, one awaiting its result, one
open for sales with its Jokeri add-on draw (retail Jokeri sales), an open Eurojackpot round and an
open Keno round with retail sales. Idempotent (skips existing draws)."""

from __future__ import annotations

import datetime as dt
import io
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from .games import registry
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
    """Retail sales of a draw in its game's retail file: random tickets of 1-6 lines, each line the
    game's own demo row (`GameCodec.demo_row`)."""
    rng = random.Random(seed)
    codec = registry.get(draw.game.code).codec
    header = codec.retail_header()
    sold = timezone.localtime(draw.sales_open_at + dt.timedelta(hours=3)).isoformat()
    out = [",".join(header)]
    ticket = left = 0
    for _ in range(lines):
        if left == 0:
            ticket += 1
            left = rng.randint(1, 6)
        left -= 1
        row = {"ticket": f"DEMO-{draw.game.code}-{draw.number}-{ticket:05d}", "sold_at": sold,
               "terminal": f"SHOP{ticket % 40:02d}", **codec.demo_row(rng, draw.ruleset.params)}
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
                             sales_close_at=close, draw_at=close + dt.timedelta(minutes=45), jackpot_cents=jackpot,
                             now=min(now, close - dt.timedelta(days=6)))  # planned before its sales opened
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
        retail_import(actor=users["operator"], draw=jokeri, stream=_sales_file(jokeri, 300, 4),
                      file_name="demo-jokeri-1003.csv")
    keno, new = schedule("keno", 2001, today + dt.timedelta(days=1))
    if new:
        close_due_draws(actor=ACTOR)
        retail_import(actor=users["operator"], draw=keno, stream=_sales_file(keno, 800, 3),
                      file_name="demo-keno-2001.csv")
    schedule("eurojackpot", 501, today + dt.timedelta(days=3))
    close_due_draws(actor=ACTOR)
    if stdout is not None and made:
        stdout.write("Demo draws: " + ", ".join(made))
