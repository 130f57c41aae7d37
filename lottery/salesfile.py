"""Retail sales files of random number-game lines, written as they are made (one shared writer for the
benchmark `bench_settlement` and the fault drill `fault_drill`)."""

from __future__ import annotations

import datetime as dt
import os
import random
import tempfile
from collections.abc import Iterable

from django.utils import timezone

HEADER = "ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents\n"


def write_sales_file(fmt, lines: int, rng: random.Random, draw, *, first: Iterable[tuple[list[int], int | None]] = (),
                     sold_at: dt.datetime | None = None) -> str:
    """A retail sales file of `lines` random lines in tickets of 1 to 8 lines, written as it is made;
    returns its path (the caller deletes it). `first`: lines (main numbers, plus number or None) put in
    tickets of their own before the random ones (e.g. a winner of every class)."""
    fd, path = tempfile.mkstemp(prefix=f"sales-{fmt.game}-", suffix=".csv")
    main_range = range(1, fmt.main_max + 1)
    sec_range = range(1, fmt.secondary_max + 1)
    sold = timezone.localtime(sold_at or draw.sales_open_at + dt.timedelta(hours=1)).isoformat()
    empty_main = "," * (7 - fmt.main_count)  # the unused n columns
    empty_sec = "," * (2 - fmt.secondary_count)  # the unused s columns
    with os.fdopen(fd, "w", buffering=1 << 20) as out:
        out.write(HEADER)
        ticket = 0
        for numbers, plus in first:
            ticket += 1
            tail = f"{plus},100,50" if plus is not None else ",100,0"
            out.write(f"F{draw.pk}-{ticket:09d},{sold},T0000,{','.join(map(str, numbers))}{empty_main},,,{tail}\n")
        ticket = left = 0
        sample, randint, rand = rng.sample, rng.randint, rng.random
        buf = []
        for _ in range(lines):
            if left == 0:
                ticket += 1
                left = randint(1, 8)
                prefix = f"B{draw.pk}-{ticket:09d},{sold},T{ticket % 997:04d},"
            left -= 1
            main = ",".join(map(str, sample(main_range, fmt.main_count))) + empty_main
            sec = ",".join(map(str, sample(sec_range, fmt.secondary_count))) + empty_sec if fmt.secondary_count else ","
            if fmt.plus_max and rand() < 0.5:
                tail = f"{randint(1, fmt.plus_max)},100,50"
            else:
                tail = ",100,0"
            buf.append(f"{prefix}{main},{sec},{tail}\n")
            if len(buf) >= 10000:
                out.write("".join(buf))
                buf = []
        out.write("".join(buf))
    return path
