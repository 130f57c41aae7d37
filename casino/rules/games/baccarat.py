"""Punto Banco (000-casino C-10) and Billionaire baccarat (004 §4.8, Ch.9).

The outcome is the cards of each hand in deal order (``{"player": "7s 7h Kd", "banker": "2c 4d"}``).
The engine works out the totals and the winner, and checks the recorded deal against the drawing
tableau: a third card dealt when none was due, or missing when one was due, is reported as a
violation on every bet and the round is settled on the cards as dealt (docs/casino/baccarat.md).

Every number (payout ratios, commission, half pay on a banker 6, the drawing tableau) is read from
the variant's rule data, so a published rule version with other numbers changes the computation.
:func:`house_edge` enumerates a shoe given as card counts exactly (rank combinations with
multiplicities, integer weights, one Fraction per bet).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import (
    BASE,
    LOST,
    PUSH,
    SIDE,
    VOID,
    WON,
    ZERO,
    Bet,
    BetResult,
    EngineError,
    lost,
    parse_money,
    push,
    to_cents_down,
    void,
)
from ..cards import Card, no_duplicates, parse_cards
from ..fields import Field
from ._data import present, ratio

#: What a bet type can be on (its ``on`` in the rule data).
ON = ("player", "banker", "tie", "player_pair", "banker_pair", "panda", "dragon")
MAIN_ON = ("player", "banker", "tie")

# The drawing tableau shared by both rulebooks (000-casino C-10 tables; 004 Ch.9 §9.1.10, §9.1.15-16).
TABLEAU = {
    "naturals": [8, 9],
    "player_draws_on": [0, 1, 2, 3, 4, 5],
    "banker_draws_when_player_stood": [0, 1, 2, 3, 4, 5],
    # banker's two-card total -> the values of the player's third card on which the banker draws
    "banker_draws_on_player_third": {
        "0": list(range(10)),
        "1": list(range(10)),
        "2": list(range(10)),
        "3": [0, 1, 2, 3, 4, 5, 6, 7, 9],
        "4": [2, 3, 4, 5, 6, 7],
        "5": [4, 5, 6, 7],
        "6": [6, 7],
        "7": [],
        "8": [],
        "9": [],
    },
}

_C000 = "000-casino C-10"
_C004 = "004 §4.8"


def _punto_banco(half_pay_totals: list[int], commission: str) -> dict[str, Any]:
    return {
        "clause": _C000,
        "decks": 8,
        "allowed_decks": [6, 8],
        "differential": None,
        "tableau": TABLEAU,
        "bets": {
            "punto": {"on": "player", "ratio": "1", "push_on_tie": True, "category": BASE},
            "banco": {
                "on": "banker",
                "ratio": "1",
                "commission": commission,
                "min_commission": None,
                "half_pay_totals": half_pay_totals,
                "half_pay_ratio": "1/2",
                "push_on_tie": True,
                "category": BASE,
            },
            "egalite": {"on": "tie", "ratio": "8", "category": BASE},
        },
    }


PUNTO_BANCO_VARIANTS: dict[str, dict[str, Any]] = {
    # 5 % commission on banco wins (L2367); a posted minimum commission goes in min_commission.
    "commission": _punto_banco([], "5/100"),
    # The alternative version (L2367): banco 1:1, but a banco win on 6 (alternatively 5) pays 1:2.
    "half_pay_6": _punto_banco([6], "0"),
    "half_pay_5": _punto_banco([5], "0"),
}

BACCARAT_VARIANTS: dict[str, dict[str, Any]] = {
    "billionaire": {
        "clause": _C004,
        "decks": 8,
        "allowed_decks": [8],
        # §9.1.4, §9.1.12: the table differential is posted on the table; the source gives no value.
        "differential": None,
        "tableau": TABLEAU,
        "bets": {
            "player": {"on": "player", "ratio": "1", "push_on_tie": True, "category": BASE},
            "banker": {
                "on": "banker",
                "ratio": "1",
                "commission": "0",
                "min_commission": None,
                "half_pay_totals": [6],
                "half_pay_ratio": "1/2",
                "push_on_tie": True,
                "category": BASE,
            },
            "tie": {"on": "tie", "ratio": "8", "category": BASE},
            "player_pair": {"on": "player_pair", "ratio": "11", "requires": ["player", "banker"],
                            "category": SIDE},
            "banker_pair": {"on": "banker_pair", "ratio": "11", "requires": ["player", "banker"],
                            "category": SIDE},
            "panda": {"on": "panda", "ratio": "25", "requires": ["player", "banker", "tie"], "category": SIDE},
            "dragon": {"on": "dragon", "ratio": "40", "requires": ["player", "banker", "tie"], "category": SIDE},
        },
    },
}


# ------------------------------------------------------------------------------------------ rule data


def _totals(value: Any, where: str) -> frozenset[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9
                                              for v in value):
        raise EngineError(where, "a list of point totals 0-9")
    return frozenset(value)


@dataclass(frozen=True)
class BetSpec:
    name: str
    on: str
    ratio: Fraction
    category: str
    push_on_tie: bool = False
    commission: Fraction = Fraction(0)
    min_commission: Fraction | None = None
    half_pay_totals: frozenset[int] = frozenset()
    half_pay_ratio: Fraction = Fraction(0)
    requires: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tableau:
    naturals: frozenset[int]
    player_draws_on: frozenset[int]
    banker_draws_when_player_stood: frozenset[int]
    banker_draws_on_player_third: tuple[frozenset[int], ...]  # index: banker's two-card total


@dataclass(frozen=True)
class Rules:
    clause: str
    decks: int
    differential: Fraction | None
    tableau: Tableau
    bets: Mapping[str, BetSpec]


def parse_rules(variant: Mapping[str, Any]) -> Rules:
    """The variant's rule data, checked (EngineError naming `rules.<key>`)."""
    w = "rules"
    clause = present(variant, "clause", w)
    decks = present(variant, "decks", w)
    allowed = present(variant, "allowed_decks", w)
    if not isinstance(allowed, list) or decks not in allowed or isinstance(decks, bool):
        raise EngineError(f"{w}.decks", f"{decks!r} is not one of the allowed deck counts {allowed!r}")
    diff = present(variant, "differential", w)
    differential = None if diff is None else Fraction(parse_money(diff, f"{w}.differential"))
    t = present(variant, "tableau", w)
    tw = f"{w}.tableau"
    by_total = present(t, "banker_draws_on_player_third", tw)
    if not isinstance(by_total, Mapping) or sorted(by_total) != [str(i) for i in range(10)]:
        raise EngineError(f"{tw}.banker_draws_on_player_third", "an object with the keys \"0\" to \"9\"")
    tableau = Tableau(
        naturals=_totals(present(t, "naturals", tw), f"{tw}.naturals"),
        player_draws_on=_totals(present(t, "player_draws_on", tw), f"{tw}.player_draws_on"),
        banker_draws_when_player_stood=_totals(
            present(t, "banker_draws_when_player_stood", tw), f"{tw}.banker_draws_when_player_stood"),
        banker_draws_on_player_third=tuple(
            _totals(by_total[str(i)], f"{tw}.banker_draws_on_player_third.{i}") for i in range(10)),
    )
    raw_bets = present(variant, "bets", w)
    if not isinstance(raw_bets, Mapping) or not raw_bets:
        raise EngineError(f"{w}.bets", "an object: bet type -> its rule data")
    bets = {}
    for name, spec in raw_bets.items():
        bw = f"{w}.bets.{name}"
        on = present(spec, "on", bw)
        if on not in ON:
            raise EngineError(f"{bw}.on", f"{on!r} is not one of: {', '.join(ON)}")
        category = present(spec, "category", bw)
        if category not in (BASE, SIDE):
            raise EngineError(f"{bw}.category", "\"base\" or \"side\"")
        kw: dict[str, Any] = {}
        if on in ("player", "banker"):
            kw["push_on_tie"] = present(spec, "push_on_tie", bw)
            if not isinstance(kw["push_on_tie"], bool):
                raise EngineError(f"{bw}.push_on_tie", "true or false")
        if on == "banker":
            kw["commission"] = ratio(present(spec, "commission", bw), f"{bw}.commission")
            if kw["commission"] >= 1:
                raise EngineError(f"{bw}.commission", "a share of the win below 1 (5 % is \"5/100\")")
            mc = present(spec, "min_commission", bw)
            kw["min_commission"] = None if mc is None else Fraction(parse_money(mc, f"{bw}.min_commission"))
            kw["half_pay_totals"] = _totals(present(spec, "half_pay_totals", bw), f"{bw}.half_pay_totals")
            kw["half_pay_ratio"] = ratio(present(spec, "half_pay_ratio", bw), f"{bw}.half_pay_ratio")
        requires = spec.get("requires", [])
        if not isinstance(requires, list) or any(r not in MAIN_ON for r in requires):
            raise EngineError(f"{bw}.requires", f"a list of main bets to go with: {', '.join(MAIN_ON)}")
        bets[name] = BetSpec(name=name, on=on, ratio=ratio(present(spec, "ratio", bw), f"{bw}.ratio"),
                             category=category, requires=tuple(requires), **kw)
    if not isinstance(clause, str):
        raise EngineError(f"{w}.clause", "the rulebook clause, e.g. \"000-casino C-10\"")
    return Rules(clause=clause, decks=decks, differential=differential, tableau=tableau, bets=bets)


# ------------------------------------------------------------------------------------------ the coup


def point(card: Card) -> int:
    """Baccarat value: 10 and faces 0, ace 1, others face value."""
    return card.rank if card.rank <= 9 else (1 if card.rank == 14 else 0)


def total(values: Sequence[int]) -> int:
    return sum(values) % 10


def drawing(tableau: Tableau, p: Sequence[int], b: Sequence[int]) -> tuple[bool, bool]:
    """Whether player and banker take a third card, from the first two cards of each (and the player's
    third, when it is given) in deal order: (player draws, banker draws)."""
    pt, bt = total(p[:2]), total(b[:2])
    if pt in tableau.naturals or bt in tableau.naturals:
        return False, False
    player_draws = pt in tableau.player_draws_on
    if not player_draws:
        return False, bt in tableau.banker_draws_when_player_stood
    if len(p) < 3:
        return True, False  # undecidable without the player's third card: reported by the caller
    return True, p[2] in tableau.banker_draws_on_player_third[bt]


@dataclass(frozen=True)
class Coup:
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: str  # "player", "banker" or "tie"
    violations: tuple[str, ...]

    @property
    def description(self) -> str:
        return (f"player {' '.join(map(str, self.player))} = {self.player_total}, "
                f"banker {' '.join(map(str, self.banker))} = {self.banker_total}")


def read_coup(rules: Rules, outcome: Mapping[str, Any]) -> Coup:
    if not isinstance(outcome, Mapping):
        raise EngineError("outcome", "a JSON object with `player` and `banker` cards")
    unknown = set(outcome) - {"player", "banker"}
    if unknown:
        raise EngineError(f"outcome.{sorted(unknown)[0]}", "is not an outcome field (player, banker)")
    hands = {}
    for side in ("player", "banker"):
        if side not in outcome:
            raise EngineError(f"outcome.{side}", "is required: the cards of the hand in deal order")
        hands[side] = parse_cards(outcome[side], f"outcome.{side}", minimum=2, maximum=3)
    no_duplicates([("outcome.player", hands["player"]), ("outcome.banker", hands["banker"])], decks=rules.decks)
    p = [point(c) for c in hands["player"]]
    b = [point(c) for c in hands["banker"]]
    player_draws, banker_draws = drawing(rules.tableau, p, b)
    violations = []
    pt2, bt2 = total(p[:2]), total(b[:2])
    if player_draws != (len(p) == 3):
        violations.append(
            f"player's two-card total {pt2} (banker {bt2}): the tableau says the player "
            + ("draws a third card, none was dealt" if player_draws else "stands, a third card was dealt"))
    elif banker_draws != (len(b) == 3):
        third = f", player's third card {p[2]}" if len(p) == 3 else ", the player stood"
        violations.append(
            f"banker's two-card total {bt2}{third}: the tableau says the banker "
            + ("draws a third card, none was dealt" if banker_draws else "stands, a third card was dealt"))
    pt, bt = total(p), total(b)
    winner = "tie" if pt == bt else ("player" if pt > bt else "banker")
    return Coup(tuple(hands["player"]), tuple(hands["banker"]), pt, bt, winner, tuple(violations))


def _pair(cards: Sequence[Card]) -> bool:
    return cards[0].rank == cards[1].rank


@dataclass(frozen=True)
class Verdict:
    """A bet's fate per unit stake: status, ratio won (before commission), commission share, clause."""

    status: str
    ratio: Fraction
    commission: Fraction
    rule: str


def verdict(spec: BetSpec, clause: str, winner: str, pt: int, bt: int, np: int, nb: int,
            p_pair: bool, b_pair: bool) -> Verdict:
    """The fate of one bet from the coup's facts (shared by settlement and the house-edge enumeration)."""
    z = Fraction(0)
    if spec.on in ("player", "banker"):
        if winner == "tie":
            if spec.push_on_tie:
                return Verdict(PUSH, z, z, f"{clause}: tie {pt}-{pt}, {spec.name} neither wins nor loses")
            return Verdict(LOST, z, z, f"{clause}: tie {pt}-{pt}, {spec.name} loses")
        if winner != spec.on:
            return Verdict(LOST, z, z, f"{clause}: {winner} wins {max(pt, bt)}-{min(pt, bt)}, {spec.name} loses")
        own = pt if spec.on == "player" else bt
        if spec.on == "banker" and own in spec.half_pay_totals:
            return Verdict(WON, spec.half_pay_ratio, spec.commission,
                           f"{clause}: banker wins with {own} points, paid {_odds(spec.half_pay_ratio)}")
        text = f"{clause}: {spec.on} wins {own}-{min(pt, bt)}, {spec.name} {_odds(spec.ratio)}"
        if spec.commission:
            text += f" less {_pct(spec.commission)} commission"
        return Verdict(WON, spec.ratio, spec.commission, text)
    if spec.on == "tie":
        if winner == "tie":
            return Verdict(WON, spec.ratio, z, f"{clause}: tie {pt}-{bt}, {spec.name} {_odds(spec.ratio)}")
        return Verdict(LOST, z, z, f"{clause}: {winner} wins, {spec.name} loses")
    if spec.on in ("player_pair", "banker_pair"):
        hit = p_pair if spec.on == "player_pair" else b_pair
        side = spec.on.split("_")[0]
        if hit:
            return Verdict(WON, spec.ratio, z,
                           f"{clause}: {side}'s first two cards a pair, {_odds(spec.ratio)} whatever the result")
        return Verdict(LOST, z, z, f"{clause}: {side}'s first two cards are not a pair")
    if spec.on == "panda":
        if winner == "player" and np == 3 and pt == 8:
            return Verdict(WON, spec.ratio, z, f"{clause}: player wins with three cards on 8, Panda "
                                               f"{_odds(spec.ratio)}")
        return Verdict(LOST, z, z, f"{clause}: no player win with three cards on 8, Panda loses")
    if winner == "banker" and nb == 3 and bt == 7:  # dragon
        return Verdict(WON, spec.ratio, z, f"{clause}: banker wins with three cards on 7, Dragon {_odds(spec.ratio)}")
    return Verdict(LOST, z, z, f"{clause}: no banker win with three cards on 7, Dragon loses")


def _odds(ratio: Fraction) -> str:
    return f"{ratio.numerator}:{ratio.denominator}"


def _pct(share: Fraction) -> str:
    pct = share * 100
    return f"{pct.numerator if pct.denominator == 1 else float(pct)} %"


# ---------------------------------------------------------------------------------------- the engine


def _who(bet: Bet) -> str:
    return bet.player or (f"box {bet.box}" if bet.box is not None else "")


class BaccaratEngine:
    """One engine per rulebook; the variants carry the bet types and their numbers."""

    outcome_fields = (
        Field("player", "cards", "Player's cards (punto) in deal order"),
        Field("banker", "cards", "Banker's cards (banco) in deal order"),
    )

    def __init__(self, rulebook: str, game: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.game = game
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        # Every bet is a stake on the punto banco box (000-casino §2.1-2.2; Ambiguity 4: side bets too).
        return "punto_banco_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        rules = parse_rules(variant)
        for bet in bets:
            if bet.type not in rules.bets:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not a bet of this variant: "
                                                       f"{', '.join(rules.bets)}")
            if bet.params:
                key = sorted(bet.params)[0]
                raise EngineError(f"{bet.where}.{key}", f"a {bet.type} bet takes no {key!r}")

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rules = parse_rules(variant)
        coup = read_coup(rules, outcome)
        results = []
        # Who holds a main bet (004 §9.2.4-9.2.5: side bets play only beside a main stake).
        mains: dict[str, set[str]] = {}
        for bet in bets:
            mains.setdefault(_who(bet), set()).add(rules.bets[bet.type].on)
        heavy_side = self._differential(rules, bets)
        facts = (coup.winner, coup.player_total, coup.banker_total, len(coup.player), len(coup.banker),
                 _pair(coup.player), _pair(coup.banker))
        for bet in bets:
            spec = rules.bets[bet.type]
            violations = list(coup.violations)
            notes = []
            if coup.violations:
                notes.append("the deal does not follow the drawing tableau; settled on the cards as dealt, "
                             "the dealer/inspector decides (000-casino §3.4)")
            if spec.requires and not (mains.get(_who(bet), set()) & set(spec.requires)):
                text = (f"a {bet.type} bet plays only beside a main bet on "
                        f"{' or '.join(spec.requires)} (004 Ch.9 §9.2.4-9.2.5)")
                r = void(bet, f"{rules.clause}: {bet.type} without a main bet is void, stake returned",
                         spec.category, note=text)
                results.append(dataclasses.replace(r, violations=(*violations, text)))
                continue
            if heavy_side and spec.on == heavy_side:
                text = (f"the round's banker and player stakes differ by more than the table differential "
                        f"{rules.differential} (004 Ch.9 §9.1.4); settled as placed")
                violations.append(text)
                notes.append(text)
            v = verdict(spec, rules.clause, *facts)
            r = self._money(bet, spec, v)
            if notes:
                r = dataclasses.replace(r, note="; ".join(filter(None, [r.note, *notes])))
            results.append(dataclasses.replace(r, violations=tuple(violations)))
        return results

    @staticmethod
    def _differential(rules: Rules, bets: Sequence[Bet]) -> str | None:
        if rules.differential is None:
            return None
        sums = {"player": ZERO, "banker": ZERO}
        for bet in bets:
            on = rules.bets[bet.type].on
            if on in sums:
                sums[on] += bet.stake
        if abs(sums["banker"] - sums["player"]) <= rules.differential:
            return None
        return "banker" if sums["banker"] > sums["player"] else "player"

    @staticmethod
    def _money(bet: Bet, spec: BetSpec, v: Verdict) -> BetResult:
        if v.status == LOST:
            return lost(bet, v.rule, spec.category)
        if v.status == PUSH:
            return push(bet, v.rule, spec.category)
        if v.status == VOID:
            return void(bet, v.rule, spec.category)
        stake = Fraction(bet.stake)
        gross = stake * v.ratio
        note = ""
        if v.commission:
            commission = gross * v.commission
            if spec.min_commission is not None and commission < spec.min_commission:
                commission = spec.min_commission
                note = f"the posted minimum commission {to_cents_down(spec.min_commission)} applies"
            commission = min(commission, gross)
            gross -= commission
        return BetResult(bet.index, WON, returned=bet.stake, winnings=to_cents_down(gross), rule=v.rule,
                         category=spec.category, note=note)


# --------------------------------------------------------------------------------------- house edge

RANK_POINTS = {r: (r if r <= 9 else (1 if r == 14 else 0)) for r in range(2, 15)}


def shoe_of_decks(decks: int) -> dict[int, int]:
    """Card counts by rank (2..14) of `decks` full 52-card decks."""
    return {r: 4 * decks for r in range(2, 15)}


def outcome_weights(rules: Rules, shoe: Mapping[int, int]) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """Every coup from the shoe by point values, weighted by the number of ordered ways to deal it.

    Returns ({(player total, banker total, player cards, banker cards): weight}, denominator); a coup of
    k cards is weighted over 6 dealt cards (the unused ones free), so all weights share one denominator.
    """
    counts = [0] * 10
    for rank, n in shoe.items():
        counts[RANK_POINTS[rank]] += n
    n_all = sum(counts)
    if n_all < 6:
        raise EngineError("shoe", "the shoe must hold at least 6 cards")
    free = [1] * 7  # free[k]: ways to deal the 6 - k unused cards after k cards
    for k in range(5, -1, -1):
        free[k] = free[k + 1] * (n_all - k)
    t = rules.tableau
    out: dict[tuple[int, int, int, int], int] = {}
    c = counts
    rng = range(10)
    for p1 in rng:
        w1 = c[p1]
        if not w1:
            continue
        c[p1] -= 1
        for b1 in rng:
            w2 = w1 * c[b1]
            if not w2:
                continue
            c[b1] -= 1
            for p2 in rng:
                w3 = w2 * c[p2]
                if not w3:
                    continue
                c[p2] -= 1
                for b2 in rng:
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt in t.naturals or bt in t.naturals:
                        key = (pt, bt, 2, 2)
                        out[key] = out.get(key, 0) + w4 * free[4]
                    elif pt not in t.player_draws_on:
                        if bt in t.banker_draws_when_player_stood:
                            for b3 in rng:
                                w5 = w4 * c[b3]
                                if w5:
                                    key = (pt, (bt + b3) % 10, 2, 3)
                                    out[key] = out.get(key, 0) + w5 * free[5]
                        else:
                            key = (pt, bt, 2, 2)
                            out[key] = out.get(key, 0) + w4 * free[4]
                    else:
                        draws = t.banker_draws_on_player_third[bt]
                        for p3 in rng:
                            w5 = w4 * c[p3]
                            if not w5:
                                continue
                            pt3 = (pt + p3) % 10
                            if p3 in draws:
                                c[p3] -= 1
                                for b3 in rng:
                                    w6 = w5 * c[b3]
                                    if w6:
                                        key = (pt3, (bt + b3) % 10, 3, 3)
                                        out[key] = out.get(key, 0) + w6
                                c[p3] += 1
                            else:
                                key = (pt3, bt, 3, 2)
                                out[key] = out.get(key, 0) + w5 * free[5]
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out, free[0]


def _pair_probability(shoe: Mapping[int, int]) -> Fraction:
    n = sum(shoe.values())
    return Fraction(sum(k * (k - 1) for k in shoe.values()), n * (n - 1))


def house_edge(variant: Mapping[str, Any], shoe: Mapping[int, int] | None = None) -> dict[str, Fraction]:
    """The house edge of every bet type (minus the expected net win per unit stake), exact.

    `shoe` is card counts by rank 2..14 (default: the variant's decks). A posted minimum commission is
    left out (it depends on the stake); the pair bets are independent of the drawing.
    """
    rules = parse_rules(variant)
    shoe = dict(shoe) if shoe is not None else shoe_of_decks(rules.decks)
    weights, denom = outcome_weights(rules, shoe)
    p_pair = _pair_probability(shoe)
    edges = {}
    for name, spec in rules.bets.items():
        if spec.on in ("player_pair", "banker_pair"):
            won = verdict(spec, rules.clause, "tie", 0, 0, 2, 2, True, True)
            edges[name] = -(p_pair * won.ratio - (1 - p_pair))
            continue
        ev = 0
        for (pt, bt, np, nb), w in weights.items():
            winner = "tie" if pt == bt else ("player" if pt > bt else "banker")
            v = verdict(spec, rules.clause, winner, pt, bt, np, nb, False, False)
            if v.status == WON:
                ev += w * v.ratio * (1 - v.commission)
            elif v.status == LOST:
                ev -= w
        edges[name] = -Fraction(ev) / denom
    return edges


ENGINES = [
    BaccaratEngine("000", "punto_banco", PUNTO_BANCO_VARIANTS),
    BaccaratEngine("004", "baccarat", BACCARAT_VARIANTS),
]
