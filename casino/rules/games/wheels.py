"""Money Wheel / Big Six: 000-casino G-3 (game halls) and C-2 (the casino) (docs/casino/wheels.md).

54 equal sectors; a bet names a symbol (``{"type": "symbol", "symbol": "20"}``) and wins at that
symbol's odds when the wheel stops on it. The rulebook gives only sector counts and odds (Ambiguity 22):
symbols are named by their odds ("1", "2", "5", "10", "20"), and the two 45:1 sectors are two symbols
of one sector each ("45A", "45B"; one symbol on two sectors at 45:1 would return 92/54 of the stake).

A spin is void when the wheel made fewer than ``min_revolutions`` (4) full revolutions, the pointer
stopped between two sectors, or an external factor influenced the draw (G-3, C-2): no win is paid and
the stakes are returned (Ambiguity 9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..base import Bet, BetResult, EngineError, lost, void, won
from ..fields import Field
from ._data import fmt_ratio, need, ratio, whole


def _sectors() -> list[dict[str, Any]]:
    return [{"symbol": s, "odds": o, "count": c} for s, o, c in (
        ("1", "1", 23), ("2", "2", 15), ("5", "5", 8), ("10", "10", 4), ("20", "20", 2),
        ("45A", "45", 1), ("45B", "45", 1))]


VARIANTS = {
    "game_hall": {"rule": "000-casino G-3", "sectors": _sectors(), "total_sectors": 54, "min_revolutions": 4},
    "casino": {"rule": "000-casino C-2", "sectors": _sectors(), "total_sectors": 54, "min_revolutions": 4},
}


def symbols(variant: Mapping[str, Any]) -> dict[str, tuple[Fraction, int]]:
    """symbol -> (odds, sectors); the counts must fill the wheel."""
    out: dict[str, tuple[Fraction, int]] = {}
    for i, s in enumerate(need(variant, "sectors")):
        where = f"rules.sectors[{i}]"
        name = need(s, "symbol", where)
        if not isinstance(name, str) or name in out:
            raise EngineError(f"{where}.symbol", "a symbol name, once")
        out[name] = (ratio(need(s, "odds", where), f"{where}.odds"), whole(need(s, "count", where),
                                                                          f"{where}.count", 1, 1000))
    total = whole(need(variant, "total_sectors"), "rules.total_sectors", 1, 1000)
    if sum(c for _, c in out.values()) != total:
        raise EngineError("rules.sectors", f"the sector counts must add up to {total}")
    return out


class MoneyWheel:
    rulebook = "000"
    game = "money_wheel"
    settles_bets_alone = True  # each bet on its own (base.TableGame; tests/casino/test_bet_alone.py)
    variants = VARIANTS
    outcome_fields = (
        Field("symbol", "choice", "Segment the wheel stopped on", choices=tuple(s["symbol"] for s in _sectors())),
        Field("revolutions", "number", "Full revolutions of the wheel"),
        Field("pointer_between_sectors", "flag", "The pointer stopped between two segments"),
        Field("external_interference", "flag", "An external factor influenced the spin"),
    )

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        table = symbols(variant)
        for bet in bets:
            if bet.type != "symbol":
                raise EngineError(f"{bet.where}.type", "\"symbol\" (a bet on one symbol of the wheel)")
            if set(bet.params) != {"symbol"}:
                extra = sorted(set(bet.params) - {"symbol"})
                raise EngineError(f"{bet.where}.{extra[0] if extra else 'symbol'}",
                                  "a symbol bet has one field, `symbol`" if extra else "is required")
            if bet.params["symbol"] not in table:
                raise EngineError(f"{bet.where}.symbol", f"{bet.params['symbol']!r} is not one of: "
                                                         f"{', '.join(table)}")

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "wheel_bet"

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rule = str(variant.get("rule", "000-casino money wheel"))
        table = symbols(variant)
        known = {"symbol", "revolutions", "pointer_between_sectors", "external_interference"}
        extra = set(outcome) - known
        if extra:
            raise EngineError(f"outcome.{sorted(extra)[0]}", f"is not an outcome field ({', '.join(sorted(known))})")
        if "revolutions" not in outcome:
            raise EngineError("outcome.revolutions", "is required: the full revolutions the wheel made")
        revs = whole(outcome["revolutions"], "outcome.revolutions", 0, 10_000)
        flags = {}
        for key in ("pointer_between_sectors", "external_interference"):
            flags[key] = outcome.get(key, False)
            if not isinstance(flags[key], bool):
                raise EngineError(f"outcome.{key}", "true or false")
        minimum = whole(need(variant, "min_revolutions"), "rules.min_revolutions", 1, 100)
        why = None
        if revs < minimum:
            why = f"the wheel made {revs} revolutions (at least {minimum})"
        elif flags["pointer_between_sectors"]:
            why = "the pointer stopped between two sectors"
        elif flags["external_interference"]:
            why = "an external factor influenced the draw"
        if why:
            return [void(b, f"{rule}: void spin, no win (Ambiguity 9: stakes returned)", note=why) for b in bets]
        symbol = outcome.get("symbol")
        if symbol not in table:
            raise EngineError("outcome.symbol", f"the symbol the wheel stopped on: one of {', '.join(table)}")
        out = []
        for bet in bets:
            odds = table[bet.params["symbol"]][0]
            label = f"{rule}: symbol {bet.params['symbol']} {fmt_ratio(odds)}"
            out.append(won(bet, odds, label) if bet.params["symbol"] == symbol else lost(bet, label))
        return out


ENGINES = [MoneyWheel()]


def house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """Edge of a bet on each symbol: 1 - count/total x (odds + 1), from the variant's sector table."""
    table = symbols(variant)
    total = sum(c for _, c in table.values())
    return {s: 1 - Fraction(c, total) * (odds + 1) for s, (odds, c) in table.items()}
