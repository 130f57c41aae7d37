"""HexaPro, the online room's three-player lottery Sit & Go: the JSON kind ``hexapro``
(docs/poker/tournaments.md).

003 §2.19 / §3.5: the prize pool is a multiplier drawn at registration (the draw is recorded by the
game system: it is an input here) times the buy-in; multipliers up to 10x pay the winner the whole
pool, 25x and above pay 80 / 12 / 8 %. There is no separate fee: the operator's margin is the
expected shortfall of the multiplier below 3 (6.853 %, Example 11), which this module also proves
from the published distribution.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..jsonio import KINDS
from ._prizes import LARGEST_REMAINDER, at, cents, check_keys, exact, frac, money, name, place_amounts

BUY_INS = (100, 200, 500, 1000, 2500, 5000, 10000)  # cents: EUR 1, 2, 5, 10, 25, 50, 100
#: multiplier -> chances in 100,000 (003 §2.19 Palkinnot, exact).
DISTRIBUTION: dict[Fraction, int] = {
    Fraction(1000): 1,
    Fraction(100): 5,
    Fraction(25): 100,
    Fraction(10): 4600,
    Fraction(5): 14000,
    Fraction(3): 25000,
    Fraction(3, 2): 56294,
}
#: blind level minutes by multiplier (003 §2.19 Blinditason aika; the table is authoritative, A-30).
LEVEL_MINUTES = {Fraction(3, 2): 1, Fraction(3): 2, Fraction(5): 3, Fraction(10): 3, Fraction(25): 4,
                 Fraction(100): 4, Fraction(1000): 4}
WINNER_TAKES_ALL_UP_TO = Fraction(10)
TOP_THREE = (Fraction(80, 100), Fraction(12, 100), Fraction(8, 100))
STARTING_STACK = 500
INPUT_KEYS = {"kind", "buy_in", "multiplier", "finishing_order"}


def ladder_fractions(multiplier: Fraction) -> tuple[Fraction, ...]:
    """The share of the pool for 1st, 2nd, 3rd (003 §2.19 Voitonmaksut)."""
    if multiplier <= WINNER_TAKES_ALL_UP_TO:
        return (Fraction(1), Fraction(0), Fraction(0))
    return TOP_THREE


def read_game(doc: Mapping[str, Any], where: str = "") -> tuple[int, Fraction, int]:
    """(buy-in cents, multiplier, prize pool cents), each checked against the published tables."""
    buy_in = cents(require(doc, "buy_in", where), at(where, "buy_in"), allow_zero=False)
    if buy_in not in BUY_INS:
        raise EngineError(at(where, "buy_in"), "HexaPro buy-ins are 1, 2, 5, 10, 25, 50 and 100 euros (003 §2.19)")
    raw = require(doc, "multiplier", where)
    try:
        multiplier = Fraction(str(raw).rstrip("xX")) if isinstance(raw, (str, int)) and not isinstance(raw, bool) \
            else None
    except (ValueError, ZeroDivisionError):
        multiplier = None
    if multiplier not in DISTRIBUTION:
        raise EngineError(at(where, "multiplier"), "one of the published multipliers 1.5, 3, 5, 10, 25, 100, 1000 "
                                           "(003 §2.19), as a string such as \"25\"")
    pool = buy_in * multiplier
    assert pool.denominator == 1  # every published pool is whole cents
    return buy_in, multiplier, int(pool)


def expected_multiplier() -> Fraction:
    return sum((m * n for m, n in DISTRIBUTION.items()), Fraction(0)) / sum(DISTRIBUTION.values())


def hexapro(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "hexapro")
    buy_in, multiplier, pool = read_game(doc)
    order = require(doc, "finishing_order", "")
    if not isinstance(order, list) or len(order) != 3:
        raise EngineError("finishing_order", "the three players, 1st place first (HexaPro is three-handed)")
    players = [name(p, f"finishing_order[{i}]") for i, p in enumerate(order)]
    if len(set(players)) != 3:
        raise EngineError("finishing_order", "three different players")
    fractions = ladder_fractions(multiplier)
    amounts, rounding_rule = place_amounts(pool, fractions, LARGEST_REMAINDER)
    payout_rule = ("003 §2.19 Voitonmaksut: multiplier at most 10x, the winner takes the whole pool"
                   if multiplier <= WINNER_TAKES_ALL_UP_TO else
                   "003 §2.19 Voitonmaksut: above 10x, 1st 80 %, 2nd 12 %, 3rd 8 %")
    em = expected_multiplier()
    return {
        "buy_in": money(buy_in),
        "multiplier": frac(multiplier) if multiplier.denominator == 1 else exact(multiplier, 1),
        "prize_pool": money(pool),
        "collected": money(3 * buy_in),
        "operator_result": money(3 * buy_in - pool),
        "payouts": [
            {"place": k + 1, "player": players[k], "amount": money(amounts[k]), "rule": payout_rule}
            for k in range(3)
        ],
        "level_minutes": LEVEL_MINUTES[multiplier],
        "starting_stack": STARTING_STACK,
        "expected_multiplier": exact(em, 5),
        "expected_rake": exact((1 - em / 3) * 100, 3) + " %",
        "rules": [
            f"003 §3.5: prize pool = {frac(multiplier) if multiplier.denominator == 1 else exact(multiplier, 1)}"
            f" x {money(buy_in)} (the multiplier drawn at registration)",
            rounding_rule,
            "003 §2.19 Blinditason aika (A-30): level time by multiplier; Aloituspino: 500 chips",
            "003 §3.5 step 5, Example 11: expected rake = 1 - E[multiplier] / 3",
            "003 §2.17 Rule 44, A-23: credited as cash when the game ends",
        ],
    }


KINDS["hexapro"] = hexapro
