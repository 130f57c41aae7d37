"""Pai Gow Poker (000-casino C-8, versions A and B; docs/casino/pai_gow.md).

The player splits seven cards into a two-card front hand and a five-card back hand; the back must
outrank the front or the player loses automatically (L1994). Both hands better than the bank's win
1:1 less a 5 % commission (E17); one better and one worse is a push; a copy (identical hand) goes to
the bank, hand by hand (Ambiguity 17). The dealer's seven cards are set by the version's house way,
which this module applies itself; the player's recorded split is only checked for legality.

The deck has 52 cards and one joker. The joker may only complete a straight, a flush or a straight
flush, otherwise it counts as an ace; A-2-3-4-5 is the second-best straight (and straight flush);
four aces and the joker are five aces, the best hand. This changes the standard ranking, so the
module ranks hands itself (checked against phevaluator in tests/casino/rules/test_pai_gow_ranking.py).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

from ..base import (
    LOST,
    PUSH,
    WON,
    ZERO,
    Bet,
    BetResult,
    EngineError,
    lost,
    parse_money,
    push,
    win,
)
from ..cards import RANKS, Card, parse_cards
from ..fields import Boxes, Field

# ------------------------------------------------------------------------------------------ ranking

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_ACES = range(10)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "five aces",
)
ACE = 14
#: A straight's tie-break value: the top card, except A-K-Q-J-10 = 15 and A-2-3-4-5 = 14 (second best).
BROADWAY, WHEEL = 15, 14

#: A hand's key: (category, tie-break ranks ...); a higher key is a better hand.
Key = tuple[int, ...]


def _straight_value(desc: Sequence[int]) -> int:
    """The straight value of five *distinct* ranks sorted high to low, or 0 if they are no straight."""
    if desc[0] - desc[4] == 4:
        return BROADWAY if desc[0] == ACE else desc[0]
    if tuple(desc) == (ACE, 5, 4, 3, 2):
        return WHEEL
    return 0


@cache
def key5(desc: tuple[int, ...], flush: bool) -> Key:
    """The Pai Gow key of five ranks (sorted high to low) that are, or are not, all of one suit."""
    counts = Counter(desc)
    if len(counts) == 5:
        straight = _straight_value(desc)
        if straight:
            return (STRAIGHT_FLUSH if flush else STRAIGHT, straight)
        return (FLUSH if flush else HIGH, *desc)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    order = tuple(r for _, r in groups)
    category = {
        (5,): FIVE_ACES,
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[shape]
    return (category, *order)


def back_key(cards: Sequence[Card]) -> Key:
    """Rank a five-card hand; a joker takes the best value the rules allow it (C-8, L1992)."""
    rest = [c for c in cards if not c.joker]
    ranks = [c.rank for c in rest]
    if len(rest) == 5:
        return key5(tuple(sorted(ranks, reverse=True)), len({c.suit for c in rest}) == 1)
    if len(rest) != 4:
        raise ValueError("a Pai Gow hand holds at most one joker")
    if ranks.count(ACE) == 4:
        return (FIVE_ACES, ACE)
    best = key5(tuple(sorted(ranks + [ACE], reverse=True)), False)  # the joker as an ace
    suited = len({c.suit for c in rest}) == 1
    for r in range(2, 15):  # the joker completing a straight, flush or straight flush
        if r in ranks:
            continue
        desc = tuple(sorted(ranks + [r], reverse=True))
        if suited:
            candidate = key5(desc, True)
        elif len(set(desc)) == 5 and _straight_value(desc):
            candidate = (STRAIGHT, _straight_value(desc))
        else:
            continue
        if candidate > best:
            best = candidate
    return best


def front_key(cards: Sequence[Card]) -> Key:
    """Rank a two-card front hand: a pair or high cards; the joker is an ace (it completes nothing)."""
    a, b = sorted((ACE if c.joker else c.rank for c in cards), reverse=True)
    return (PAIR, a) if a == b else (HIGH, a, b)


def front_below_back(front: Key, back: Key) -> bool:
    """A legal split: the front is lower than the back (with equal leading ranks the five cards win)."""
    return front < back


def describe(key: Key) -> str:
    name = CATEGORY_NAMES[key[0]]
    if key[0] in (STRAIGHT, STRAIGHT_FLUSH):
        top = {BROADWAY: "ace", WHEEL: "5 (A-2-3-4-5)"}.get(key[1]) or _rank_name(key[1])
        return f"{name}, {top} high"
    return f"{name} ({'-'.join(_rank_name(r) for r in key[1:])})"


def _rank_name(rank: int) -> str:
    return "10" if rank == 10 else RANKS[rank - 2]


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


# ---------------------------------------------------------------------------------------- house way

#: Front-hand thresholds the house ways name.
KING_HIGH: Key = (HIGH, 13)
ACE_FACE: Key = (HIGH, ACE, 11)


class Split:
    """One of the 21 ways to set seven cards: front (2) and back (5), with their keys."""

    __slots__ = ("front", "back", "fk", "bk", "franks")

    def __init__(self, front: tuple[Card, ...], back: tuple[Card, ...]) -> None:
        self.front, self.back = front, back
        self.fk, self.bk = front_key(front), back_key(back)
        self.franks = tuple(sorted((ACE if c.joker else c.rank for c in front), reverse=True))


def splits(cards: Sequence[Card]) -> list[Split]:
    out = []
    for i, j in combinations(range(7), 2):
        out.append(Split((cards[i], cards[j]), tuple(c for k, c in enumerate(cards) if k not in (i, j))))
    return out


def _best(candidates: Sequence[Split]) -> Split:
    """The best front, then the best back (the house way's choice among equivalent card choices)."""
    return max(candidates, key=lambda s: (s.fk, s.bk))


def _front(all_splits: Sequence[Split], *ranks: int) -> Split:
    """The split whose front holds these ranks (joker = ace), with the best back."""
    want = tuple(sorted(ranks, reverse=True))
    return max((s for s in all_splits if s.franks == want), key=lambda s: s.bk)


class Holding:
    """What a seven-card hand holds for the house way: rank counts (joker = ace), best category."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.ranks = sorted((ACE if c.joker else c.rank for c in cards), reverse=True)
        self.counts = Counter(self.ranks)
        self.pairs = sorted((r for r, n in self.counts.items() if n == 2), reverse=True)
        self.trips = sorted((r for r, n in self.counts.items() if n == 3), reverse=True)
        self.quads = [r for r, n in self.counts.items() if n == 4]
        self.singles = sorted((r for r, n in self.counts.items() if n == 1), reverse=True)
        self.category = max(back_key(c)[0] for c in combinations(cards, 5))


def _rest(ranks: Sequence[int], *taken: int) -> list[int]:
    left = list(ranks)
    for r in taken:
        left.remove(r)
    return left


def _two_pairs_a(h: Holding, ss: Sequence[Split], hi: int, lo: int) -> tuple[Split, str]:
    singles = _rest(h.ranks, hi, hi, lo, lo)  # the three other cards, highest first
    ace = ACE in singles
    keep = hi <= 6 or (hi <= 10 and ace) or (11 <= hi <= 13 and lo <= 5 and ace)
    if keep:
        return _front(ss, singles[0], singles[1]), "two pairs kept together in back (A exception)"
    return _front(ss, lo, lo), "two pairs split, the lower pair in front"


def _pair_size(rank: int) -> str:
    return "small" if rank <= 5 else "middle" if rank <= 9 else "big" if rank <= 13 else "aces"


#: Version B: the pair sizes (lower, higher) that keep both pairs in back with one of these single cards.
_B_KEEPERS = {
    ("small", "small"): {ACE, 13},
    ("small", "middle"): {ACE, 13},
    ("middle", "middle"): {ACE, 13, 12, 11},
    ("small", "big"): {ACE, 13, 12, 11},
}


def _two_pairs_b(h: Holding, ss: Sequence[Split], hi: int, lo: int) -> tuple[Split, str]:
    singles = _rest(h.ranks, hi, hi, lo, lo)  # the three other cards, highest first
    sizes = (_pair_size(lo), _pair_size(hi))
    keepers = _B_KEEPERS.get(sizes, set())  # aces + any pair, middle + big, big + big: always split
    if keepers & set(singles):
        return _front(ss, singles[0], singles[1]), f"two pairs ({sizes[0]} + {sizes[1]}) kept together in back"
    return _front(ss, lo, lo), f"two pairs ({sizes[0]} + {sizes[1]}) split, the lower pair in front"


def _pairs(h: Holding, ss: list[Split], two_pairs) -> tuple[Split, str]:
    """A straight/flush hand played "as two pairs" (with a third pair: as three pairs)."""
    if len(h.pairs) >= 3:
        return _front(ss, h.pairs[0], h.pairs[0]), "three pairs: the highest pair in front"
    return two_pairs(h, ss, h.pairs[0], h.pairs[1])


def _straight_flush_exception(h: Holding, royal: bool) -> bool:
    """Version A: the pairs that make a straight/flush/SF hand play as "two pairs"."""
    if len(h.pairs) < 2:
        return False
    hi, lo = h.pairs[0], h.pairs[1]
    if hi == ACE or lo >= 10:
        return True
    return not royal and hi <= 10 and ACE in h.singles


def house_way(cards: Sequence[Card], version: str) -> tuple[Split, str]:
    """Set the dealer's seven cards by version A's or B's house way (C-8, Ambiguity 17).

    Returns the split and the house-way clause applied.
    """
    h = Holding(cards)
    ss = splits(cards)
    split, clause = _house_way(h, ss, version)
    if not front_below_back(split.fk, split.bk):  # pragma: no cover - checked over random hands in tests
        raise AssertionError(f"house way {version} set a foul hand for {_cards_text(cards)}")
    return split, f"house way {version}: {clause}"


def _house_way(h: Holding, ss: list[Split], version: str) -> tuple[Split, str]:
    two_pairs = _two_pairs_a if version == "A" else _two_pairs_b
    ranks = h.ranks
    if h.counts[ACE] == 5:
        if version == "A" and h.counts[13] >= 2:
            return _front(ss, 13, 13), "five aces with a pair of kings: kings in front"
        return _front(ss, ACE, ACE), "five aces broken, a pair of aces in front"
    if h.category == STRAIGHT_FLUSH and version == "A":
        royal = any(s.bk == (STRAIGHT_FLUSH, BROADWAY) for s in ss)
        if _straight_flush_exception(h, royal):
            return _pairs(h, ss, two_pairs)
        if royal:
            top = _best([s for s in ss if s.bk == (STRAIGHT_FLUSH, BROADWAY)])
            alt = [s for s in ss if s.bk[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH) and s.bk != top.bk]
            if top.fk < KING_HIGH and alt and _best(alt).fk >= KING_HIGH:
                return _best(alt), "royal flush: a lesser straight/flush in back for a king-high front"
            return top, "royal flush in back"
        top = _best([s for s in ss if s.bk[0] == STRAIGHT_FLUSH])
        alt = [s for s in ss if s.bk[0] in (STRAIGHT, FLUSH)]
        if top.fk < ACE_FACE and alt and _best(alt).fk >= ACE_FACE:
            return _best(alt), "straight flush: a flush or straight in back for an ace + face front"
        return top, "straight flush in back"
    if h.category == QUADS:
        q = h.quads[0]
        if version == "B":
            others = [r for r in (h.pairs + h.trips) if r != q]
            if others:
                big = max(q, *others)
                return _front(ss, big, big), "four of a kind with another pair: the largest pair in front"
            return two_pairs(h, ss, q, q)
        rest = [s for s in ss if q not in s.franks]
        keep = _best(rest)
        need = {ACE: (PAIR, 7), 13: (PAIR, 10), 12: (PAIR, 10), 11: (PAIR, 10)}.get(
            q, ACE_FACE if q >= 7 else None
        )
        if need is None or keep.fk >= need:
            return keep, "four of a kind kept in back"
        return _front(ss, q, q), "four of a kind split into two pairs"
    if h.category == FULL_HOUSE and len(h.trips) == 1:
        t = h.trips[0]
        if len(h.pairs) >= 2:
            return _front(ss, h.pairs[0], h.pairs[0]), "trips and two pairs: the higher pair in front"
        p = h.pairs[0]
        if version == "A" and p == 2 and sorted(h.singles) == [13, ACE]:
            return _front(ss, ACE, 13), "trips + twos + ace + king: full house in back"
        return _front(ss, p, p), f"full house split: pair in front, {_rank_name(t)}s in back"
    if h.category in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
        if version == "B":
            if len(h.pairs) >= 2:
                return _pairs(h, ss, two_pairs)
            best = _best([s for s in ss if s.bk[0] in (STRAIGHT, FLUSH, STRAIGHT_FLUSH)])
            return best, f"{CATEGORY_NAMES[best.bk[0]]} in back, the best front it leaves"
        if _straight_flush_exception(h, royal=False):
            return _pairs(h, ss, two_pairs)
        straights = [s for s in ss if s.bk[0] == STRAIGHT]
        flushes = [s for s in ss if s.bk[0] == FLUSH]
        if straights and flushes:
            bs, bf = _best(straights), _best(flushes)
            if max(bs.fk, bf.fk) < KING_HIGH:
                return bf, "straight and flush: neither leaves a king-high front, flush in back"
            best = bf if bf.fk >= bs.fk else bs
            return best, f"straight and flush: the {CATEGORY_NAMES[best.bk[0]]} in back leaves the better front"
        best = _best(straights or flushes)
        return best, f"{CATEGORY_NAMES[best.bk[0]]} in back, the best front it leaves"
    if h.trips:
        if len(h.trips) == 2:
            t = h.trips[0]
            return _front(ss, t, t), "two sets of trips: a pair of the higher in front"
        t = h.trips[0]
        rest = _rest(ranks, t, t, t)
        if t == ACE:
            return _front(ss, ACE, rest[0]), "three aces: one ace and the next highest card in front"
        return _front(ss, rest[0], rest[1]), "three of a kind in back, the two highest others in front"
    if len(h.pairs) == 3:
        p = h.pairs[0]
        return _front(ss, p, p), "three pairs: the highest pair in front"
    if len(h.pairs) == 2:
        return _pairs(h, ss, two_pairs)
    if len(h.pairs) == 1:
        p = h.pairs[0]
        rest = _rest(ranks, p, p)
        return _front(ss, rest[0], rest[1]), "one pair in back, the two highest others in front"
    return _front(ss, ranks[1], ranks[2]), "no pair: the 2nd and 3rd highest cards in front"


# --------------------------------------------------------------------------------------- the engine

RULE = "000-casino C-8"
VARIANTS: dict[str, dict[str, Any]] = {
    version: {
        "house_way": version,
        "deck": "52 cards + 1 joker",
        "win_ratio": "1",
        "commission": "5/100",
        "banker_commission": "5/100",
        "player_banker": True,
        "source": f"000-casino C-8 version {version} (L1990-2224)",
    }
    for version in ("A", "B")
}
BET_TYPES = ("main", "banker")
BET_PARAMS = {"main": set(), "banker": {"dealer_stake", "previous_stake"}}


def _ratio(variant: Mapping[str, Any], name: str) -> Fraction:
    if name not in variant:
        raise EngineError(f"rules.{name}", "is required (the rule version must give it)")
    try:
        value = Fraction(str(variant[name]))
    except (ValueError, ZeroDivisionError):
        raise EngineError(f"rules.{name}", f"{variant[name]!r} is not a ratio such as \"1\" or \"5/100\"") from None
    if value < 0 or value > 100:
        raise EngineError(f"rules.{name}", "a ratio from 0 to 100")
    return value


def _version(variant: Mapping[str, Any]) -> str:
    if "house_way" not in variant:
        raise EngineError("rules.house_way", "is required: \"A\" or \"B\"")
    if variant["house_way"] not in ("A", "B"):
        raise EngineError("rules.house_way", f"{variant['house_way']!r} is not one of: A, B")
    return variant["house_way"]


class _Hand:
    """One box's seven cards and the recorded split, ranked."""

    def __init__(self, box: int, cards: list[Card], front: list[Card], back: list[Card], where: str) -> None:
        self.box, self.cards, self.front, self.back, self.where = box, cards, front, back, where
        self.fk, self.bk = front_key(front), back_key(back)
        self.foul = not front_below_back(self.fk, self.bk)

    def text(self) -> str:
        return f"front {_cards_text(self.front)} ({describe(self.fk)}) / back {_cards_text(self.back)} ({describe(self.bk)})"


def _parse_outcome(outcome: Mapping[str, Any], need_dealer: bool) -> tuple[list[Card] | None, dict[int, _Hand]]:
    unknown = set(outcome) - {"dealer", "hands"}
    if unknown:
        raise EngineError(f"outcome.{sorted(unknown)[0]}", "is not a Pai Gow outcome field (dealer, hands)")
    dealer = None
    groups: list[tuple[str, list[Card]]] = []
    if "dealer" in outcome or need_dealer:
        if "dealer" not in outcome:
            raise EngineError("outcome.dealer", "is required: the dealer's seven cards as dealt")
        dealer = parse_cards(outcome["dealer"], "outcome.dealer", count=7, jokers=True)
        groups.append(("outcome.dealer", dealer))
    raw = outcome.get("hands")
    if not isinstance(raw, list) or not raw:
        raise EngineError("outcome.hands", "a list of hands: {\"box\": 1, \"cards\": 7 cards, \"front\": 2 cards}")
    hands: dict[int, _Hand] = {}
    for i, item in enumerate(raw):
        where = f"outcome.hands[{i}]"
        if not isinstance(item, Mapping):
            raise EngineError(where, "a hand is an object with box, cards and front")
        extra = set(item) - {"box", "cards", "front", "back"}
        if extra:
            raise EngineError(f"{where}.{sorted(extra)[0]}", "is not a hand field (box, cards, front, back)")
        box = item.get("box")
        if isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= 99:
            raise EngineError(f"{where}.box", "a box number from 1 to 99")
        if box in hands:
            raise EngineError(f"{where}.box", f"box {box} has two hands")
        if "cards" not in item:
            raise EngineError(f"{where}.cards", "is required: the seven cards as dealt")
        if "front" not in item:
            raise EngineError(f"{where}.front", "is required: the two cards the player set in front")
        cards = parse_cards(item["cards"], f"{where}.cards", count=7, jokers=True)
        front = parse_cards(item["front"], f"{where}.front", count=2, jokers=True)
        if len(set(cards)) != 7:
            raise EngineError(f"{where}.cards", "a card appears twice in the hand")
        if len(set(front)) != 2 or not set(front) <= set(cards):
            raise EngineError(f"{where}.front", "the front is two different cards of the hand's seven")
        back = [c for c in cards if c not in front]
        if "back" in item:
            given = parse_cards(item["back"], f"{where}.back", count=5, jokers=True)
            if sorted(given) != sorted(back):
                raise EngineError(f"{where}.back", "the back must be the hand's other five cards")
            back = given
        groups.append((f"{where}.cards", cards))
        hands[box] = _Hand(box, cards, front, back, where)
    seen: dict[Card, str] = {}
    for field, cards in groups:
        for card in cards:
            if card in seen:
                what = "the joker" if card.joker else str(card)
                raise EngineError(field, f"{what} is dealt twice (also in {seen[card]}); one deck and one joker")
            seen[card] = field
    return dealer, hands


def _compare(player: tuple[Key, Key], bank: tuple[Key, Key]) -> tuple[bool, bool]:
    """(front won, back won); a copy goes to the bank (Ambiguity 17)."""
    return player[0] > bank[0], player[1] > bank[1]


def _verdict(pf: bool, pb: bool, p_foul: bool, b_foul: bool) -> str:
    """The player's result against the bank: WON, PUSH or LOST."""
    if p_foul and b_foul:
        return PUSH
    if p_foul:
        return LOST
    if b_foul:
        return WON
    if pf and pb:
        return WON
    if pf or pb:
        return PUSH
    return LOST


def _hands_text(pf: bool, pb: bool) -> str:
    return f"front {'won' if pf else 'lost'}, back {'won' if pb else 'lost'}"


class PaiGow:
    rulebook = "000"
    game = "pai_gow"
    outcome_fields = (
        Field("dealer", "cards", "Dealer's seven cards as dealt"),
        Boxes("hands", "Hands", keyed=False, fields=(
            Field("cards", "cards", "Seven cards as dealt"),
            Field("front", "cards", "The two cards set in front"),
        )),
    )
    variants = VARIANTS

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        # The player-banker's bank is not a stake on a box: the stakes against it are limited.
        return "pai_gow_bank" if bet.type == "banker" else "poker_box"

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        _version(variant)
        bankers = [b for b in bets if b.type == "banker"]
        for bet in bets:
            if bet.type not in BET_TYPES:
                raise EngineError(f"{bet.where}.type", f"{bet.type!r} is not one of: {', '.join(BET_TYPES)}")
            extra = set(bet.params) - BET_PARAMS[bet.type]
            if extra:
                raise EngineError(f"{bet.where}.{sorted(extra)[0]}", f"is not a parameter of a {bet.type} bet")
            if bet.box is None:
                raise EngineError(f"{bet.where}.box", "is required: the box whose hand the bet plays")
        if bankers:
            if not variant.get("player_banker"):
                raise EngineError(f"{bankers[0].where}.type", "this rule version has no player-banker")
            if len(bankers) > 1:
                raise EngineError(f"{bankers[1].where}.type", "one player-banker per round")
            banker = bankers[0]
            for name in ("dealer_stake", "previous_stake"):
                if name not in banker.params:
                    raise EngineError(f"{banker.where}.{name}", "is required for a player-banker")
                parse_money(banker.params[name], f"{banker.where}.{name}", allow_zero=True)
            for bet in bets:
                if bet.type == "main" and bet.box == banker.box:
                    raise EngineError(f"{bet.where}.box", f"box {bet.box} is the player-banker's, not a bet against him")

    def settle(
        self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]
    ) -> list[BetResult]:
        version = _version(variant)
        win_ratio = _ratio(variant, "win_ratio")
        commission = _ratio(variant, "commission")
        if commission > 1:
            raise EngineError("rules.commission", "a commission is a share of the win, at most 1")
        banker = next((b for b in bets if b.type == "banker"), None)
        dealer_stake = previous = ZERO
        if banker is not None:
            dealer_stake = parse_money(banker.params["dealer_stake"], f"{banker.where}.dealer_stake", allow_zero=True)
            previous = parse_money(banker.params["previous_stake"], f"{banker.where}.previous_stake", allow_zero=True)
        dealer_cards, hands = _parse_outcome(outcome, need_dealer=banker is None or dealer_stake > 0)
        for bet in bets:
            if bet.box not in hands:
                raise EngineError("outcome.hands", f"no hand for box {bet.box} ({bet.where})")
        dealer = None
        if dealer_cards is not None:
            split, clause = house_way(dealer_cards, version)
            dealer = _Dealer(split, clause)
        bank = hands[banker.box] if banker is not None else None
        bank_net = ZERO  # what the player-banker wins (+) or pays (-) against the other boxes
        lines: list[str] = []
        results: list[BetResult] = []
        for bet in bets:
            if bet.type == "banker":
                continue
            hand = hands[bet.box]
            result, verdict = _settle_main(bet, hand, bank, dealer, win_ratio, commission)
            results.append(result)
            if verdict == WON:
                bank_net -= win(bet.stake, win_ratio)
            elif verdict == LOST:
                bank_net += bet.stake
            lines.append(f"box {bet.box} {verdict}")
        if banker is not None:
            result = _settle_banker(variant, banker, bank, dealer, dealer_stake, previous, win_ratio, bank_net, lines)
            results.insert(list(bets).index(banker), result)
        return results


class _Dealer:
    def __init__(self, split: Split, clause: str) -> None:
        self.fk, self.bk, self.clause = split.fk, split.bk, clause
        self.text = (
            f"dealer front {_cards_text(split.front)} ({describe(split.fk)}) / back {_cards_text(split.back)} "
            f"({describe(split.bk)}) by {clause}"
        )


def _settle_main(bet: Bet, hand: _Hand, bank: _Hand | None, dealer: _Dealer | None, win_ratio: Fraction,
                 commission: Fraction) -> tuple[BetResult, str]:
    """A player's box against the bank: the dealer's house-way hand, or the player-banker's split."""
    if bank is not None:
        bank_keys, bank_foul, against = (bank.fk, bank.bk), bank.foul, f"player-banker {bank.text()}"
    else:
        assert dealer is not None
        bank_keys, bank_foul, against = (dealer.fk, dealer.bk), False, dealer.text
    pf, pb = _compare((hand.fk, hand.bk), bank_keys)
    verdict = _verdict(pf, pb, hand.foul, bank_foul)
    note = f"box {bet.box}: {hand.text()}; {against}"
    violations: tuple[str, ...] = ()
    if hand.foul:
        violations = (f"box {bet.box}: the front hand is not lower than the back hand (settled as an automatic loss)",)
    if verdict == WON:
        if bank_foul:
            rule = f"{RULE}: the player-banker's front is not lower than his back, he loses automatically (L1994)"
        else:
            rule = f"{RULE}: both hands beat the bank's, {win_ratio}:1 less {commission * 100} % commission (E17)"
        result = BetResult(bet.index, WON, bet.stake, win(bet.stake, win_ratio * (1 - commission)), rule, note=note)
    elif verdict == PUSH:
        if hand.foul:
            rule = f"{RULE}: both the player's and the player-banker's hands are set wrongly, push"
        else:
            rule = f"{RULE}: {_hands_text(pf, pb)}, push (a copy goes to the bank, Ambiguity 17)"
        result = push(bet, rule, note=note)
    elif hand.foul:
        result = lost(bet, f"{RULE}: a front hand not lower than the back hand loses automatically (L1994)",
                      note=note)
    else:
        result = lost(bet, f"{RULE}: both hands lose to the bank's (a copy goes to the bank, Ambiguity 17)",
                      note=note)
    return _with_violations(result, violations), verdict


def _settle_banker(variant: Mapping[str, Any], banker: Bet, bank: _Hand, dealer: _Dealer | None,
                   dealer_stake: Decimal, previous: Decimal, win_ratio: Fraction, net: Decimal,
                   lines: list[str]) -> BetResult:
    """The player-banker: his net against the boxes and the dealer, 5 % commission on a net win (L2158)."""
    banker_commission = _ratio(variant, "banker_commission")
    if banker_commission > 1:
        raise EngineError("rules.banker_commission", "a commission is a share of the win, at most 1")
    violations: list[str] = []
    note = f"player-banker box {banker.box}: {bank.text()}"
    if bank.foul:
        violations.append(f"box {banker.box}: the player-banker's front hand is not lower than his back hand "
                          "(he loses automatically to every hand)")
    if dealer_stake > previous:
        violations.append(
            f"the dealer played {dealer_stake} against the player-banker, more than the player's stake of the "
            f"previous round ({previous}); settled as if the dealer had played {previous} (L2158)"
        )
        dealer_stake = previous
    if dealer_stake > 0:
        assert dealer is not None
        pf, pb = _compare((dealer.fk, dealer.bk), (bank.fk, bank.bk))
        verdict = _verdict(pf, pb, False, bank.foul)
        if verdict == WON:
            net -= win(dealer_stake, win_ratio)
        elif verdict == LOST:
            net += dealer_stake
        lines.append(f"dealer {verdict} on {dealer_stake}")
        note += f"; {dealer.text}"
    note += "; " + ", ".join(lines) + f"; net {net}"
    if net > 0:
        rule = f"{RULE}: the player-banker's net win less {banker_commission * 100} % commission (L2158)"
        result = BetResult(banker.index, WON, banker.stake, win(net, 1 - banker_commission), rule, note=note)
    elif net == 0:
        result = push(banker, f"{RULE}: the player-banker breaks even (L2158)", note=note)
    else:
        if -net > banker.stake:
            raise EngineError(f"{banker.where}.stake",
                              f"the bank {banker.stake} does not cover the player-banker's net loss {-net}")
        result = BetResult(banker.index, LOST, banker.stake + net, ZERO,
                           f"{RULE}: the player-banker's net loss is paid from his bank (L2158)", note=note)
    return _with_violations(result, tuple(violations))


def _with_violations(result: BetResult, violations: tuple[str, ...]) -> BetResult:
    if not violations:
        return result
    return dataclasses.replace(result, violations=violations, note="; ".join((*violations, result.note)))


ENGINES = [PaiGow()]
