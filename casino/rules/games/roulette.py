"""Roulette of the three rulebooks (docs/casino/roulette.md).

* 000-casino G-1 / G-2: game halls, payout versions A and B (B: payout table 1 or 2 drawn each round,
  ``outcome.payout_table``); C-1: the casino, single zero or 0/00, even chances on zero with half-back
  (la partage), en prison, both (the player chooses) or neither (the "alternative version").
* 002 §5.1: RAY roulette (30:1 ... 1:1, no half-back).
* 004 §4.1: Billionaire's "American" roulette (single zero, 004 A1) with its call bets.

A bet names its numbers (``"numbers": [17, 20]``; ``"00"`` for double zero) and they must be a legal
position of the layout of the wheel in use. Outside bets name their field (``"dozen": 2``,
``"column": 3``, ``"quarter": 1``) or are one of the even chances (``red`` ... ``high``).

**En prison, chained.** The bet carries its prison state: ``"prison": 1`` is a stake imprisoned by one
zero, ``"prison": 2`` by two zeros in a row. Each spin is its own round; an imprisoned result says which
state to give the bet in the next spin. Level 1: a win releases the stake (no winnings), a loss or a
third zero... (level 2) loses it. Level 2: a win moves it to level 1, a loss or a zero loses it
(000-casino C-1, examples 1 and 2). When half-back and en prison are both in use the player's choice is
the bet's ``"zero_choice"``: ``"prison"`` or ``"half_back"`` (first zero), ``"prison"`` or
``"quarter_back"`` (second zero).

**Call bets** (004 Ch.1 §1.3.2) are expanded into their component chips (unit = stake / chips), each
settled at its own odds; each component's stake is limited by its own class (``valid_stake``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from ..base import (
    HALF_BACK,
    IMPRISONED,
    LOST,
    PUSH,
    WON,
    ZERO,
    Bet,
    BetResult,
    EngineError,
    lost,
    to_cents_down,
    void,
    won,
)
from ..fields import REASON, VOID_FIELD, Field
from ._data import fmt_ratio, need, ratio

DZ = -1  # double zero, internally

#: Standard single-zero wheel order (004 Appendix, A2) and red numbers.
SINGLE_ZERO_ORDER = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33,
                     1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]
RED = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]

INSIDE = {"straight": 1, "split": 2, "street": 3, "trio": 3, "corner": 4, "first_four": 4,
          "five_number": 5, "six_line": 6}
EVEN_CHANCES = ("red", "black", "even", "odd", "low", "high")
FIELDS = {"dozen": 3, "column": 3, "quarter": 4}  # param name = bet type, how many there are
OUTSIDE = (*FIELDS, *EVEN_CHANCES)
CALL_ALIASES = {"voisins_du_zero": "big_series", "voisins": "big_series", "tiers": "small_series",
                "tiers_du_cylindre": "small_series", "jeu_zero": "zero_spiel"}
LABELS = {"straight": "straight up", "split": "split", "street": "street", "trio": "trio (street with zero)",
          "corner": "corner", "first_four": "first four", "five_number": "five numbers", "six_line": "six line",
          "dozen": "dozen", "column": "column", "quarter": "quarter", "even_chance": "even chance"}


# ------------------------------------------------------------------------------------------ layout


def show(n: int) -> str:
    return "00" if n == DZ else str(n)


def pockets(wheel: str) -> list[int]:
    return [0, *([DZ] if wheel == "double_zero" else []), *range(1, 37)]


@cache
def positions(wheel: str) -> dict[str, frozenset[frozenset[int]]]:
    """Every legal inside position of the layout, by the number of numbers it covers (read-only)."""
    pos: dict[str, set[frozenset[int]]] = {k: set() for k in ("1", "2", "3", "4", "5", "6")}
    for n in pockets(wheel):
        pos["1"].add(frozenset([n]))
    for n in range(1, 37):
        if n % 3 != 0:
            pos["2"].add(frozenset([n, n + 1]))
        if n <= 33:
            pos["2"].add(frozenset([n, n + 3]))
        if n % 3 == 1:
            pos["3"].add(frozenset([n, n + 1, n + 2]))
            if n <= 31:
                pos["6"].add(frozenset(range(n, n + 6)))
        if n % 3 != 0 and n <= 32:
            pos["4"].add(frozenset([n, n + 1, n + 3, n + 4]))
    if wheel == "double_zero":
        pos["2"] |= {frozenset(s) for s in ([0, 1], [0, 2], [0, DZ], [DZ, 2], [DZ, 3])}
        pos["3"] |= {frozenset(s) for s in ([0, 1, 2], [0, DZ, 2], [DZ, 2, 3])}
        pos["5"].add(frozenset([0, DZ, 1, 2, 3]))
    else:
        pos["2"] |= {frozenset(s) for s in ([0, 1], [0, 2], [0, 3])}
        pos["3"] |= {frozenset(s) for s in ([0, 1, 2], [0, 2, 3])}
        pos["4"].add(frozenset([0, 1, 2, 3]))
    return {k: frozenset(v) for k, v in pos.items()}


def field_numbers(kind: str, value: int | None) -> frozenset[int]:
    if kind == "dozen":
        return frozenset(range(12 * value - 11, 12 * value + 1))
    if kind == "column":
        return frozenset(range(value, 37, 3))
    if kind == "quarter":  # 1-9, 10-18, 19-27, 28-36 (000-casino C-1 "quarters (9 numbers)")
        return frozenset(range(9 * value - 8, 9 * value + 1))
    return {
        "red": frozenset(RED),
        "black": frozenset(set(range(1, 37)) - set(RED)),
        "even": frozenset(range(2, 37, 2)),
        "odd": frozenset(range(1, 37, 2)),
        "low": frozenset(range(1, 19)),
        "high": frozenset(range(19, 37)),
    }[kind]


def parse_number(value: Any, wheel: str, where: str) -> int:
    if value == "00" and wheel == "double_zero":
        return DZ
    if isinstance(value, str) and value.isdigit() and value != "00":
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 36:
        allowed = "0, 00, 1-36" if wheel == "double_zero" else "0-36"
        raise EngineError(where, f"{value!r} is not a number of this wheel ({allowed})")
    return value


# -------------------------------------------------------------------------------------- variant data


def _table(n1, n2, n3, n4, n6, dozen, even, *, n5=None, quarter=None, first_four=None) -> dict[str, str]:
    t = {"straight": n1, "split": n2, "street": n3, "corner": n4, "six_line": n6, "dozen": dozen,
         "column": dozen, "even_chance": even}
    for key, value in (("five_number", n5), ("quarter", quarter), ("first_four", first_four)):
        if value is not None:
            t[key] = value
    return t


def _casino(wheel: str, half_back: bool, en_prison: bool) -> dict[str, Any]:
    return {
        "rule": "000-casino C-1",
        "wheel": wheel,
        "payouts": _table("35", "17", "11", "8", "5", "2", "1", quarter="3",
                          n5="6" if wheel == "double_zero" else None),
        "zero_rule": {"half_back": half_back, "en_prison": en_prison},
    }


VARIANTS_000: dict[str, dict[str, Any]] = {
    "game_hall_a": {"rule": "000-casino G-1", "wheel": "single_zero",
                    "payouts": _table("30", "15", "10", "7", "4", "2", "1"),
                    "zero_rule": {"half_back": False, "en_prison": False}},
    "game_hall_b": {"rule": "000-casino G-2", "wheel": "single_zero",
                    "payout_tables": {"1": _table("30", "15", "10", "7", "4", "2", "1"),
                                      "2": _table("60", "30", "20", "14", "8", "2", "1")},
                    # "Table 2 occurs on average every 30th round" (L675-729): used by house_edge only.
                    "table_2_probability": "1/30",
                    "zero_rule": {"half_back": False, "en_prison": False}},
}
for _wheel in ("single_zero", "double_zero"):
    for _code, _hb, _ep in (("la_partage", True, False), ("en_prison", False, True),
                            ("la_partage_en_prison", True, True), ("zero_loses", False, False)):
        VARIANTS_000[f"{_wheel}_{_code}"] = _casino(_wheel, _hb, _ep)

VARIANTS_002 = {
    "ray": {"rule": "002 §5.1", "wheel": "single_zero",
            "payouts": _table("30", "15", "10", "7", "4", "2", "1"),
            "zero_rule": {"half_back": False, "en_prison": False}},
}


def _calls() -> dict[str, list[dict[str, Any]]]:
    def c(bet_type, numbers, chips=1):
        return {"type": bet_type, "numbers": numbers, "chips": chips}

    return {
        "big_series": [c("street", [0, 2, 3], 2), c("split", [4, 7]), c("split", [12, 15]), c("split", [18, 21]),
                       c("split", [19, 22]), c("corner", [25, 26, 28, 29], 2), c("split", [32, 35])],
        "small_series": [c("split", [5, 8]), c("split", [10, 11]), c("split", [13, 16]), c("split", [23, 24]),
                         c("split", [27, 30]), c("split", [33, 36])],
        "orphelins": [c("straight", [1]), c("split", [6, 9]), c("split", [14, 17]), c("split", [17, 20]),
                      c("split", [31, 34])],
        "zero_spiel": [c("split", [0, 3]), c("split", [12, 15]), c("straight", [26]), c("split", [32, 35])],
    }


VARIANTS_004 = {
    "american": {"rule": "004 Ch.1", "wheel": "single_zero",
                 "payouts": _table("35", "17", "11", "8", "5", "2", "1", first_four="8"),
                 "zero_rule": {"half_back": False, "en_prison": False},
                 "call_bets": _calls(),
                 "neighbours": {"each_side": 2},
                 "wheel_order": SINGLE_ZERO_ORDER},
}


# -------------------------------------------------------------------------------------- a parsed bet


class Placed:
    """A bet as the engine reads it: its kind, numbers and (call bets) component chips."""

    def __init__(self, kind: str, numbers: frozenset[int], key: str, label: str,
                 parts: list[tuple[str, frozenset[int], int]] | None = None):
        self.kind = kind  # "inside", "field", "even_chance", "call"
        self.numbers = numbers
        self.key = key  # payout-table key
        self.label = label
        self.parts = parts or []  # call bets: (payout key, numbers, chips)


class Roulette:
    game = "roulette"
    settles_bets_alone = True  # each bet on its own (base.TableGame; tests/casino/test_bet_alone.py)
    outcome_fields = (
        Field("number", "number", "Winning number"),
        Field("payout_table", "choice", "Payout table drawn (game hall B)", choices=("1", "2")),
        VOID_FIELD,
        REASON,
    )

    def __init__(self, rulebook: str, variants: dict[str, dict[str, Any]]):
        self.rulebook = rulebook
        self.variants = variants

    # ------------------------------------------------------------------------------- reading data

    @staticmethod
    def wheel(variant: Mapping[str, Any]) -> str:
        wheel = need(variant, "wheel")
        if wheel not in ("single_zero", "double_zero"):
            raise EngineError("rules.wheel", "\"single_zero\" or \"double_zero\"")
        return wheel

    @staticmethod
    def tables(variant: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
        if "payout_tables" in variant:
            tables = variant["payout_tables"]
            if not isinstance(tables, Mapping) or not tables:
                raise EngineError("rules.payout_tables", "an object: table name -> payout table")
            return dict(tables)
        return {"": need(variant, "payouts")}

    def offered(self, variant: Mapping[str, Any]) -> set[str]:
        """Payout keys every table of the variant has."""
        keys = None
        for table in self.tables(variant).values():
            if not isinstance(table, Mapping):
                raise EngineError("rules.payouts", "an object: bet -> odds")
            keys = set(table) if keys is None else keys & set(table)
        return keys or set()

    # --------------------------------------------------------------------------------- parsing

    def placed(self, bet: Bet, variant: Mapping[str, Any]) -> Placed:
        wheel = self.wheel(variant)
        offered = self.offered(variant)
        where = bet.where
        bet_type = CALL_ALIASES.get(bet.type, bet.type)
        calls = variant.get("call_bets") or {}
        if bet_type in INSIDE:
            raw = bet.params.get("numbers")
            if not isinstance(raw, list) or not raw:
                raise EngineError(f"{where}.numbers", "the numbers the bet covers, e.g. [17, 20]")
            nums = frozenset(parse_number(v, wheel, f"{where}.numbers[{i}]") for i, v in enumerate(raw))
            if len(nums) != len(raw) or len(nums) != INSIDE[bet_type]:
                raise EngineError(f"{where}.numbers", f"a {bet_type} covers {INSIDE[bet_type]} different numbers")
            if nums not in positions(wheel)[str(len(nums))]:
                raise EngineError(f"{where}.numbers", f"{sorted(map(show, nums))} is not a {bet_type} position "
                                                      f"of the {wheel.replace('_', ' ')} layout")
            key = bet_type
            if bet_type in ("trio", "first_four"):
                if bet_type == "trio" and 0 not in nums:
                    raise EngineError(f"{where}.numbers", "a trio covers a zero")
                if bet_type == "first_four" and nums != frozenset([0, 1, 2, 3]):
                    raise EngineError(f"{where}.numbers", "the first four is 0, 1, 2, 3")
            elif bet_type == "corner" and nums == frozenset([0, 1, 2, 3]):
                key = "first_four"
            if key not in offered:
                key = {"trio": "street", "first_four": "corner"}.get(key, key)
            if key not in offered:
                raise EngineError(f"{where}.type", f"{bet_type!r} is not a bet of this variant")
            self._no_extra(bet, {"numbers"})
            return Placed("inside", nums, key, LABELS[bet_type])
        if bet_type in FIELDS:
            value = bet.params.get(bet_type)
            count = FIELDS[bet_type]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= count:
                raise EngineError(f"{where}.{bet_type}", f"which {bet_type}: 1 to {count}")
            if bet_type not in offered:
                raise EngineError(f"{where}.type", f"{bet_type!r} is not a bet of this variant")
            self._no_extra(bet, {bet_type})
            return Placed("field", field_numbers(bet_type, value), bet_type, f"{LABELS[bet_type]} {value}")
        if bet_type in EVEN_CHANCES:
            self._no_extra(bet, {"prison", "zero_choice"})
            return Placed("even_chance", field_numbers(bet_type, None), "even_chance", bet_type)
        if bet_type == "neighbours" and variant.get("neighbours"):
            return self._neighbours(bet, variant, wheel, offered)
        if bet_type in calls:
            parts = []
            for j, comp in enumerate(calls[bet_type]):
                cw = f"rules.call_bets.{bet_type}[{j}]"
                ctype = need(comp, "type", cw)
                nums = frozenset(parse_number(v, wheel, f"{cw}.numbers") for v in need(comp, "numbers", cw))
                if ctype not in INSIDE or nums not in positions(wheel)[str(len(nums))]:
                    raise EngineError(cw, "a component must be an inside bet at a legal position")
                chips = need(comp, "chips", cw)
                if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
                    raise EngineError(f"{cw}.chips", "a whole number of chips")
                key = "first_four" if nums == frozenset([0, 1, 2, 3]) and "first_four" in offered else ctype
                parts.append((key if key in offered else ctype, nums, chips))
            self._no_extra(bet, set())
            return self._call(bet, bet_type, parts)
        known = sorted({*INSIDE, *OUTSIDE, *calls, *(["neighbours"] if variant.get("neighbours") else [])})
        raise EngineError(f"{where}.type", f"{bet.type!r} is not one of: {', '.join(known)}")

    def _neighbours(self, bet: Bet, variant, wheel, offered) -> Placed:
        raw = bet.params.get("numbers")
        if not isinstance(raw, list) or len(raw) != 1:
            raise EngineError(f"{bet.where}.numbers", "the centre number on the wheel, e.g. [17]")
        centre = parse_number(raw[0], wheel, f"{bet.where}.numbers[0]")
        order = [parse_number(v, wheel, "rules.wheel_order") for v in need(variant, "wheel_order")]
        if sorted(order) != sorted(pockets(wheel)):
            raise EngineError("rules.wheel_order", "every pocket of the wheel once, in wheel order")
        side = need(need(variant, "neighbours"), "each_side", "rules.neighbours")
        at = order.index(centre)
        nums = [order[(at + k) % len(order)] for k in range(-side, side + 1)]
        self._no_extra(bet, {"numbers"})
        return self._call(bet, "neighbours", [("straight", frozenset([n]), 1) for n in nums],
                          label=f"neighbours of {show(centre)}")

    def _call(self, bet: Bet, name: str, parts, label: str | None = None) -> Placed:
        chips = sum(p[2] for p in parts)
        cents = int(bet.stake * 100)
        if cents % chips:
            raise EngineError(f"{bet.where}.stake", f"a {name.replace('_', ' ')} is {chips} equal chips: "
                                                    f"the stake must be a multiple of {chips} cents x chip")
        covered = frozenset().union(*(p[1] for p in parts))
        return Placed("call", covered, name, label or name.replace("_", " "), parts)

    @staticmethod
    def _no_extra(bet: Bet, allowed: set[str]) -> None:
        extra = set(bet.params) - allowed
        if extra:
            raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"is not a field of a {bet.type} bet")

    # ---------------------------------------------------------------------------- the contract

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        zr = need(variant, "zero_rule")
        for bet in bets:
            p = self.placed(bet, variant)
            prison = bet.params.get("prison", 0)
            if prison:
                if p.kind != "even_chance":
                    raise EngineError(f"{bet.where}.prison", "only an even-chance stake can be imprisoned")
                if prison not in (1, 2) or isinstance(prison, bool):
                    raise EngineError(f"{bet.where}.prison", "1 (one zero) or 2 (two zeros in a row)")
                if not zr.get("en_prison"):
                    raise EngineError(f"{bet.where}.prison", "this variant has no en prison rule")
            choice = bet.params.get("zero_choice")
            if choice is not None and choice not in ("prison", "half_back", "quarter_back"):
                raise EngineError(f"{bet.where}.zero_choice", "\"prison\", \"half_back\" or \"quarter_back\"")

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        p = self.placed(bet, variant)
        if p.kind == "inside":
            return f"roulette_inside_{len(p.numbers)}"
        if p.kind == "call":  # not used by settle_round (valid_stake), the largest part's class
            return f"roulette_inside_{max(len(n) for _, n, _ in p.parts)}"
        return "roulette_outside"

    def valid_stake(self, bet: Bet, variant: Mapping[str, Any], limit_of) -> Decimal:
        p = self.placed(bet, variant)
        if p.kind != "call":
            limit = limit_of(self.limit_class(bet, variant))
            return bet.stake if limit is None or bet.stake <= limit else limit
        chips = sum(c for _, _, c in p.parts)
        unit = bet.stake / chips
        for _, nums, c in p.parts:  # each component chip pile within its own class (004 §1.3.3)
            limit = limit_of(f"roulette_inside_{len(nums)}")
            if limit is not None:
                unit = min(unit, to_cents_down(Fraction(limit) / c))
        return (unit * chips).quantize(Decimal("0.01"))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rule = str(variant.get("rule", f"{self.rulebook} roulette"))
        wheel = self.wheel(variant)
        extra = set(outcome) - {"number", "payout_table", "void", "reason"}
        if extra:
            raise EngineError(f"outcome.{sorted(extra)[0]}", "is not an outcome field (number, payout_table, void)")
        if outcome.get("void") is True:
            why = str(outcome.get("reason", ""))[:200]
            return [void(b, f"{rule}: void spin (no spin), stakes returned", note=why) for b in bets]
        if "void" in outcome and outcome["void"] is not False:
            raise EngineError("outcome.void", "true for a void spin (no spin), else leave it out")
        if "number" not in outcome:
            raise EngineError("outcome.number", "is required: the winning number")
        number = parse_number(outcome["number"], wheel, "outcome.number")
        tables = self.tables(variant)
        if "payout_tables" in variant:
            drawn = outcome.get("payout_table")
            if str(drawn) not in tables or isinstance(drawn, bool):
                raise EngineError("outcome.payout_table", f"the payout table drawn this round: one of {', '.join(tables)}")
            table, rule = tables[str(drawn)], f"{rule} table {drawn}"
        else:
            if "payout_table" in outcome:
                raise EngineError("outcome.payout_table", "this variant has one payout table")
            table = tables[""]
        return [self._settle_one(b, variant, table, number, rule) for b in bets]

    def _settle_one(self, bet: Bet, variant, table, number: int, rule: str) -> BetResult:
        p = self.placed(bet, variant)
        odds = {k: ratio(v, f"rules.payouts.{k}") for k, v in table.items()}
        if p.kind == "call":
            returned = ZERO
            winnings = Fraction(0)
            chips = sum(c for _, _, c in p.parts)
            unit = bet.stake / chips
            notes = []
            for key, nums, c in p.parts:
                stake = unit * c
                hit = number in nums
                if hit:
                    returned += stake
                    winnings += Fraction(stake) * odds[key]
                notes.append(f"{LABELS[key]} {'/'.join(map(show, sorted(nums, key=_order)))} x{c} "
                             f"{stake}: {'won ' + fmt_ratio(odds[key]) if hit else 'lost'}")
            status = WON if returned else LOST
            clause = "004 Ch.1 §1.3.2" if self.rulebook == "004" else rule
            return BetResult(bet.index, status, returned=returned, winnings=to_cents_down(winnings),
                             rule=f"{clause}: {p.label}, {chips} chips of {unit}", note="; ".join(notes))
        r = odds[p.key]
        label = f"{rule}: {p.label} {fmt_ratio(r)}"
        if p.kind != "even_chance" or not bet.params.get("prison"):
            if number in p.numbers:
                return won(bet, r, label)
            if number in (0, DZ) and p.kind == "even_chance":
                return self._even_on_zero(bet, variant, rule, level=0)
            return lost(bet, label + (" (zero)" if number in (0, DZ) else ""))
        level = bet.params["prison"]
        if number in (0, DZ):
            return self._even_on_zero(bet, variant, rule, level)
        if number in p.numbers:
            if level == 1:
                return BetResult(bet.index, PUSH, returned=bet.stake, winnings=ZERO,
                                 rule=f"{rule}: en prison, released (stake kept, no winnings)")
            return _imprisoned(bet, rule, 1, "won once after two zeros: needs one more win")
        return lost(bet, f"{rule}: en prison, imprisoned stake lost")

    def _even_on_zero(self, bet: Bet, variant, rule: str, level: int) -> BetResult:
        zr = need(variant, "zero_rule")
        half, prison = bool(zr.get("half_back")), bool(zr.get("en_prison"))
        if level == 2:
            return lost(bet, f"{rule}: en prison, zero a third time in a row: stake lost")
        if not half and not prison:
            return lost(bet, f"{rule}: zero, even-chance bet loses")
        choice = bet.params.get("zero_choice")
        back_name = "half_back" if level == 0 else "quarter_back"
        if half and prison:
            if choice not in ("prison", back_name):
                raise EngineError(f"{bet.where}.zero_choice", f"is required: both half-back and en prison are in use; "
                                                              f"the player's choice \"prison\" or \"{back_name}\"")
            take_back = choice == back_name
        elif choice not in (None, "prison" if prison else "half_back"):
            raise EngineError(f"{bet.where}.zero_choice", f"{choice!r} is not offered by this variant")
        else:
            take_back = half and level == 0
        if take_back:
            share = Fraction(1, 2) if level == 0 else Fraction(1, 4)
            back = to_cents_down(Fraction(bet.stake) * share)
            return BetResult(bet.index, HALF_BACK, returned=back, winnings=ZERO,
                             rule=f"{rule}: zero, {'half' if level == 0 else 'a quarter'} of the stake returned"
                                  f"{'' if level == 0 else ' (second zero, en prison)'}")
        if not prison:
            return lost(bet, f"{rule}: en prison not in use")
        return _imprisoned(bet, rule, level + 1, "zero" if level == 0 else "zero again (twice in a row)")


def _order(n: int) -> int:
    return -1 if n == DZ else n


def _imprisoned(bet: Bet, rule: str, level: int, why: str) -> BetResult:
    return BetResult(bet.index, IMPRISONED, returned=ZERO, winnings=ZERO,
                     rule=f"{rule}: en prison ({why})",
                     note=f"the stake stays imprisoned: settle it in the next spin with \"prison\": {level}")


ENGINES = [Roulette("000", VARIANTS_000), Roulette("002", VARIANTS_002), Roulette("004", VARIANTS_004)]


# ---------------------------------------------------------------------------------------- house edge


def _position_returns(engine: Roulette, variant: Mapping[str, Any]):
    """(bet type, numbers, payout key, chips parts) for every legal position of every offered bet."""
    wheel = engine.wheel(variant)
    offered = engine.offered(variant)
    pos = positions(wheel)
    out: list[tuple[str, list[tuple[str, frozenset[int], int]]]] = []
    for bet_type, n in INSIDE.items():
        for nums in pos[str(n)]:
            if bet_type == "trio" and 0 not in nums or bet_type == "first_four" and nums != frozenset([0, 1, 2, 3]):
                continue
            try:
                bet = Bet(0, bet_type, Decimal("1.00"), params={"numbers": [show(x) if x == DZ else x for x in nums]})
                p = engine.placed(bet, variant)
            except EngineError:
                continue
            out.append((bet_type, [(p.key, nums, 1)]))
    for kind, count in FIELDS.items():
        if kind in offered:
            out += [(kind, [(kind, field_numbers(kind, v), 1)]) for v in range(1, count + 1)]
    out += [(kind, [("even_chance", field_numbers(kind, None), 1)]) for kind in EVEN_CHANCES]
    return out


def house_edge(variant: Mapping[str, Any], engine: Roulette | None = None) -> dict[str, Fraction]:
    """The house edge of each bet type, by exact enumeration of the wheel with the variant's own tables.

    Every legal position of a type must give the same edge (else the largest is reported). Even
    chances count the zero rule: half-back returns 1/2; en prison is valued by its chain (level 1: win
    releases, zero goes to level 2; level 2: win goes to level 1, zero loses); with both rules the player
    takes the better of each choice. Version B mixes its tables by ``table_2_probability``.
    """
    engine = engine or ENGINES[0]
    wheel = engine.wheel(variant)
    numbers = pockets(wheel)
    n = len(numbers)
    tables = engine.tables(variant)
    if "payout_tables" in variant:
        p2 = Fraction(need(variant, "table_2_probability"))
        weights = {"1": 1 - p2, "2": p2}
    else:
        weights = {"": Fraction(1)}
    zr = need(variant, "zero_rule")
    zeros = sum(1 for x in numbers if x in (0, DZ))
    zero_value = zero_stake_value(Fraction(18, n), Fraction(zeros, n), bool(zr.get("half_back")),
                                  bool(zr.get("en_prison")))
    edges: dict[str, Fraction] = {}

    def record(name: str, ev: Fraction) -> None:
        edge = 1 - ev
        edges[name] = max(edges.get(name, edge), edge)

    for bet_type, parts in _position_returns(engine, variant):
        ev = Fraction(0)
        for code, weight in weights.items():
            odds = {k: ratio(v, f"rules.payouts.{k}") for k, v in tables[code].items()}
            for x in numbers:
                for key, nums, _ in parts:
                    if x in nums:
                        ev += weight * Fraction(1, n) * (1 + odds[key])
                    elif key == "even_chance" and x in (0, DZ):
                        ev += weight * Fraction(1, n) * zero_value
        record(bet_type, ev)
    calls = dict(variant.get("call_bets") or {})
    for name, comps in calls.items():
        bet = Bet(0, name, Decimal(sum(c["chips"] for c in comps)))
        record(name, _call_ev(engine, variant, bet, numbers, tables, weights))
    if variant.get("neighbours"):
        for centre in numbers:
            bet = Bet(0, "neighbours", Decimal(2 * variant["neighbours"]["each_side"] + 1),
                      params={"numbers": [show(centre)]})
            record("neighbours", _call_ev(engine, variant, bet, numbers, tables, weights))
    return edges


def zero_stake_value(p: Fraction, z: Fraction, half_back: bool, en_prison: bool) -> Fraction:
    """What an even-chance stake of 1 is worth when a zero comes (p: chance to win a spin, z: zero).

    En prison: level 1 is worth V1 = p + z * V2 (a win releases the stake, a zero goes to level 2),
    level 2 is worth V2 = p * V1 (a win goes back to level 1, a third zero loses). With half-back too,
    the player takes the better of prison or 1/2 (first zero) and of level 2 or 1/4 (second zero).
    """
    if not en_prison:
        return Fraction(1, 2) if half_back else Fraction(0)
    v1 = p / (1 - z * p)  # stays imprisoned at the second zero
    if half_back and p * v1 < Fraction(1, 4):
        v1 = p + z * Fraction(1, 4)  # takes the quarter back at the second zero
    return max(v1, Fraction(1, 2)) if half_back else v1


def _call_ev(engine, variant, bet, numbers, tables, weights) -> Fraction:
    p = engine.placed(bet, variant)
    chips = sum(c for _, _, c in p.parts)
    ev = Fraction(0)
    for code, weight in weights.items():
        odds = {k: ratio(v, "rules.payouts") for k, v in tables[code].items()}
        for x in numbers:
            ev += weight * Fraction(1, len(numbers)) * sum(
                Fraction(c, chips) * (1 + odds[key]) for key, nums, c in p.parts if x in nums)
    return ev
