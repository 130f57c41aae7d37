"""Pai Gow Poker (000-casino C-8): the worked examples (E17) as JSON pairs, the house ways clause by
clause, the validation of the outcome, and properties over random deals."""

from __future__ import annotations

import json
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import cards as C
from casino.rules.base import EngineError
from casino.rules.games import pai_gow as pg
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, partial_match

EXAMPLES = examples("pai_gow")
DECK = [C.Card(r, s) for r in range(2, 15) for s in C.SUITS] + [C.JOKER]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    pair = json.loads(path.read_text())
    partial_match(compute(pair["input"]), pair["expected"])


def test_examples_exist():
    assert {"e17a_both_hands_win", "e17b_one_wins_one_loses", "e17c_copy_goes_to_the_bank"} <= {
        p.stem for p in EXAMPLES
    }


# ----------------------------------------------------------------------------------- house ways


def _front_ranks(cards: str, version: str) -> str:
    split, _ = pg.house_way(C.parse_cards(cards, "c", jokers=True), version)
    return " ".join(pg._rank_name(r) for r in split.franks)


@pytest.mark.parametrize(
    ("cards", "a", "b", "why"),
    [
        ("Kh Qd 9c 7s 5h 3d 2c", "Q 9", "Q 9", "no pair: 2nd and 3rd highest in front"),
        ("Jk Kh Qd 9c 7s 5h 2c", "K Q", "K Q", "the joker is the highest card, an ace"),
        ("8h 8d Kc Qs 5h 3d 2c", "K Q", "K Q", "one pair in back"),
        ("Jh Jd 8c 8s Kh 3d 2c", "8 8", "8 8", "two pairs split, lower pair in front"),
        ("6h 6d 4c 4s Qh 9d 2c", "Q 9", "4 4", "A: both 6 or lower kept; B: small+middle without A/K split"),
        ("6h 6d 4c 4s Kh 9d 2c", "K 9", "K 9", "B: small+middle kept with a king"),
        ("Th Td 3c 3s Ah 9d 2c", "A 9", "A 9", "A: both 10 or lower with an ace; B: small+big with an ace"),
        ("Qh Qd 5c 5s Ah 9d 2c", "A 9", "A 9", "A: face pair + 5 or lower with an ace"),
        ("Qh Qd 7c 7s Ah 9d 2c", "7 7", "7 7", "A: face pair + 7 is split; B: middle+big always split"),
        ("9h 9d 7c 7s Jh 4d 2c", "7 7", "J 4", "B: middle+middle kept with a face card"),
        ("Ah Ad 3c 3s Kh 9d 2c", "3 3", "3 3", "aces + any pair: split"),
        ("Jk Ah 3c 3s Kh 9d 2c", "3 3", "3 3", "the joker pairs the ace"),
        ("Kh Kd 9c 9s 4h 4d 2c", "K K", "K K", "three pairs: highest in front"),
        ("9h 9d 9c Ks 7h 4d 2c", "K 7", "K 7", "trips in back"),
        ("Ah Ad Ac Ks 7h 4d 2c", "A K", "A K", "three aces: an ace and the next highest in front"),
        ("9h 9d 9c 5s 5h 5d Kc", "9 9", "9 9", "two sets of trips: a pair of the higher in front"),
        ("Kh Kd Kc 9s 9h 4d 2c", "9 9", "9 9", "full house: pair in front"),
        ("9h 9d 9c 2s 2h Ad Kc", "A K", "2 2", "A: trips + twos + ace + king keep the full house"),
        ("9h 9d 9c 5s 5h 3d 3c", "5 5", "5 5", "trips + two pairs: higher pair in front"),
        ("9h 8d 7c 6s 5h Kd 2c", "K 2", "K 2", "straight in back"),
        ("Th 9h 8d 7c 6s 5h 2c", "10 2", "10 2", "6-card straight: the one leaving the highest front"),
        ("Jk 9h 8d 7c 6s Kh 2c", "K 2", "K 2", "the joker completes the straight"),
        ("Qh 9h 7h 5h 2h 8d 6c", "8 6", "Q 2", "A: neither front king-high, flush in back; B: best front"),
        ("Kh 9h 7h 5h 2h 8d 6c", "K 2", "K 2", "A: the straight leaves a king-high front"),
        ("Ah Ad 5c 4s 3h 2d 2c", "2 2", "2 2", "straight with aces + a pair plays as two pairs"),
        ("Ah Ad Ac As 8h 8d 2c", "8 8", "A A", "A: four aces kept with sevens or better; B: largest pair"),
        ("Ah Ad Ac As 6h 6d 2c", "A A", "A A", "four aces split"),
        ("Kh Kd Kc Ks Th Td 2c", "10 10", "K K", "A: quad kings kept with tens; B: largest pair in front"),
        ("Kh Kd Kc Ks 9h 9d 2c", "K K", "K K", "quad kings split"),
        ("9h 9d 9c 9s Ah Jd 2c", "A J", "A J", "A: quad nines kept with ace + face; B: kept with an ace"),
        ("9h 9d 9c 9s Ah Td 2c", "9 9", "A 10", "A: quad nines split without ace + face"),
        ("5h 5d 5c 5s Ah Kd 2c", "A K", "A K", "quads 6-2 always in back; B: small pairs kept with an ace"),
        ("5h 5d 5c 5s Qh Jd 2c", "Q J", "5 5", "B: small + small split without an ace or king"),
        ("9h 8h 7h 6h 5h Kd 2c", "K 2", "K 2", "straight flush in back"),
        ("Kh Qh Jh Th 9h 8c As", "A K", "A K", "A: a straight in back for an ace + face front"),
        ("Ah Kh Qh Jh Th 9h 2c", "A 2", "A 2", "A: royal flush given up for a king-high front"),
        ("Ah Ad Ac As Jk Kh Kd", "K K", "A A", "five aces with kings: A keeps them; B breaks them"),
        ("Ah Ad Ac As Jk 9h 2d", "A A", "A A", "five aces broken"),
    ],
)
def test_house_way(cards, a, b, why):
    assert (_front_ranks(cards, "A"), _front_ranks(cards, "B")) == (a, b), why


def test_house_way_never_sets_a_foul_hand():
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(DECK, 7)
        for version in "AB":
            split, clause = pg.house_way(hand, version)
            assert pg.front_below_back(split.fk, split.bk), (hand, clause)
            assert sorted(split.front + split.back) == sorted(hand)


# ----------------------------------------------------------------------------------- validation


def _round(**outcome):
    return {
        "kind": "round", "rulebook": "000", "venue": "casino", "game": "pai_gow", "variant": "A",
        "bets": [{"type": "main", "stake": "10.00", "box": 1}],
        "outcome": {"dealer": "Kh Qd 9c 7s 5h 3d 2c",
                    "hands": [{"box": 1, "cards": "As Ah Kd Jc 8s 4h 3s", "front": "Kd Jc"}], **outcome},
    }


@pytest.mark.parametrize(
    ("outcome", "field"),
    [
        ({"dealer": "Kh Qd 9c 7s 5h 3d"}, "outcome.dealer"),
        ({"dealer": "Kh Qd 9c 7s 5h 3d As"}, "outcome.hands[0].cards"),
        ({"hands": [{"box": 1, "cards": "As Ah Kd Jc 8s 4h 3s", "front": "Kd 2c"}]}, "outcome.hands[0].front"),
        ({"hands": [{"box": 1, "cards": "As Ah Kd Jc 8s 4h", "front": "Kd Jc"}]}, "outcome.hands[0].cards"),
        ({"hands": [{"box": 1, "cards": "As Ah Kd Jc 8s 4h 4h", "front": "Kd Jc"}]}, "outcome.hands[0].cards"),
        ({"hands": [{"box": 2, "cards": "As Ah Kd Jc 8s 4h 3s", "front": "Kd Jc"}]}, "outcome.hands"),
        ({"hands": [{"box": 1, "cards": "As Ah Kd Jc 8s 4h 3s", "front": "Kd Jc", "back": "As Ah 8s 4h 2s"}]},
         "outcome.hands[0].back"),
        ({"dealer": "Jk Qd 9c 7s 5h 3d 2c",
          "hands": [{"box": 1, "cards": "As Jk Kd Jc 8s 4h 3s", "front": "Kd Jc"}]}, "outcome.hands[0].cards"),
        ({"winner": "player"}, "outcome.winner"),
    ],
)
def test_malformed_outcome_names_the_field(outcome, field):
    with pytest.raises(EngineError) as err:
        compute(_round(**outcome))
    assert err.value.field == field


def test_bad_bets_name_the_field():
    doc = _round()
    doc["bets"] = [{"type": "dragon", "stake": "10.00", "box": 1}]
    with pytest.raises(EngineError, match="bets\\[0\\].type"):
        compute(doc)
    doc["bets"] = [{"type": "main", "stake": "10.00"}]
    with pytest.raises(EngineError, match="bets\\[0\\].box"):
        compute(doc)
    doc["bets"] = [{"type": "banker", "stake": "10.00", "box": 1, "dealer_stake": "0.00"}]
    with pytest.raises(EngineError, match="bets\\[0\\].previous_stake"):
        compute(doc)


def test_rule_data_is_read_and_required():
    doc = _round()
    doc["rules"] = dict(pg.VARIANTS["A"], commission="10/100")
    assert compute(doc)["bets"][0]["winnings"] == "9.00"
    doc["rules"] = {k: v for k, v in pg.VARIANTS["A"].items() if k != "commission"}
    with pytest.raises(EngineError, match="rules.commission"):
        compute(doc)


def test_a_bank_that_cannot_cover_its_loss_is_refused():
    doc = _round(hands=[
        {"box": 1, "cards": "As Ah Kd Jc 8s 4h 3s", "front": "Kd Jc"},
        {"box": 2, "cards": "Qs Qh Ts 9d 6h 4c 2s", "front": "Ts 9d"},
    ])
    doc["bets"] = [{"type": "main", "stake": "500.00", "box": 1},
                   {"type": "banker", "stake": "100.00", "box": 2, "dealer_stake": "0.00", "previous_stake": "0"}]
    with pytest.raises(EngineError, match="bets\\[1\\].stake"):
        compute(doc)


# ----------------------------------------------------------------------------------- properties


def _settle(hand, front, dealer, stake="100.00", version="A"):
    doc = {
        "kind": "round", "rulebook": "000", "venue": "casino", "game": "pai_gow", "variant": version,
        "bets": [{"type": "main", "stake": stake, "box": 1}],
        "outcome": {"dealer": [str(c) for c in dealer],
                    "hands": [{"box": 1, "cards": [str(c) for c in hand], "front": [str(c) for c in front]}]},
    }
    return compute(doc)["bets"][0]


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("AB"),
       st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9000"), places=2))
def test_money_is_conserved_and_limited(rnd, version, stake):
    cards = rnd.sample(DECK, 14)
    hand, dealer = cards[:7], cards[7:]
    front = rnd.sample(hand, 2)
    bet = _settle(hand, front, dealer, str(stake), version)
    valid = min(stake, Decimal("7000.00"))
    assert Decimal(bet["valid_stake"]) == valid
    assert Decimal(bet["voided_excess"]) == stake - valid
    payout, winnings = Decimal(bet["payout"]), Decimal(bet["winnings"])
    assert payout >= 0 and winnings >= 0
    assert winnings <= valid * Decimal("0.95")
    assert payout <= stake + winnings
    assert bet["status"] in ("won", "push", "lost")


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("AB"))
def test_a_better_split_never_pays_less(rnd, version):
    """Of two legal splits of the same cards against the same dealer, the one at least as good in
    both hands never pays less."""
    cards = rnd.sample(DECK, 14)
    hand, dealer = cards[:7], cards[7:]
    legal = [s for s in pg.splits(hand) if pg.front_below_back(s.fk, s.bk)]
    one, two = rnd.sample(legal, 2) if len(legal) > 1 else (legal[0], legal[0])
    if (one.fk, one.bk) > (two.fk, two.bk):
        one, two = two, one
    if not (two.fk >= one.fk and two.bk >= one.bk):
        return
    low = Decimal(_settle(hand, one.front, dealer, version=version)["payout"])
    high = Decimal(_settle(hand, two.front, dealer, version=version)["payout"])
    assert high >= low


def test_win_cap_applies_to_a_player_banker():
    doc = _round(hands=[
        {"box": 1, "cards": "Kd 9c 8c 7s 5h 4d 2c", "front": "4d 2c"},
        {"box": 2, "cards": "Qs Qh Ts 9d 6h 4c 2s", "front": "Ts 9d"},
    ])
    doc["venue"] = {"kind": "casino", "win_cap": "1000.00"}
    doc["outcome"]["dealer"] = "Ks 8d 7c 6s 5c 3h 2h"
    doc["bets"] = [{"type": "main", "stake": "5000.00", "box": 1, "player": "A"},
                   {"type": "banker", "stake": "10.00", "box": 2, "player": "B", "dealer_stake": "0", "previous_stake": "0"}]
    out = compute(doc)
    banker = out["bets"][1]
    assert banker["status"] == "won" and Decimal(banker["winnings"]) == Decimal("1000.00")
    assert Decimal(banker["capped_excess"]) == Decimal("3750.00")  # 5000 less 5 % = 4750, capped at 1000


def test_a_fouled_player_banker_loses_to_every_box():
    doc = _round(hands=[
        {"box": 1, "cards": "Kd 9c 8c 7s 5h 4d 2c", "front": "4d 2c"},
        {"box": 2, "cards": "Qs Qh Ts 9d 6h 4c 2s", "front": "Qs Qh"},
    ])
    doc["bets"] = [{"type": "main", "stake": "100.00", "box": 1},
                   {"type": "banker", "stake": "500.00", "box": 2, "dealer_stake": "0", "previous_stake": "0"}]
    del doc["outcome"]["dealer"]
    box, banker = compute(doc)["bets"]
    assert (box["status"], box["winnings"]) == ("won", "95.00")
    assert (banker["status"], banker["payout"]) == ("lost", "400.00")
    assert "front hand is not lower" in banker["violations"][0]
