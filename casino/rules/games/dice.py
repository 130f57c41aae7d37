"""Dice games (docs/casino/dice.md): Sic Bo (000-casino C-3), RAY Lucky Dice (002 §5.2) and the game
hall's Tuplanoppa (000-casino G-4, Ambiguity 2: rules and pay table only from its game instructions).

The outcome is the dice as thrown: Sic Bo ``{"dice": [4, 4, 2]}``, Lucky Dice ``{"red": 4, "green": 2}``
(the red die picks the group, the green die the square in it, LD-03), Tuplanoppa ``{"dice": [...]}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

from ..base import Bet, BetResult, EngineError, lost, void, won
from ..fields import REASON, VOID_FIELD, Field
from ._data import fmt_ratio, need, ratio, whole

# ------------------------------------------------------------------------------------------- Sic Bo

SIC_BO = {
    "casino": {
        "rule": "000-casino C-3",
        "small": {"odds": "1", "totals": [4, 10]},
        "big": {"odds": "1", "totals": [11, 17]},
        "small_big_lose_on_triple": True,  # L1250
        "single": ["1", "2", "12"],  # odds when one, two, three dice show the number
        "two_dice": "6",
        "double": "11",
        "any_triple": "30",
        "triple": "180",
        "total": {"4": "60", "5": "30", "6": "18", "7": "12", "8": "8", "9": "6", "10": "6",
                  "11": "6", "12": "6", "13": "8", "14": "12", "15": "18", "16": "30", "17": "60"},
    }
}
SIC_BO_PARAMS = {"small": set(), "big": set(), "single": {"number"}, "two_dice": {"numbers"},
                 "double": {"number"}, "any_triple": set(), "triple": {"number"}, "total": {"total"}}


def _die(value: Any, where: str) -> int:
    return whole(value, where, 1, 6)


def _params(bet: Bet, allowed: set[str]) -> None:
    extra = set(bet.params) - allowed
    if extra:
        raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"is not a field of a {bet.type} bet")
    for key in allowed:
        if key not in bet.params:
            raise EngineError(f"{bet.where}.{key}", "is required")


def _dice(outcome: Mapping[str, Any], count: int) -> list[int]:
    extra = set(outcome) - {"dice", "void", "reason"}
    if extra:
        raise EngineError(f"outcome.{sorted(extra)[0]}", "is not an outcome field (dice, void)")
    dice = outcome.get("dice")
    if not isinstance(dice, list) or len(dice) != count:
        raise EngineError("outcome.dice", f"the {count} dice as thrown, e.g. {[4, 4, 2][:count]}")
    return [_die(d, f"outcome.dice[{i}]") for i, d in enumerate(dice)]


#: The faces of a die, as a choice.
DIE = ("1", "2", "3", "4", "5", "6")


class SicBo:
    rulebook = "000"
    game = "sic_bo"
    settles_bets_alone = True  # each bet on its own (base.TableGame; tests/casino/test_bet_alone.py)
    outcome_fields = (Field("dice", "dice", "Dice", count=3), VOID_FIELD, REASON)
    variants = SIC_BO

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        for bet in bets:
            if bet.type not in SIC_BO_PARAMS:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(SIC_BO_PARAMS)}")
            _params(bet, SIC_BO_PARAMS[bet.type])
            if "number" in bet.params:
                _die(bet.params["number"], f"{bet.where}.number")
            if bet.type == "two_dice":
                nums = bet.params["numbers"]
                if not isinstance(nums, list) or len(nums) != 2:
                    raise EngineError(f"{bet.where}.numbers", "two different numbers, e.g. [2, 4]")
                a, b = (_die(n, f"{bet.where}.numbers[{i}]") for i, n in enumerate(nums))
                if a == b:
                    raise EngineError(f"{bet.where}.numbers", "two different numbers (a pair is a `double` bet)")
            if bet.type == "total" and str(bet.params["total"]) not in need(variant, "total"):
                raise EngineError(f"{bet.where}.total", f"one of {', '.join(need(variant, 'total'))}")

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "dice_bet"

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        if outcome.get("void") is True:
            return [void(b, f"{variant.get('rule', '000-casino C-3')}: void throw, stakes returned",
                         note=str(outcome.get("reason", ""))[:200]) for b in bets]
        dice = _dice(outcome, 3)
        return [self.settle_one(variant, b, dice) for b in bets]

    @staticmethod
    def settle_one(variant: Mapping[str, Any], bet: Bet, dice: list[int]) -> BetResult:
        rule = str(variant.get("rule", "000-casino C-3"))
        counts = Counter(dice)
        total = sum(dice)
        triple = len(counts) == 1
        t = bet.type
        if t in ("small", "big"):
            spec = need(variant, t)
            low, high = need(spec, "totals", f"rules.{t}")
            odds = ratio(need(spec, "odds", f"rules.{t}"), f"rules.{t}.odds")
            label = f"{rule}: {t.upper()} ({low}-{high}) {fmt_ratio(odds)}"
            if triple and need(variant, "small_big_lose_on_triple"):
                return lost(bet, f"{rule}: {t.upper()} loses on a triple")
            return won(bet, odds, label) if low <= total <= high else lost(bet, label)
        if t == "single":
            n = bet.params["number"]
            table = need(variant, "single")
            k = counts[n]
            if k == 0:
                return lost(bet, f"{rule}: single number {n}")
            odds = ratio(table[k - 1], f"rules.single[{k - 1}]")
            return won(bet, odds, f"{rule}: single number {n} on {k} dice {fmt_ratio(odds)}")
        if t == "two_dice":
            a, b = bet.params["numbers"]
            odds = ratio(need(variant, "two_dice"), "rules.two_dice")
            label = f"{rule}: two dice {min(a, b)}-{max(a, b)} {fmt_ratio(odds)}"
            return won(bet, odds, label) if counts[a] and counts[b] else lost(bet, label)
        if t == "double":
            n = bet.params["number"]
            odds = ratio(need(variant, "double"), "rules.double")
            label = f"{rule}: double {n}-{n} {fmt_ratio(odds)}"
            return won(bet, odds, label) if counts[n] >= 2 else lost(bet, label)
        if t == "any_triple":
            odds = ratio(need(variant, "any_triple"), "rules.any_triple")
            label = f"{rule}: any triple {fmt_ratio(odds)}"
            return won(bet, odds, label) if triple else lost(bet, label)
        if t == "triple":
            n = bet.params["number"]
            odds = ratio(need(variant, "triple"), "rules.triple")
            label = f"{rule}: triple {n}-{n}-{n} {fmt_ratio(odds)}"
            return won(bet, odds, label) if counts[n] == 3 else lost(bet, label)
        key = str(bet.params["total"])
        odds = ratio(need(variant, "total")[key], f"rules.total.{key}")
        label = f"{rule}: total {key} {fmt_ratio(odds)}"
        return won(bet, odds, label) if str(total) == key else lost(bet, label)


def sic_bo_bets(variant: Mapping[str, Any]) -> dict[str, Bet]:
    """One bet of 1.00 on every position of the layout, keyed like house_edge's answer."""
    from decimal import Decimal

    one = Decimal("1.00")
    bets = {"small": Bet(0, "small", one), "big": Bet(0, "big", one), "any_triple": Bet(0, "any_triple", one)}
    for n in range(1, 7):
        for t in ("single", "double", "triple"):
            bets[f"{t}_{n}"] = Bet(0, t, one, params={"number": n})
        for m in range(n + 1, 7):
            bets[f"two_dice_{n}_{m}"] = Bet(0, "two_dice", one, params={"numbers": [n, m]})
    for key in need(variant, "total"):
        bets[f"total_{key}"] = Bet(0, "total", one, params={"total": int(key)})
    return bets


def sic_bo_house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """Edge of every bet position by enumerating all 216 throws through the engine's own settlement."""
    edges = {}
    for name, bet in sic_bo_bets(variant).items():
        back = sum(Fraction(r.returned + r.winnings) for r in
                   (SicBo.settle_one(variant, bet, list(d)) for d in product(range(1, 7), repeat=3)))
        edges[name] = 1 - back / 216
    return edges


# --------------------------------------------------------------------------------------- Lucky Dice

LUCKY_DICE = {
    "ray": {
        "rule": "002 §5.2",
        "number_field": {"plein": "30", "cheval": "15", "transversal": "10", "carre": "7", "simple": "4"},
        # Which squares are adjacent (cheval ... simple) is not in the source (LD-04): the published
        # layout must list each type's legal positions as lists of [group, square].
        "positions": None,
        # "3 or [lost]" and "4 or [lost]": partners read as 11 and 10, multipliers lost (002 §8.2).
        "total": {"3": None, "11": None, "4": None, "10": None, "5": "7", "9": "7", "6": "5", "8": "5", "7": "4"},
        "all_pairs": "4",
        "under_7": "1",
        "over_7": "1",
    }
}
SQUARES = {"plein": 1, "cheval": 2, "transversal": 3, "carre": 4, "simple": 6}


class LuckyDice:
    rulebook = "002"
    game = "lucky_dice"
    settles_bets_alone = True  # each bet on its own (base.TableGame; tests/casino/test_bet_alone.py)
    outcome_fields = (
        Field("red", "choice", "Red die", choices=DIE),
        Field("green", "choice", "Green die", choices=DIE),
        VOID_FIELD,
        REASON,
    )
    variants = LUCKY_DICE

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        for bet in bets:
            self.covered(bet, variant)

    def covered(self, bet: Bet, variant: Mapping[str, Any]):
        """The squares (group, square) or the totals a bet wins on, and its odds."""
        w = bet.where
        t = bet.type
        if t in SQUARES:
            _params(bet, {"squares"})
            raw = bet.params["squares"]
            if not isinstance(raw, list) or len(raw) != SQUARES[t]:
                raise EngineError(f"{w}.squares", f"a {t} covers {SQUARES[t]} squares, each [group, square]")
            squares = []
            for i, sq in enumerate(raw):
                if not isinstance(sq, list) or len(sq) != 2:
                    raise EngineError(f"{w}.squares[{i}]", "[group, square], e.g. [4, 2]")
                squares.append((_die(sq[0], f"{w}.squares[{i}][0]"), _die(sq[1], f"{w}.squares[{i}][1]")))
            chosen = frozenset(squares)
            if len(chosen) != len(squares):
                raise EngineError(f"{w}.squares", "different squares")
            if t != "plein":
                legal = need(need(variant, "positions"), t, "rules.positions")
                legal_sets = {frozenset(tuple(s) for s in pos) for pos in legal}
                if chosen not in legal_sets:
                    raise EngineError(f"{w}.squares", f"not a {t} position of the published layout")
            odds = ratio(need(need(variant, "number_field"), t, "rules.number_field"), f"rules.number_field.{t}")
            return ("squares", chosen, odds, f"{t} {' '.join(f'{g}/{s}' for g, s in sorted(chosen))}")
        if t == "total":
            _params(bet, {"total"})
            key = str(bet.params["total"])
            table = need(variant, "total")
            if key not in table:
                raise EngineError(f"{w}.total", f"one of {', '.join(table)}")
            odds = ratio(need(table, key, "rules.total"), f"rules.total.{key}")
            return ("totals", {int(key)}, odds, f"total {key}")
        ranges = {"under_7": set(range(2, 7)), "over_7": set(range(8, 13))}
        if t in ("all_pairs", *ranges):
            _params(bet, set())
            odds = ratio(need(variant, t), f"rules.{t}")
            return ("pairs" if t == "all_pairs" else "totals", ranges.get(t), odds, t.replace("_", " "))
        raise EngineError(f"{w}.type", f"{t!r} is not one of: {', '.join([*SQUARES, 'total', 'all_pairs', *ranges])}")

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "dice_bet"

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rule = str(variant.get("rule", "002 §5.2"))
        extra = set(outcome) - {"red", "green", "void", "reason"}
        if extra:
            raise EngineError(f"outcome.{sorted(extra)[0]}", "is not an outcome field (red, green, void)")
        if outcome.get("void") is True:
            return [void(b, f"{rule}: invalid throw (LD-07), stakes returned",
                         note=str(outcome.get("reason", ""))[:200]) for b in bets]
        for key in ("red", "green"):
            if key not in outcome:
                raise EngineError(f"outcome.{key}", f"is required: the {key} die")
        red, green = _die(outcome["red"], "outcome.red"), _die(outcome["green"], "outcome.green")
        return [self.settle_one(variant, b, red, green, rule) for b in bets]

    def settle_one(self, variant, bet: Bet, red: int, green: int, rule: str = "002 §5.2") -> BetResult:
        kind, cover, odds, label = self.covered(bet, variant)
        hit = {"squares": (red, green) in (cover or ()), "totals": red + green in (cover or ()),
               "pairs": red == green}[kind]
        text = f"{rule}: {label} {fmt_ratio(odds)}"
        return won(bet, odds, text) if hit else lost(bet, text)


def lucky_dice_house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """Edge of each bet whose odds the variant has, over the 36 throws (plein per square; the
    number-field bets of more squares need the published layout, lost bets are left out)."""
    from decimal import Decimal

    engine = LuckyDice()
    one = Decimal("1.00")
    bets = {"plein": Bet(0, "plein", one, params={"squares": [[1, 1]]}),
            "all_pairs": Bet(0, "all_pairs", one), "under_7": Bet(0, "under_7", one),
            "over_7": Bet(0, "over_7", one)}
    for key, value in need(variant, "total").items():
        if value is not None:
            bets[f"total_{key}"] = Bet(0, "total", one, params={"total": int(key)})
    for t in ("cheval", "transversal", "carre", "simple"):
        positions = (variant.get("positions") or {}).get(t)
        if positions:
            bets[t] = Bet(0, t, one, params={"squares": [list(s) for s in positions[0]]})
    edges = {}
    for name, bet in bets.items():
        back = sum(Fraction(r.returned + r.winnings) for r in
                   (engine.settle_one(variant, bet, a, b) for a, b in product(range(1, 7), repeat=2)))
        edges[name] = 1 - back / 36
    return edges


# ---------------------------------------------------------------------------------------- Tuplanoppa

TUPLANOPPA = {
    "game_hall": {
        "rule": "000-casino G-4",
        # Ambiguity 2: the source has the heading only. Both must come from the posted game
        # instructions: how many dice, and per bet its odds and the throws (dice sorted) that win.
        "dice": None,
        "paytable": None,
    }
}


class Tuplanoppa:
    rulebook = "000"
    game = "tuplanoppa"
    settles_bets_alone = True  # each bet on its own (base.TableGame; tests/casino/test_bet_alone.py)
    outcome_fields = (Field("dice", "dice", "Dice", count=3), VOID_FIELD)
    variants = TUPLANOPPA

    @staticmethod
    def table(variant: Mapping[str, Any]) -> tuple[int, dict[str, tuple[Fraction, set[tuple[int, ...]]]]]:
        dice = whole(need(variant, "dice"), "rules.dice", 1, 5)
        paytable = need(variant, "paytable")
        if not isinstance(paytable, Mapping) or not paytable:
            raise EngineError("rules.paytable", "an object: bet name -> {odds, wins}")
        out = {}
        for name, spec in paytable.items():
            where = f"rules.paytable.{name}"
            odds = ratio(need(spec, "odds", where), f"{where}.odds")
            wins = set()
            for i, throw in enumerate(need(spec, "wins", where)):
                if not isinstance(throw, list) or len(throw) != dice:
                    raise EngineError(f"{where}.wins[{i}]", f"a throw of {dice} dice")
                wins.add(tuple(sorted(_die(d, f"{where}.wins[{i}]") for d in throw)))
            out[name] = (odds, wins)
        return dice, out

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        _, table = self.table(variant)
        for bet in bets:
            if bet.type not in table:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(table)}")
            _params(bet, set())

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "dice_bet"

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rule = str(variant.get("rule", "000-casino G-4"))
        count, table = self.table(variant)
        if outcome.get("void") is True:
            return [void(b, f"{rule}: void throw, stakes returned") for b in bets]
        throw = tuple(sorted(_dice(outcome, count)))
        out = []
        for bet in bets:
            odds, wins = table[bet.type]
            text = f"{rule} (posted game instructions): {bet.type} {fmt_ratio(odds)}"
            out.append(won(bet, odds, text) if throw in wins else lost(bet, text))
        return out


def tuplanoppa_house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    count, table = Tuplanoppa.table(variant)
    total = 6 ** count
    return {name: 1 - Fraction(sum(1 for d in product(range(1, 7), repeat=count) if tuple(sorted(d)) in wins),
                               total) * (odds + 1)
            for name, (odds, wins) in table.items()}


ENGINES = [SicBo(), LuckyDice(), Tuplanoppa()]


def house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """The house edge of each bet of a dice variant (Sic Bo, Lucky Dice or Tuplanoppa), by enumeration."""
    if "small" in variant:
        return sic_bo_house_edge(variant)
    if "number_field" in variant:
        return lucky_dice_house_edge(variant)
    return tuplanoppa_house_edge(variant)
