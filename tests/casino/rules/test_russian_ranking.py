"""Russian poker's own combinations checked against phevaluator: every five-card hand by category
(rank multisets with their suit counts), random five- and six-card hands, and each entry of the
two-combination tables found in a hand built for it."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from casino.rules.cards import RANKS, SUITS, category, parse_cards, rank_high
from casino.rules.games.russian_poker import (
    DOUBLE_000,
    OPEN_RUSSIAN_004,
    RUSSIAN_004,
    STANDARD,
    VERSION_A,
    category_of,
    classify5,
    combos,
    double_odds,
    hand_category,
    raise_payout,
)

DECK = [c for r in RANKS for s in SUITS for c in parse_cards(r + s, "deck")]


@pytest.fixture(scope="module")
def by_category():
    """All 2,598,960 hands counted by own category: each multiset of five ranks with the number of suit
    assignments (one suit: 4 when the ranks differ; the rest), checked against phevaluator on one
    representative hand of each (multiset, one suit or not) class."""
    counts: Counter[str] = Counter()
    mismatches = []
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        mult = Counter(ranks)
        if max(mult.values()) > 4:
            continue
        ways = 1
        for n in mult.values():
            ways *= comb(4, n)
        classes = [(False, ways)]
        if len(mult) == 5:
            classes = [(True, 4), (False, ways - 4)]
        for flush, n in classes:
            own = category_of(ranks, flush)
            counts[own] += n
            if flush:
                cards = [f"{RANKS[r - 2]}h" for r in ranks]
            else:  # spread the suits so no flush; a repeated rank takes the next suit
                used: Counter[int] = Counter()
                cards = []
                for i, r in enumerate(ranks):
                    suit = SUITS[used[r]] if mult[r] > 1 else SUITS[i % 2]
                    used[r] += 1
                    cards.append(f"{RANKS[r - 2]}{suit}")
            rank = rank_high(parse_cards(cards, "x"))
            if STANDARD[own] != category(rank) or (own == "royal_flush") != (rank == 1):
                mismatches.append((cards, own, category(rank)))
    return counts, mismatches


def test_enumeration_agrees_with_phevaluator(by_category):
    counts, mismatches = by_category
    assert mismatches == []
    assert sum(counts.values()) == comb(52, 5)


def test_enumeration_counts(by_category):
    counts, _ = by_category
    # Ace-King: no pair, not a straight or flush, an ace and a king: 164 rank sets (C(11,3) less A-K-Q-J-10)
    # with 4^5 - 4 suitings each.
    assert counts == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pairs": 123552,
        "pair": 1098240,
        "ace_king": (comb(11, 3) - 1) * 1020,
        "no_game": 1302540 - (comb(11, 3) - 1) * 1020,
    }


@pytest.mark.parametrize("size", [5, 6])
def test_random_hands_against_phevaluator(size):
    rng = random.Random(17 + size)
    for _ in range(4000):
        cards = rng.sample(DECK, size)
        own = hand_category(cards)
        rank = rank_high(cards)
        assert STANDARD[own] == category(rank), cards
        assert (own == "royal_flush") == (rank == 1)
        if size == 5:
            cat, sig = classify5(cards)
            assert cat == own
            # the significant cards: a pair's 2, two pairs' 4, trips' 3, quads' 4, ace & king's 2, else all 5
            size_of = {
                "pair": 2,
                "two_pairs": 4,
                "three_of_a_kind": 3,
                "four_of_a_kind": 4,
                "ace_king": 2,
                "no_game": 0,
            }
            assert len(sig) == size_of.get(cat, 5)
            assert sig <= set(cards)


def cards(text):
    return parse_cards(text, "test")


def kinds(text):
    return sorted(c.category for c in combos(cards(text)))


def test_source_examples_of_two_combinations():
    # 000-casino C-5 L1646-1659
    assert kinds("Ah Ad Kc 8s 9h") == ["ace_king", "ace_king", "pair"]
    assert kinds("4h 4d Kc Ks Ah") == ["ace_king", "ace_king", "two_pairs"]
    assert kinds("3h 3d 3c As Kh") == ["ace_king", "three_of_a_kind"]
    assert kinds("4h 4d 8c 8s Qh Qd") == ["two_pairs"] * 3
    assert kinds("2h 3d 4c 5s 6h 6d") == ["pair", "straight", "straight"]
    assert kinds("9h 9d 9c 9s Jh Jd") == ["four_of_a_kind"] + ["full_house"] * 4
    # an ace and a king inside a straight, or the pairs of two pairs, are not combinations of their own
    assert kinds("Ah Kd Qc Js Th") == ["straight"]
    # A-K-Q-J-10 with a second king: two straights (8:1) rather than straight + ace & king (5:1)
    assert raise_payout(VERSION_A, cards("Ah Kd Qc Js Th Ks"), None).odds == 8
    assert kinds("5h 5d 3c 3s 9h") == ["two_pairs"]


DOUBLE_HANDS_000 = {
    "pair+ace_king": "Ah Ad Kc 8s 9h",
    "two_pairs+ace_king": "4h 4d Kc Ks Ah",
    "three_of_a_kind+ace_king": "3h 3d 3c As Kh",
    "straight+ace_king": "Ah 2d 3c 4s 5h Kd",
    "flush+ace_king": "2h 5h 8h Jh Kh As",
    "full_house+ace_king": "Kh Kd Kc 5s 5h As",
    "four_of_a_kind+ace_king": "Kh Kd Kc Ks Ah 2c",
    "straight_flush+ace_king": "Ah 2h 3h 4h 5h Ks",
    "two_pairs+two_pairs": "4h 4d 8c 8s Qh Qd",
    "flush+pair": "2h 5h 8h Jh Qh Qs",
    "straight+straight": "2h 3d 4c 5s 6h 6d",
    "flush+straight": "2h 4h 5h 6h 9h 3s",
    "flush+flush": "2h 4h 6h 8h Th Qh",
    "full_house+full_house": "5h 5d 5c Qs Qh Qd",
    "four_of_a_kind+full_house": "9h 9d 9c 9s Jh Jd",
    "straight_flush+straight": "5h 6h 7h 8h 9h Tc",
    "straight_flush+flush": "5h 6h 7h 8h 9h 2h",
    "straight_flush+straight_flush": "5h 6h 7h 8h 9h Th",
    "royal_flush+straight": "Th Jh Qh Kh Ah 9c",
    "royal_flush+flush": "Th Jh Qh Kh Ah 2h",
    "royal_flush+straight_flush": "9h Th Jh Qh Kh Ah",
}


@pytest.mark.parametrize("key", sorted(DOUBLE_HANDS_000))
def test_each_double_of_000_is_found(key):
    pay = raise_payout(VERSION_A, cards(DOUBLE_HANDS_000[key]), None)
    assert pay.double and pay.odds == Fraction(DOUBLE_000[key])


def test_doubles_a_better_entry_always_covers():
    # pair + straight flush (51) always comes with straight flush + straight (54); pair + royal (101) with
    # royal + straight (104): the table's lower entries are found but never the best
    found = {
        (a.category, b.category) for a, b in itertools.permutations(combos(cards("5h 6h 7h 8h 9h 9s")), 2)
    }
    assert ("straight_flush", "pair") in found
    assert raise_payout(VERSION_A, cards("5h 6h 7h 8h 9h 9s"), None).odds == 54
    assert raise_payout(VERSION_A, cards("Th Jh Qh Kh Ah As"), None).odds == 104


def test_000_and_004_differ_on_a_paired_straight():
    # 000-casino counts 2,3,4,5,6,6 as two straights (8:1, its own example); 004 table 5.6 makes
    # 7,7,8,9,10,J straight + pair (5:1) and keeps straight + straight for six in a row
    assert raise_payout(VERSION_A, cards("7h 7d 8c 9s Th Jd"), None).odds == 8
    assert raise_payout(RUSSIAN_004, cards("7h 7d 8c 9s Th Jd"), None).odds == 5
    assert raise_payout(RUSSIAN_004, cards("6h 7d 8c 9s Th Jd"), None).odds == 8


def test_004_sum_rule_and_open_russian():
    # A15: pairs not in table 5.6 pay the sum of their two table 5.2 odds
    assert raise_payout(RUSSIAN_004, cards("Kh Kd Kc Ks Ah"), None).odds == 21
    assert raise_payout(RUSSIAN_004, cards("2h 5h 8h Jh Kh As"), None).odds == 6
    assert raise_payout(VERSION_A, cards("Kh Kd Kc Ks Ah"), None).odds == 21  # listed in 000
    # Open Russian: two pairs 1:1, two pairs + ace & king 1 + 1, three pairs literally 4 (A22)
    assert raise_payout(OPEN_RUSSIAN_004, cards("5h 5d 3c 3s 9h"), None).odds == 1
    assert raise_payout(OPEN_RUSSIAN_004, cards("4h 4d Kc Ks Ah"), None).odds == 2
    assert raise_payout(OPEN_RUSSIAN_004, cards("4h 4d 8c 8s Qh Qd"), None).odds == 4
    # two disjoint pairs are one combination (two pairs), never pair + pair by the sum rule
    assert raise_payout(OPEN_RUSSIAN_004, cards("4h 4d 8c 8s 2h 9d"), None).odds == 1


def test_a_double_needs_one_combination_beating_the_dealer():
    hand = cards("8c 8d As Kh 2c")
    dealer_ak = rank_high(cards("Ad Kc Qs 7h 3d"))
    dealer_nines = rank_high(cards("9d 9c Qs 7h 3d"))
    assert raise_payout(RUSSIAN_004, hand, dealer_ak).odds == 2
    assert raise_payout(RUSSIAN_004, hand, dealer_nines) is None


def test_double_conditions():
    a, b = [c for c in combos(cards("Ah Ad Kc 8s 9h")) if c.category == "pair"][0], None
    ak = [c for c in combos(cards("Ah Ad Kc 8s 9h")) if c.category == "ace_king"][0]
    assert double_odds(VERSION_A, a, ak) == 2
    assert b is None
    # the same combination twice never counts
    assert double_odds(VERSION_A, a, a) is None
