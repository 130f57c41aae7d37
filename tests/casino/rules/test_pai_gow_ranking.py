"""Pai Gow's own ranking (joker, A-2-3-4-5 second best, five aces) against phevaluator.

Complete enumerations: all 2,598,960 joker-free five-card hands (category by category, and the order
of all 7,462 equivalence classes), and all 270,725 five-card hands holding the joker (each checked by
replacing the joker with every card it may stand for, the best legal substitution winning).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from phevaluator import _pheval

from casino.rules import cards as C
from casino.rules.games import pai_gow as pg

DECK = [C.Card(r, s) for r in range(2, 15) for s in C.SUITS]
PHE_ID = {card: (card.rank - 2) * 4 + C.SUITS.index(card.suit) for card in DECK}
#: phevaluator's category names -> Pai Gow's category numbers (the same nine, joker-free).
CATEGORY = {
    "straight_flush": pg.STRAIGHT_FLUSH,
    "four_of_a_kind": pg.QUADS,
    "full_house": pg.FULL_HOUSE,
    "flush": pg.FLUSH,
    "straight": pg.STRAIGHT,
    "three_of_a_kind": pg.TRIPS,
    "two_pair": pg.TWO_PAIR,
    "pair": pg.PAIR,
    "high_card": pg.HIGH,
}
# The standard counts of 2,598,960 five-card hands (any poker reference), by category.
STANDARD_COUNTS = {
    pg.STRAIGHT_FLUSH: 40, pg.QUADS: 624, pg.FULL_HOUSE: 3744, pg.FLUSH: 5108, pg.STRAIGHT: 10200,
    pg.TRIPS: 54912, pg.TWO_PAIR: 123552, pg.PAIR: 1098240, pg.HIGH: 1302540,
}
# Four cards + the joker, counted by hand (C(52,4) = 270,725). Of the C(13,4) = 715 four-rank sets,
# 41 fit a straight (10 windows x 5 subsets, less the 9 four-runs inside two windows), 8 of them with an
# ace; 4^4 - 4 = 252 suit patterns are not one suit.
JOKER_COUNTS = {
    pg.FIVE_ACES: 1,
    pg.STRAIGHT_FLUSH: 4 * 41,
    pg.FLUSH: 4 * (715 - 41),
    pg.STRAIGHT: 41 * 252,
    pg.QUADS: 4 * 48 + 12,  # three aces + any other card; four of a rank (with the joker as ace kicker)
    pg.FULL_HOUSE: 12 * 4 * 4 + 12 * 6 * 6,  # trips + an ace; two aces + a pair
    pg.TRIPS: 6 * 66 * 16 + 12 * 4 * 44,  # two aces + two other ranks; trips + another card (no ace)
    pg.TWO_PAIR: 66 * 36 + 4 * 12 * 6 * 11 * 4,  # two pairs (no ace); an ace + a pair + another card
    pg.PAIR: 212 * 252 + 12 * 6 * 55 * 16,  # an ace + three ranks (no straight, not one suit); a pair + two
    pg.HIGH: (495 - 33) * 252,  # four ranks without an ace that fit no straight, not one suit
}


@pytest.fixture(scope="module")
def joker_free():
    """Every joker-free hand: (Pai Gow key, phevaluator rank) counted by pair."""
    ranks = [c.rank for c in DECK]
    suits = [c.suit for c in DECK]
    key5, evaluate = pg.key5, _pheval.evaluate_5cards
    seen: Counter = Counter()
    for a, b, c, d, e in combinations(range(52), 5):
        desc = tuple(sorted((ranks[a], ranks[b], ranks[c], ranks[d], ranks[e]), reverse=True))
        flush = suits[a] == suits[b] == suits[c] == suits[d] == suits[e]
        seen[(key5(desc, flush), evaluate(a, b, c, d, e))] += 1
    return seen


def test_every_joker_free_hand_has_phevaluators_category(joker_free):
    assert sum(joker_free.values()) == 2_598_960
    by_category: Counter = Counter()
    for (key, phe), n in joker_free.items():
        assert key[0] == CATEGORY[C.category(phe)], (key, phe)
        by_category[key[0]] += n
    assert by_category == STANDARD_COUNTS


def test_joker_free_order_is_phevaluators_but_for_the_wheel(joker_free):
    """One Pai Gow key per phevaluator class, and the same order, except that A-2-3-4-5 (phevaluator's
    lowest straight and straight flush) ranks second, just below A-K-Q-J-10 (C-8, L2134, L2146)."""
    key_of: dict[int, tuple] = {}
    for key, phe in joker_free:
        assert key_of.setdefault(phe, key) == key
    assert len(key_of) == 7462
    wheel_flush = C.rank_high([C.parse_card(t) for t in "5s 4s 3s 2s As".split()])
    wheel = C.rank_high([C.parse_card(t) for t in "5s 4s 3s 2h As".split()])
    royal = 1
    broadway = C.rank_high([C.parse_card(t) for t in "As Ks Qs Js Th".split()])
    expected = sorted(key_of)  # phevaluator's order, best first ...
    for moved, after in ((wheel_flush, royal), (wheel, broadway)):  # ... with each wheel second
        expected.remove(moved)
        expected.insert(expected.index(after) + 1, moved)
    by_key = sorted(key_of, key=lambda phe: key_of[phe], reverse=True)
    assert by_key == expected
    assert len(set(key_of.values())) == 7462  # no two classes share a key


def _reference_joker(hand: list[C.Card]) -> tuple:
    """The joker replaced by every card not in the hand; a substitute is allowed if it completes a
    straight, flush or straight flush, or if it is an ace; four aces and the joker are five aces."""
    if sum(c.rank == pg.ACE for c in hand) == 4:
        return (pg.FIVE_ACES, pg.ACE)
    best = None
    for sub in DECK:
        if sub in hand:
            continue
        five = hand + [sub]
        key = pg.key5(tuple(sorted((c.rank for c in five), reverse=True)), len({c.suit for c in five}) == 1)
        if key[0] in (pg.STRAIGHT, pg.FLUSH, pg.STRAIGHT_FLUSH) or sub.rank == pg.ACE:
            best = key if best is None or key > best else best
    return best


def test_every_hand_with_the_joker_takes_its_best_legal_substitute():
    """All 270,725 hands of four cards and the joker. The reference depends only on the four cards'
    ranks and whether they share a suit, so it is computed once per such class (from that class's
    first hand, over the 48 cards it may stand for) and every hand's own key is compared with it."""
    reference: dict[tuple, tuple] = {}
    counts: Counter = Counter()
    for four in combinations(DECK, 4):
        hand = list(four)
        cls = (tuple(sorted(c.rank for c in hand)), len({c.suit for c in hand}) == 1)
        if cls not in reference:
            reference[cls] = _reference_joker(hand)
        key = pg.back_key(hand + [C.JOKER])
        assert key == reference[cls], (hand, key, reference[cls])
        counts[key[0]] += 1
    assert sum(JOKER_COUNTS.values()) == sum(counts.values()) == 270_725
    assert counts == JOKER_COUNTS


def test_random_hands_compare_as_phevaluator_does_but_for_the_wheel():
    rng = random.Random(20261124)
    for _ in range(20000):
        a, b = rng.sample(DECK, 5), rng.sample(DECK, 5)
        ka, kb = pg.back_key(a), pg.back_key(b)
        ra, rb = C.rank_high(a), C.rank_high(b)
        if pg.WHEEL in (ka[1], kb[1]) and {ka[0], kb[0]} <= {pg.STRAIGHT, pg.STRAIGHT_FLUSH}:
            continue  # the wheel's place differs on purpose (tested above)
        assert (ka > kb) == (ra < rb) and (ka == kb) == (ra == rb), (a, b)


@pytest.mark.parametrize(
    ("better", "relation", "worse"),
    [
        ("As Ac Ad Ah Jk", ">", "As Ks Qs Js Ts"),  # five aces beat a royal flush
        ("As Ks Qs Js Ts", ">", "5h 4h 3h 2h Ah"),  # royal flush, then A-2-3-4-5 ...
        ("5h 4h 3h 2h Ah", ">", "Kd Qd Jd Td 9d"),  # ... above the king-high straight flush
        ("5h 4c 3h 2h Ah", ">", "Kd Qc Jd Td 9d"),  # the same for straights
        ("Ks Qs Js Ts Jk", "=", "Kd Qd Jd Td Ad"),  # the joker completes a royal flush
        ("Jk 2c 3d 4h 5s", "=", "Ac 2d 3d 4h 5s"),  # the joker as the ace of A-2-3-4-5, not the 6
        ("Jk Kc Kd 7h 2s", "=", "Ac Kh Kd 7s 2s"),  # otherwise the joker is an ace: pair of kings, ace
        ("Jk 9c 9d 9h 2s", "=", "9s 9c 9d Ah 2c"),  # not four nines: nines with an ace
        ("Jk Ac Ad Ah 2s", "=", "As Ac Ad Ah 2c"),  # four aces
        ("Jk 7s 5s 3s 2s", "=", "As 7s 5s 3s 2s"),  # in a flush, the highest missing card
        ("Jk As 6s 3s 2s", "=", "As Ks 6s 3s 2s"),
        ("Jk As 5s 3s 2s", "=", "As 4s 5s 3s 2s"),  # ... unless it completes a straight flush
        ("Jk 8s 7s 6s 5s", "=", "9s 8s 7s 6s 5s"),  # the best straight flush it completes
        ("Jk 8s 7c 6s 5s", "=", "9s 8s 7c 6s 5s"),
    ],
)
def test_joker_and_wheel_examples(better, relation, worse):
    kb = pg.back_key(C.parse_cards(better, "b", jokers=True))
    kw = pg.back_key(C.parse_cards(worse, "w", jokers=True))
    assert kb > kw if relation == ">" else kb == kw


def test_front_hand():
    f = lambda t: pg.front_key(C.parse_cards(t, "f", jokers=True))  # noqa: E731
    assert f("Jk Ah") == f("Ac Ad") > f("Kc Kd") > f("As Kd") > f("As Qd")
    assert f("Jk Kd") == f("As Kc")  # the joker is an ace in front
    back = pg.back_key(C.parse_cards("Ac Ad 7s 4h 2c", "b"))
    assert pg.front_below_back(f("Ah As"), back)  # the same pair: the back's kickers make it higher
    assert not pg.front_below_back(f("Kh Ks"), pg.back_key(C.parse_cards("Qc Qd 7s 4h 2c", "b")))


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ("As Ks Qs Js Ts", "straight flush, ace high"),
        ("5h 4c 3h 2h Ah", "straight, 5 (A-2-3-4-5) high"),
        ("Kd Qc Jd Td 9d", "straight, K high"),
        ("Jk Ac Ad Ah As", "five aces (A)"),
        ("Tc Td 9s 9h 2c", "two pair (10-9-2)"),
    ],
)
def test_describe(cards, text):
    assert pg.describe(pg.back_key(C.parse_cards(cards, "c", jokers=True))) == text
