"""Three-card poker (004 §4.9, Ch.10), RAY Fast Poker (002 §5.4) and RAY Triple Bet Poker (002 §5.5).

Three-card hands are ranked by this module's own code (a three-card straight beats a flush, and
ranks below three of a kind: straight flush > three of a kind > straight > flush > pair > high card,
004 A27, 002 §5.4; A-2-3 is the lowest straight, Q-K-A the highest). Triple Bet Poker ranks its
five-card hands (three own cards + two community cards) through phevaluator; only its bonus's
four-card straight and four-card flush are this module's own code.

The outcome is the cards as dealt and each box's recorded decision; the engine ranks the hands,
checks dealer qualification and settles. Every payout ratio is read from the variant's rule data.
:func:`house_edge` enumerates every hand (and, for Ante/Play, every dealer hand) exactly.
"""

from __future__ import annotations

import dataclasses
import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from ..base import (
    BASE,
    LOST,
    PUSH,
    SIDE,
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
    won,
)
from ..cards import RANK_VALUE, RANKS, SUITS, Card, category, no_duplicates, parse_cards, rank_high
from ..fields import BOX_CARDS, Boxes, Field
from ._data import present, ratio

# ------------------------------------------------------------------------------- three-card ranking

#: Three-card categories, lowest first (the index is the category's weight in :func:`key3`).
CATEGORIES3 = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")


def _straight_top(ranks: Sequence[int]) -> int:
    """The top card of a three-card straight (A-2-3 counts 3), or 0."""
    r = sorted(ranks)
    if r == [2, 3, 14]:
        return 3
    if r[0] + 1 == r[1] and r[1] + 1 == r[2]:
        return r[2]
    return 0


def key3(cards: Sequence[Card]) -> int:
    """A three-card hand's strength: a higher key is a better hand, equal keys are equal hands."""
    ranks = sorted((c.rank for c in cards), reverse=True)
    flush = cards[0].suit == cards[1].suit == cards[2].suit
    top = _straight_top(ranks)
    if top and flush:
        cat, tie = 5, (top, 0, 0)
    elif ranks[0] == ranks[2]:
        cat, tie = 4, (ranks[0], 0, 0)
    elif top:
        cat, tie = 3, (top, 0, 0)
    elif flush:
        cat, tie = 2, tuple(ranks)
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]
        kicker = ranks[2] if ranks[0] == pair else ranks[0]
        cat, tie = 1, (pair, kicker, 0)
    else:
        cat, tie = 0, tuple(ranks)
    return ((cat * 15 + tie[0]) * 15 + tie[1]) * 15 + tie[2]


def category3(key: int) -> str:
    return CATEGORIES3[key // 15**3]


def high_card_key(ranks: Sequence[int]) -> int:
    """The key of the high-card hand with these three ranks (for a qualification or play threshold)."""
    r = sorted(ranks, reverse=True)
    return (r[0] * 15 + r[1]) * 15 + r[2]


def _rank_list(value: Any, where: str, count: int) -> list[int]:
    """Ranks written as "Q" or "Q 6 4" (a threshold hand given by its high cards)."""
    if not isinstance(value, str):
        raise EngineError(where, f"{count} rank(s) such as \"Q\" or \"Q 6 4\"")
    parts = value.replace("-", " ").split()
    out = []
    for p in parts:
        p = "T" if p == "10" else p.upper()
        if p not in RANK_VALUE:
            raise EngineError(where, f"{p!r} is not a card rank (2-9, T, J, Q, K, A)")
        out.append(RANK_VALUE[p])
    if not 1 <= len(out) <= count:
        raise EngineError(where, f"1 to {count} ranks such as \"Q 6 4\"")
    return out


def minimum_key(value: Any, where: str) -> int:
    """"Q" is queen-high or better (Q-3-2 is the lowest such hand); "Q 6 4" is Q-6-4 or better."""
    ranks = _rank_list(value, where, 3)
    low = [r for r in range(2, 15) if r not in ranks]
    while len(ranks) < 3:
        ranks.append(low.pop(0))
    return high_card_key(ranks)


# ------------------------------------------------------------------------------------------ rule data


def _paytable(value: Any, where: str, allowed: Sequence[str]) -> dict[str, Fraction]:
    if not isinstance(value, Mapping):
        raise EngineError(where, "an object: hand category -> ratio")
    table = {}
    for cat, odds in value.items():
        if cat not in allowed:
            raise EngineError(f"{where}.{cat}", f"is not a hand category here: {', '.join(allowed)}")
        table[cat] = ratio(odds, f"{where}.{cat}")
    return table


@dataclass(frozen=True)
class VsDealerRules:
    clause: str
    main: str  # the main bet's type: "ante" (004) or "bet" (002)
    raise_name: str  # what the continuation stake is called: "Bet" (004) or "Play" (002)
    side: str  # the optional side bet's type: "pair_plus" (004) or "bonus" (002)
    dealer_minimum: int  # key3 of the lowest qualifying dealer hand
    main_ratio: Fraction  # main bet, player beats a qualifying dealer
    raise_ratio: Fraction
    raise_ratio_by_category: Mapping[str, Fraction]
    main_ratio_dealer_not_qualified: Fraction  # the raise pushes then
    ante_bonus: Mapping[str, Fraction]  # paid on the main stake when the player continued
    side_paytable: Mapping[str, Fraction]
    side_without_main: bool
    side_kept_on_fold: bool
    one_seat_per_player: bool


def parse_vs_dealer(variant: Mapping[str, Any]) -> VsDealerRules:
    w = "rules"
    side = present(variant, "side_bet", w)
    sw = f"{w}.side_bet"
    return VsDealerRules(
        clause=str(present(variant, "clause", w)),
        main=str(present(variant, "main_bet", w)),
        raise_name=str(present(variant, "raise_name", w)),
        side=str(present(side, "type", sw)),
        dealer_minimum=minimum_key(present(variant, "dealer_minimum", w), f"{w}.dealer_minimum"),
        main_ratio=ratio(present(variant, "main_ratio", w), f"{w}.main_ratio"),
        raise_ratio=ratio(present(variant, "raise_ratio", w), f"{w}.raise_ratio"),
        raise_ratio_by_category=_paytable(present(variant, "raise_ratio_by_category", w),
                                          f"{w}.raise_ratio_by_category", CATEGORIES3),
        main_ratio_dealer_not_qualified=ratio(present(variant, "main_ratio_dealer_not_qualified", w),
                                               f"{w}.main_ratio_dealer_not_qualified"),
        ante_bonus=_paytable(present(variant, "ante_bonus", w), f"{w}.ante_bonus", CATEGORIES3),
        side_paytable=_paytable(present(side, "paytable", sw), f"{sw}.paytable", CATEGORIES3),
        side_without_main=bool(present(side, "without_main", sw)),
        side_kept_on_fold=bool(present(side, "kept_on_fold", sw)),
        one_seat_per_player=bool(present(variant, "one_seat_per_player", w)),
    )


THREE_CARD_VARIANTS: dict[str, dict[str, Any]] = {
    "billionaire": {
        "clause": "004 §4.9",
        "main_bet": "ante",
        "raise_name": "Bet",
        "one_seat_per_player": False,  # §10.1.7: any number of boxes
        "dealer_minimum": "Q",  # Ch.10 §10.2.4 "minimum game: Queen"
        "main_ratio": "1",  # §10.2.7
        "raise_ratio": "1",  # §10.2.7
        "raise_ratio_by_category": {},
        "main_ratio_dealer_not_qualified": "1",  # §10.2.6 (the Bet pushes, A27)
        "ante_bonus": {"straight": "1", "three_of_a_kind": "3", "straight_flush": "4"},  # table 10.3.2
        "side_bet": {
            "type": "pair_plus",
            # table 10.3.3
            "paytable": {"pair": "1", "flush": "4", "straight": "5", "three_of_a_kind": "20", "straight_flush": "40"},
            "without_main": True,  # §10.1.8
            "kept_on_fold": True,  # §10.2.2: fold the Ante, keep the Pair Plus
        },
    },
}

FAST_POKER_VARIANTS: dict[str, dict[str, Any]] = {
    "ray": {
        "clause": "002 §5.4",
        "main_bet": "bet",
        "raise_name": "Play",
        "one_seat_per_player": True,  # FP-03
        "dealer_minimum": "Q",  # FP-07: queen-high or better
        "main_ratio": "1",
        "raise_ratio": "1",
        "raise_ratio_by_category": {"three_of_a_kind": "3", "straight_flush": "3"},  # FP-07
        "main_ratio_dealer_not_qualified": "1",
        "ante_bonus": {},
        "side_bet": {
            "type": "bonus",
            # the bonus table (A13: straight flush and three of a kind both 30, as printed)
            "paytable": {"pair": "1", "flush": "4", "straight": "5", "three_of_a_kind": "30", "straight_flush": "30"},
            "without_main": False,  # FP-08
            "kept_on_fold": False,  # FP-05, FP-08
        },
    },
}


# ----------------------------------------------------------------------------------- outcome reading


def _boxes(outcome: Mapping[str, Any], count: int) -> dict[int, dict[str, Any]]:
    raw = outcome.get("boxes")
    if not isinstance(raw, list) or not raw:
        raise EngineError("outcome.boxes", "a list of boxes: [{\"box\": 1, \"cards\": \"As Kh Qd\", ...}]")
    boxes: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(raw):
        where = f"outcome.boxes[{i}]"
        if not isinstance(item, Mapping):
            raise EngineError(where, "a JSON object with `box` and `cards`")
        box = item.get("box")
        if isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= 99:
            raise EngineError(f"{where}.box", "a box number from 1 to 99")
        if box in boxes:
            raise EngineError(f"{where}.box", f"box {box} is given twice")
        if "cards" not in item:
            raise EngineError(f"{where}.cards", "is required: the box's cards")
        boxes[box] = {**item, "where": where, "cards": parse_cards(item["cards"], f"{where}.cards", count=count)}
    return boxes


def _box_of(bet: Bet, boxes: Mapping[int, Any]) -> int:
    if bet.box is None:
        raise EngineError(f"{bet.where}.box", "is required: the box whose cards settle this bet")
    if bet.box not in boxes:
        raise EngineError(f"{bet.where}.box", f"box {bet.box} has no cards in outcome.boxes")
    return bet.box


def _no_params(bet: Bet) -> None:
    if bet.params:
        key = sorted(bet.params)[0]
        raise EngineError(f"{bet.where}.{key}", f"a {bet.type} bet takes no {key!r}")


def _one_per_box(bets: Sequence[Bet], types: Sequence[str]) -> None:
    seen: set[tuple[int | None, str]] = set()
    for bet in bets:
        if bet.type in types:
            if (bet.box, bet.type) in seen:
                raise EngineError(f"{bet.where}.type", f"a second {bet.type} bet on box {bet.box}")
            seen.add((bet.box, bet.type))


def _name(key: int) -> str:
    return category3(key).replace("_", " ")


# ------------------------------------------------------------------------- three cards vs the dealer


class VsDealerEngine:
    """Three-card poker against a dealer who qualifies with queen-high (004 Ch.10; 002 Fast Poker)."""

    def __init__(self, rulebook: str, game: str, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.rulebook = rulebook
        self.game = game
        self.variants = variants

    @property
    def outcome_fields(self) -> tuple:
        actions = ["play", "fold"]
        for variant in self.variants.values():
            rules = parse_vs_dealer(variant)
            if rules.side_kept_on_fold and f"fold_keep_{rules.side}" not in actions:
                actions.append(f"fold_keep_{rules.side}")
        return (
            Field("dealer", "cards", "Dealer's three cards"),
            Boxes("boxes", "Boxes", keyed=False, fields=(
                BOX_CARDS, Field("action", "choice", "Box's decision", choices=tuple(actions)))),
        )

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "poker_box"  # a house-banked poker box; the raise is not limited (Ambiguity 4)

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        rules = parse_vs_dealer(variant)
        for bet in bets:
            if bet.type not in (rules.main, rules.side):
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not a bet of this game: "
                                                       f"{rules.main}, {rules.side}")
            _no_params(bet)
            if bet.box is None:
                raise EngineError(f"{bet.where}.box", "is required: the box whose cards settle this bet")
        _one_per_box(bets, (rules.main, rules.side))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rules = parse_vs_dealer(variant)
        if not isinstance(outcome, Mapping):
            raise EngineError("outcome", "a JSON object with `dealer` and `boxes`")
        unknown = set(outcome) - {"dealer", "boxes"}
        if unknown:
            raise EngineError(f"outcome.{sorted(unknown)[0]}", "is not an outcome field (dealer, boxes)")
        if "dealer" not in outcome:
            raise EngineError("outcome.dealer", "is required: the dealer's three cards")
        dealer = parse_cards(outcome["dealer"], "outcome.dealer", count=3)
        boxes = _boxes(outcome, 3)
        no_duplicates([("outcome.dealer", dealer), *((b["where"] + ".cards", b["cards"]) for b in boxes.values())])
        fold_keep = f"fold_keep_{rules.side}"
        actions = ("play", "fold", fold_keep) if rules.side_kept_on_fold else ("play", "fold")
        mains = {bet.box for bet in bets if bet.type == rules.main}
        for box, item in boxes.items():
            action = item.get("action")
            if box in mains and action not in actions:
                raise EngineError(f"{item['where']}.action", f"the box's decision, one of: {', '.join(actions)}")
            unknown = set(item) - {"box", "cards", "action", "where"}
            if unknown:
                raise EngineError(f"{item['where']}.{sorted(unknown)[0]}", "is not a box field (box, cards, action)")
        dealer_key = key3(dealer)
        one_seat = self._one_seat_violations(bets) if rules.one_seat_per_player else {}
        results = []
        for bet in bets:
            box = _box_of(bet, boxes)
            cards = boxes[box]["cards"]
            action = boxes[box].get("action") if box in mains else None
            if bet.type == rules.main:
                r = self._main(rules, bet, key3(cards), dealer_key, action)
            else:
                r = self._side(rules, bet, key3(cards), action, box in mains)
            if bet.index in one_seat:
                r = dataclasses.replace(r, violations=(*r.violations, one_seat[bet.index]),
                                        note="; ".join(filter(None, [r.note, one_seat[bet.index]])))
            results.append(r)
        return results

    @staticmethod
    def _one_seat_violations(bets: Sequence[Bet]) -> dict[int, str]:
        """002 FP-03: a player may stake on only one seat (reported, settled as placed)."""
        seats: dict[str, set[int | None]] = {}
        for bet in bets:
            if bet.player:
                seats.setdefault(bet.player, set()).add(bet.box)
        return {bet.index: f"player {bet.player} stakes on {len(seats[bet.player])} seats; a player may stake on "
                           f"only one seat (002 §5.4 FP-03); settled as placed"
                for bet in bets if bet.player and len(seats[bet.player]) > 1}

    @staticmethod
    def _main(rules: VsDealerRules, bet: Bet, pk: int, dk: int, action: str) -> BetResult:
        c = rules.clause
        if action != "play":
            return lost(bet, f"{c}: the player folds, the {rules.main} is lost")
        stake = Fraction(bet.stake)
        pcat = category3(pk)
        parts = []
        main_back = raise_back = True
        win = Fraction(0)
        if dk < rules.dealer_minimum:
            win += stake * rules.main_ratio_dealer_not_qualified
            parts.append(f"dealer {_name(dk)} does not qualify: {rules.main} "
                         f"{_odds(rules.main_ratio_dealer_not_qualified)}, {rules.raise_name} pushes")
        elif pk > dk:
            raise_ratio = rules.raise_ratio_by_category.get(pcat, rules.raise_ratio)
            win += stake * (rules.main_ratio + raise_ratio)
            parts.append(f"{_name(pk)} beats the dealer's {_name(dk)}: {rules.main} {_odds(rules.main_ratio)}, "
                         f"{rules.raise_name} {_odds(raise_ratio)}")
        elif pk == dk:
            parts.append(f"equal hands ({_name(pk)}): {rules.main} and {rules.raise_name} push")
        else:
            main_back = raise_back = False
            parts.append(f"the dealer's {_name(dk)} beats {_name(pk)}: {rules.main} and {rules.raise_name} lose")
        if pcat in rules.ante_bonus:
            win += stake * rules.ante_bonus[pcat]
            parts.append(f"{rules.main} bonus {_name(pk)} {_odds(rules.ante_bonus[pcat])}")
        returned = (bet.stake if main_back else ZERO) + (bet.stake if raise_back else ZERO)
        winnings = to_cents_down(win)
        status = WON if winnings > 0 else (PUSH if main_back else LOST)
        return BetResult(bet.index, status, returned=returned, winnings=winnings, rule=f"{c}: " + "; ".join(parts),
                         category=BASE, added_stake=bet.stake)

    @staticmethod
    def _side(rules: VsDealerRules, bet: Bet, pk: int, action: str | None, has_main: bool) -> BetResult:
        c = rules.clause
        if not has_main and not rules.side_without_main:
            text = f"the {rules.side} cannot be played without the main game ({c})"
            r = void(bet, f"{c}: {rules.side} without a {rules.main} is void, stake returned", SIDE, note=text)
            return dataclasses.replace(r, violations=(text,))
        if action == "fold":
            return lost(bet, f"{c}: the player folds, the {rules.side} is lost", SIDE)
        pcat = category3(pk)
        if pcat in rules.side_paytable:
            ratio = rules.side_paytable[pcat]
            return won(bet, ratio, f"{c}: {rules.side} {_name(pk)} {_odds(ratio)}", SIDE)
        return lost(bet, f"{c}: {rules.side} loses with {_name(pk)}", SIDE)


def _odds(ratio: Fraction) -> str:
    return f"{ratio.numerator}:{ratio.denominator}"


# ----------------------------------------------------------------------------------- house edges (3)


@cache
def _all_hands() -> tuple[list[int], list[tuple[int, int, int]]]:
    deck = [Card(RANK_VALUE[r], s) for r in RANKS for s in SUITS]
    combos = list(itertools.combinations(range(52), 3))
    return [key3((deck[a], deck[b], deck[c])) for a, b, c in combos], combos


def category_counts() -> dict[str, int]:
    """How many of the 22,100 three-card hands fall in each category (by this module's ranking)."""
    keys, _ = _all_hands()
    counts = dict.fromkeys(CATEGORIES3, 0)
    for k in keys:
        counts[category3(k)] += 1
    return counts


def _paytable_edge(table: Mapping[str, Fraction]) -> Fraction:
    counts = category_counts()
    ev = sum((Fraction(n) * table[c] if c in table else -n) for c, n in counts.items())
    return -ev / sum(counts.values())


@cache
def _dealer_index() -> tuple[list[int], list[list[int]], dict[tuple[int, int], list[int]]]:
    keys, combos = _all_hands()
    by_card: list[list[int]] = [[] for _ in range(52)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    for k, (a, b, c) in zip(keys, combos):
        for x in (a, b, c):
            by_card[x].append(k)
        for p in ((a, b), (a, c), (b, c)):
            by_pair.setdefault(p, []).append(k)
    for lst in by_card:
        lst.sort()
    for lst in by_pair.values():
        lst.sort()
    return sorted(keys), by_card, by_pair


def ante_play_edge(variant: Mapping[str, Any], strategy: str = "optimal") -> Fraction:
    """House edge of the main bet per unit main stake (the raise equals it), over every player hand and
    every dealer hand from the other 49 cards. `strategy`: "optimal" (play when it is worth more than
    folding) or a posted rule such as "Q 6 4" (play Q-6-4 or better, fold below)."""
    rules = parse_vs_dealer(variant)
    keys, combos = _all_hands()
    every, by_card, by_pair = _dealer_index()
    threshold = None if strategy == "optimal" else minimum_key(strategy, "strategy")
    q = rules.dealer_minimum
    n_dealer = comb(49, 3)
    total = Fraction(0)
    for pk, (a, b, c) in zip(keys, combos):
        lists_minus = (by_card[a], by_card[b], by_card[c])
        lists_plus = (by_pair[(a, b)], by_pair[(a, c)], by_pair[(b, c)])

        def below(x: int, right: bool = False) -> int:
            f = bisect_right if right else bisect_left
            n = f(every, x) - sum(f(lst, x) for lst in lists_minus) + sum(f(lst, x) for lst in lists_plus)
            return n - (1 if (pk <= x if right else pk < x) else 0)

        nq = below(q)
        if pk >= q:
            lower = below(pk) - nq
            higher = n_dealer - below(pk, True)  # the rest (equal hands) push
        else:
            lower = 0
            higher = n_dealer - nq
        cat = category3(pk)
        raise_ratio = rules.raise_ratio_by_category.get(cat, rules.raise_ratio)
        play = (nq * rules.main_ratio_dealer_not_qualified + lower * (rules.main_ratio + raise_ratio)
                - 2 * higher) / n_dealer + rules.ante_bonus.get(cat, 0)
        plays = play > -1 if threshold is None else pk >= threshold
        total += play if plays else -1
    return -total / len(keys)


def vs_dealer_house_edge(variant: Mapping[str, Any], strategy: str = "optimal") -> dict[str, Fraction]:
    """{main bet: edge per unit main stake under `strategy`, side bet: edge of its paytable}.

    The side bet's edge assumes every hand it pays on is played (true of the optimal strategy and of
    any posted rule that plays a pair or better)."""
    rules = parse_vs_dealer(variant)
    return {rules.main: ante_play_edge(variant, strategy), rules.side: _paytable_edge(rules.side_paytable)}


# ------------------------------------------------------------------------------------ Triple Bet Poker

CATEGORIES5 = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
               "two_pair", "pair", "high_card")
BONUS_EXTRA = ("four_card_straight", "four_card_flush")


def four_card_straight(cards: Sequence[Card]) -> bool:
    """Four cards of consecutive ranks among the five (A-2-3-4 and J-Q-K-A count; 002 TB-03)."""
    ranks = {c.rank for c in cards}
    if 14 in ranks:
        ranks.add(1)
    return any(all(r + i in ranks for i in range(4)) for r in range(1, 12))


def four_card_flush(cards: Sequence[Card]) -> bool:
    """Four cards of one suit among the five."""
    return any(sum(1 for c in cards if c.suit == s) >= 4 for s in SUITS)


def hand5(cards: Sequence[Card]) -> tuple[str, int]:
    """(category, rank of the pair when the category is pair, else 0) of five cards, by phevaluator."""
    cat = category(rank_high(cards))
    if cat != "pair":
        return cat, 0
    ranks = [c.rank for c in cards]
    return cat, next(r for r in ranks if ranks.count(r) == 2)


@dataclass(frozen=True)
class TripleBetRules:
    clause: str
    paytable: Mapping[str, Fraction]
    pair_min_rank: int
    bonus_paytable: Mapping[str, Fraction]
    bonus_fixed_stake: Fraction | None


def parse_triple_bet(variant: Mapping[str, Any]) -> TripleBetRules:
    w = "rules"
    fixed = present(variant, "bonus_fixed_stake", w)
    return TripleBetRules(
        clause=str(present(variant, "clause", w)),
        paytable=_paytable(present(variant, "paytable", w), f"{w}.paytable", CATEGORIES5),
        pair_min_rank=_rank_list(present(variant, "pair_min_rank", w), f"{w}.pair_min_rank", 1)[0],
        bonus_paytable=_paytable(present(variant, "bonus_paytable", w), f"{w}.bonus_paytable",
                                 CATEGORIES5 + BONUS_EXTRA),
        bonus_fixed_stake=None if fixed is None else Fraction(parse_money(fixed, f"{w}.bonus_fixed_stake")),
    )


TRIPLE_BET_VARIANTS: dict[str, dict[str, Any]] = {
    "ray": {
        "clause": "002 §5.5",
        # TB-07; "pair" pays only from pair_min_rank up ("pair of tens or better").
        "paytable": {"straight_flush": "30", "four_of_a_kind": "15", "full_house": "10", "flush": "7",
                     "straight": "5", "three_of_a_kind": "3", "two_pair": "2", "pair": "1"},
        "pair_min_rank": "T",
        # TB-08 bonus table.
        "bonus_paytable": {"straight_flush": "50", "four_of_a_kind": "40", "full_house": "30", "flush": "20",
                           "straight": "15", "three_of_a_kind": "5", "four_card_straight": "3",
                           "four_card_flush": "3", "two_pair": "3"},
        # MAX-07: the bonus is a fixed stake posted at the table; the source gives no amount (null: not
        # posted, not checked).
        "bonus_fixed_stake": None,
    },
}


def main_ratio(rules: TripleBetRules, cards: Sequence[Card]) -> tuple[Fraction | None, str]:
    """The main paytable's ratio for a five-card hand (None: the stake is lost) and the hand's name."""
    cat, pair_rank = hand5(cards)
    name = cat.replace("_", " ")
    if cat == "pair":
        name = f"pair of {RANKS[pair_rank - 2]}"
        if pair_rank < rules.pair_min_rank:
            return None, name
    return rules.paytable.get(cat), name


def bonus_ratio(rules: TripleBetRules, cards: Sequence[Card]) -> tuple[Fraction | None, str]:
    """The bonus's ratio: the best paying category the hand holds (None: the bonus loses)."""
    cat, _ = hand5(cards)
    held = [cat]
    if four_card_straight(cards) and cat not in ("straight", "straight_flush"):
        held.append("four_card_straight")
    if four_card_flush(cards) and cat not in ("flush", "straight_flush"):
        held.append("four_card_flush")
    paying = [(rules.bonus_paytable[h], h) for h in held if h in rules.bonus_paytable]
    if not paying:
        return None, cat.replace("_", " ")
    ratio, name = max(paying)
    return ratio, name.replace("_", " ")


class TripleBetEngine:
    """RAY Triple Bet Poker: three equal stakes on circles 1-3 and an optional bonus; no opponent."""

    rulebook = "002"
    game = "triple_bet_poker"
    outcome_fields = (
        Field("community", "cards", "Community cards in the order turned"),
        Boxes("boxes", "Boxes", keyed=False, fields=(
            BOX_CARDS,
            Field("withdrawn[0]", "choice", "Circle withdrawn after seeing the cards", choices=("1", "2", "3")),
            Field("withdrawn[1]", "choice", "Circle withdrawn after the first community card",
                  choices=("1", "2", "3")),
        )),
    )

    def __init__(self, variants: Mapping[str, Mapping[str, Any]]) -> None:
        self.variants = variants

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        return "poker_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        parse_triple_bet(variant)
        seen: set[tuple[int | None, Any]] = set()
        for bet in bets:
            if bet.box is None:
                raise EngineError(f"{bet.where}.box", "is required: the box whose cards settle this bet")
            if bet.type == "circle":
                circle = bet.params.get("circle")
                if circle not in (1, 2, 3) or isinstance(circle, bool):
                    raise EngineError(f"{bet.where}.circle", "the stake circle: 1, 2 or 3")
                extra = set(bet.params) - {"circle"}
            elif bet.type == "bonus":
                circle = "B"
                extra = set(bet.params)
            else:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not a bet of this game: circle, bonus")
            if extra:
                raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"a {bet.type} bet takes no such field")
            if (bet.box, circle) in seen:
                raise EngineError(f"{bet.where}.type", f"a second stake on circle {circle} of box {bet.box}")
            seen.add((bet.box, circle))

    def settle(self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]) -> list[BetResult]:
        rules = parse_triple_bet(variant)
        c = rules.clause
        if not isinstance(outcome, Mapping):
            raise EngineError("outcome", "a JSON object with `community` and `boxes`")
        unknown = set(outcome) - {"community", "boxes"}
        if unknown:
            raise EngineError(f"outcome.{sorted(unknown)[0]}", "is not an outcome field (community, boxes)")
        if "community" not in outcome:
            raise EngineError("outcome.community", "is required: the two community cards in the order turned")
        community = parse_cards(outcome["community"], "outcome.community", count=2)
        boxes = _boxes(outcome, 3)
        no_duplicates([("outcome.community", community),
                       *((b["where"] + ".cards", b["cards"]) for b in boxes.values())])
        circles: dict[int, dict[int, Bet]] = {}
        for bet in bets:
            box = _box_of(bet, boxes)
            if bet.type == "circle":
                circles.setdefault(box, {})[bet.params["circle"]] = bet
        withdrawn = {box: self._withdrawn(item, circles.get(box, {})) for box, item in boxes.items()}
        unequal = {}
        for box, by_circle in circles.items():
            stakes = {b.stake for b in by_circle.values()}
            if len(by_circle) != 3 or len(stakes) != 1:
                unequal[box] = (f"box {box}: the player places three equal stakes on circles 1, 2 and 3 "
                                f"(002 §5.5 TB-05); settled as placed")
        results = []
        for bet in bets:
            box = bet.box
            cards = [*boxes[box]["cards"], *community]
            if bet.type == "circle":
                circle = bet.params["circle"]
                decision = withdrawn[box].get(circle)
                if decision:
                    r = push(bet, f"{c} TB-06: circle {circle} withdrawn at the {decision}, stake returned")
                else:
                    ratio, name = main_ratio(rules, cards)
                    r = (lost(bet, f"{c} TB-07: {name} does not pay, circle {circle} lost") if ratio is None
                         else won(bet, ratio, f"{c} TB-07: {name} {ratio} x stake on circle {circle}"))
                if box in unequal:
                    r = dataclasses.replace(r, violations=(unequal[box],), note=unequal[box])
            else:
                ratio, name = bonus_ratio(rules, cards)
                r = (lost(bet, f"{c} TB-08: {name}, the bonus loses", SIDE) if ratio is None
                     else won(bet, ratio, f"{c} TB-08: bonus {name} {ratio} x stake", SIDE))
                if rules.bonus_fixed_stake is not None and Fraction(bet.stake) != rules.bonus_fixed_stake:
                    text = (f"the bonus is a fixed stake of {to_cents_down(rules.bonus_fixed_stake)} (002 §5.5 "
                            f"TB-08); settled as placed")
                    r = dataclasses.replace(r, violations=(text,), note=text)
            results.append(r)
        return results

    @staticmethod
    def _withdrawn(item: Mapping[str, Any], by_circle: Mapping[int, Bet]) -> dict[int, str]:
        """{circle: "first decision" | "second decision"}: at most one stake at each of the two points."""
        where = f"{item['where']}.withdrawn"
        unknown = set(item) - {"box", "cards", "withdrawn", "where"}
        if unknown:
            raise EngineError(f"{item['where']}.{sorted(unknown)[0]}", "is not a box field (box, cards, withdrawn)")
        raw = item.get("withdrawn", [None, None])
        if not isinstance(raw, list) or len(raw) != 2:
            raise EngineError(where, "[circle withdrawn after seeing the cards, circle withdrawn after the first "
                                     "community card], each 1-3 or null")
        out: dict[int, str] = {}
        for i, circle in enumerate(raw):
            if circle is None:
                continue
            if circle not in (1, 2, 3) or isinstance(circle, bool):
                raise EngineError(f"{where}[{i}]", "a circle 1, 2 or 3, or null")
            if circle in out:
                raise EngineError(f"{where}[{i}]", f"circle {circle} is already withdrawn")
            if circle not in by_circle:
                raise EngineError(f"{where}[{i}]", f"circle {circle} has no stake on this box")
            out[circle] = ("first decision", "second decision")[i]
        return out


def _rank_multisets() -> list[tuple[int, ...]]:
    return [m for m in itertools.combinations_with_replacement(range(2, 15), 5)
            if all(m.count(r) <= 4 for r in set(m))]


def triple_bet_distribution(variant: Mapping[str, Any]) -> dict[str, dict[Fraction | None, int]]:
    """How many of the 2,598,960 five-card hands pay each main and bonus ratio (None: lost).

    Exact: every rank multiset, split by suit pattern (five of a suit, four of a suit, fewer) with the
    number of suit assignments of each; a representative hand of each is judged by the engine's code.
    """
    rules = parse_triple_bet(variant)
    out: dict[str, dict[Fraction | None, int]] = {"main": {}, "bonus": {}}
    for ranks in _rank_multisets():
        mult = [ranks.count(r) for r in sorted(set(ranks))]
        combos = 1
        for m in mult:
            combos *= comb(4, m)
        cycle = [Card(r, SUITS[i % 4]) for i, r in enumerate(ranks)]
        patterns: list[tuple[list[Card], int]] = []
        if len(mult) == 5:  # five ranks: 4 flushes, 60 four-flushes, 960 others
            patterns = [([Card(r, "s") for r in ranks], 4),
                        ([*(Card(r, "s") for r in ranks[:4]), Card(ranks[4], "h")], 60),
                        (cycle, combos - 64)]
        elif len(mult) == 4:  # one pair: 12 four-flushes (the three singles and one of the pair), the rest not
            pair = next(r for r in ranks if ranks.count(r) == 2)
            singles = [r for r in ranks if r != pair]
            patterns = [([Card(pair, "s"), Card(pair, "h"), *(Card(r, "s") for r in singles)], 12),
                        (cycle, combos - 12)]
        else:
            patterns = [(cycle, combos)]
        for cards, n in patterns:
            for name, fn in (("main", main_ratio), ("bonus", bonus_ratio)):
                ratio, _ = fn(rules, cards)
                out[name][ratio] = out[name].get(ratio, 0) + n
    return out


def triple_bet_house_edge(variant: Mapping[str, Any]) -> dict[str, Fraction]:
    """{"circle": edge of one circle's stake kept to the end, "bonus": edge of the bonus}. Withdrawing
    a circle returns it (no edge on it), so the circle figure is the edge on every stake left in play."""
    dist = triple_bet_distribution(variant)
    edges = {}
    for name, key in (("circle", "main"), ("bonus", "bonus")):
        counts = dist[key]
        n = sum(counts.values())
        ev = sum((Fraction(k) * (r if r is not None else -1) for r, k in counts.items()), Fraction(0))
        edges[name] = -ev / n
    return edges


def house_edge(variant: Mapping[str, Any], strategy: str = "optimal") -> dict[str, Fraction]:
    """The house edge of every bet of a variant of any game in this module."""
    if "paytable" in variant:
        return triple_bet_house_edge(variant)
    return vs_dealer_house_edge(variant, strategy)


ENGINES = [
    VsDealerEngine("004", "three_card_poker", THREE_CARD_VARIANTS),
    VsDealerEngine("002", "fast_poker", FAST_POKER_VARIANTS),
    TripleBetEngine(TRIPLE_BET_VARIANTS),
]
