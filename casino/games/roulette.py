"""Roulette (000-casino C, 002 RAY, 004 Ch.1): the wheel is drawn anew for every sampled round."""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _

from .spec import TableGameSpec, documented_sampler

INSIDE = (("straight", 1), ("split", 2), ("corner", 4))
OUTSIDE = ("red", "black", "even", "odd", "low", "high")


def _vary(doc: dict, rng: random.Random) -> None:
    """A fresh spin and a fresh layout of simple bets (straight, split, corner, even chances)."""
    if doc["frame"] == "billionaire":  # the American wheel's calls keep their documented numbers
        return
    number = rng.randint(0, 36)
    bets = []
    for _i in range(rng.randint(1, 4)):
        kind = rng.random()
        stake = rng.choice(("5.00", "10.00", "20.00")) if doc["frame"] != "game_hall" else rng.choice(("1.00", "2.00", "5.00"))
        if kind < 0.4:
            bets.append({"type": "straight", "numbers": [rng.randint(0, 36)], "stake": stake})
        elif kind < 0.55:
            first = rng.randint(1, 35)
            bets.append({"type": "split", "numbers": [first, first + 1] if first % 3 else [first, first + 3],
                         "stake": stake})
        else:
            bets.append({"type": rng.choice(OUTSIDE), "stake": stake})
    for box, bet in enumerate(bets, start=1):
        bet["box"] = box
    doc["bets"], doc["outcome"] = bets, {**doc["outcome"], "number": number}


SPEC = TableGameSpec(code="roulette", name=_("Roulette"), rules_kind="casino.table_rules", codecs=("round",),
                     engines=("roulette",), mix_percent=40, sampler=documented_sampler("roulette", _vary))
