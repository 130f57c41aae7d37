"""Helpers for the draw pipeline tests: lines without the import, sales files, a whole round."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable

from django.utils import timezone

from lottery.models import RETAIL, Line, Wager
from lottery.rules.bitmask import picks_to_mask

HEADER = "ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents\n"


def add_line(draw, numbers: Iterable[int], *, secondary: Iterable[int] = (), plus: int | None = None,
             stake_cents: int = 100, addon_cents: int | None = None, reference: str | None = None) -> Line:
    """One wager with one line, written directly (the import is tested on its own)."""
    addon = addon_cents if addon_cents is not None else (50 if plus is not None else 0)
    wager = Wager.objects.create(
        channel=RETAIL, reference=reference or f"T{Wager.objects.count() + 1:08d}-{random.getrandbits(32):x}",
        draw=draw, sold_at=draw.sales_open_at, accepted_at=timezone.now(), stake_cents=stake_cents + addon,
        line_count=1,
    )
    return Line.objects.create(draw=draw, wager=wager, main_mask=picks_to_mask(numbers),
                               extra_mask=picks_to_mask(secondary), plus=plus, stake_cents=stake_cents,
                               addon_cents=addon)


def add_random_lines(draw, count: int, *, seed: int = 7, main=(7, 40), secondary=(0, 0), plus_max: int | None = 30,
                     per_wager: int = 3) -> None:
    """`count` random lines in wagers of up to `per_wager` lines, written in bulk."""
    rng = random.Random(seed)
    now = timezone.now()
    made = 0
    n = 0
    while made < count:
        n += 1
        k = min(per_wager, count - made)
        wager = Wager.objects.create(channel=RETAIL, reference=f"R{draw.pk}-{seed}-{n:07d}", draw=draw,
                                     sold_at=draw.sales_open_at, accepted_at=now, stake_cents=1, line_count=k)
        lines = []
        for _ in range(k):
            plus = rng.randint(1, plus_max) if plus_max and rng.random() < 0.5 else None
            lines.append(Line(draw=draw, wager=wager, main_mask=picks_to_mask(rng.sample(range(1, main[1] + 1), main[0])),
                              extra_mask=picks_to_mask(rng.sample(range(1, secondary[1] + 1), secondary[0])) if secondary[0] else 0,
                              plus=plus, stake_cents=100, addon_cents=50 if plus else 0))
        Line.objects.bulk_create(lines)
        Wager.objects.filter(pk=wager.pk).update(stake_cents=sum(x.stake_cents + x.addon_cents for x in lines))
        made += k


def sales_file(rows: Iterable[str], header: str = HEADER) -> io.BytesIO:
    return io.BytesIO((header + "".join(r if r.endswith("\n") else r + "\n" for r in rows)).encode())


def lotto_row(ticket: str, sold_at, numbers=(1, 2, 3, 4, 5, 6, 7), plus: int | None = None, stake: int = 100,
              terminal: str = "T0001") -> str:
    nums = ",".join(str(n) for n in numbers)
    plus_text = "" if plus is None else str(plus)
    plus_cents = "50" if plus is not None else "0"
    return f"{ticket},{timezone.localtime(sold_at).isoformat()},{terminal},{nums},,,{plus_text},{stake},{plus_cents}"
