"""Sic Bo (000-casino C-3), RAY Lucky Dice (002 §5.2) and Tuplanoppa (000-casino G-4): worked examples,
every bet over all 216 (36) throws, the house edges, validation, money properties."""

from __future__ import annotations

import copy
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import venues
from casino.rules.base import Bet, EngineError, settle_round
from casino.rules.games import dice
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("dice")
SIC_BO = dice.SIC_BO["casino"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    run_example(path)


# --------------------------------------------------------------------------------------------- Sic Bo


def win_count(predicate) -> int:
    return sum(1 for d in product(range(1, 7), repeat=3) if predicate(d))


def test_sic_bo_edges_by_independent_counting():
    """The engine's enumeration against counts made here from the rules' wording."""
    edges = dice.sic_bo_house_edge(SIC_BO)
    small = win_count(lambda d: 4 <= sum(d) <= 10 and len(set(d)) > 1)
    assert small == 105 and edges["small"] == edges["big"] == 1 - Fraction(2 * small, 216)
    assert edges["any_triple"] == 1 - Fraction(6 * 31, 216)
    assert edges["triple_5"] == 1 - Fraction(181, 216)
    assert edges["double_4"] == 1 - Fraction(win_count(lambda d: Counter(d)[4] >= 2) * 12, 216)
    assert edges["two_dice_2_4"] == 1 - Fraction(win_count(lambda d: 2 in d and 4 in d) * 7, 216)
    single = sum({0: 0, 1: 2, 2: 3, 3: 13}[Counter(d)[6]] for d in product(range(1, 7), repeat=3))
    assert edges["single_6"] == 1 - Fraction(single, 216)
    for total, odds in SIC_BO["total"].items():
        n = win_count(lambda d, t=int(total): sum(d) == t)
        assert edges[f"total_{total}"] == 1 - Fraction(n * (int(odds) + 1), 216)
    # published figures: small/big 2.78 %, single number 3.70 %, any triple 13.89 %
    assert round(float(edges["small"]), 4) == 0.0278 and round(float(edges["single_1"]), 4) == 0.037
    assert round(float(edges["any_triple"]), 4) == 0.1389
    assert len(edges) == 2 + 1 + 6 * 3 + 15 + 14


def test_every_throw_settles_every_bet():
    bets = list(dice.sic_bo_bets(SIC_BO).values())
    bets = [Bet(i, b.type, b.stake, params=b.params) for i, b in enumerate(bets)]
    engine = dice.SicBo()
    engine.parse_bets(bets, SIC_BO)
    for d in product(range(1, 7), repeat=3):
        results = engine.settle(SIC_BO, bets, {"dice": list(d)})
        assert len(results) == len(bets)
        triple = len(set(d)) == 1
        assert sum(r.status == "won" for r in results if bets[r.index].type in ("small", "big")) == (0 if triple else 1)


def test_changed_sic_bo_table():
    rules = copy.deepcopy(SIC_BO)
    rules["single"] = ["1", "2", "3"]
    assert round(float(dice.sic_bo_house_edge(rules)["single_1"]), 4) == 0.0787  # the common 3:1 table


@pytest.mark.parametrize("bet,field", [(Bet(0, "two_dice", Decimal(1), params={"numbers": [3, 3]}), "bets[0].numbers"),
                                       (Bet(0, "total", Decimal(1), params={"total": 3}), "bets[0].total"),
                                       (Bet(0, "single", Decimal(1), params={"number": 0}), "bets[0].number"),
                                       (Bet(0, "seven", Decimal(1)), "bets[0].type")])
def test_sic_bo_bad_bets(bet, field):
    with pytest.raises(EngineError) as err:
        dice.SicBo().parse_bets([bet], SIC_BO)
    assert err.value.field == field


@settings(max_examples=150, deadline=None)
@given(data=st.data(), throw=st.tuples(*[st.integers(1, 6)] * 3), kind=st.sampled_from(["game_hall", "casino"]))
def test_sic_bo_money_is_conserved(data, throw, kind):
    venue = venues.LEGAL[("000", kind)]
    pool = list(dice.sic_bo_bets(SIC_BO).values())
    picks = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8))
    stakes = data.draw(st.lists(st.integers(1, 900_000), min_size=len(picks), max_size=len(picks)))
    bets = [Bet(i, b.type, Decimal(c) / 100, player="P", params=b.params) for i, (b, c) in enumerate(zip(picks, stakes))]
    result = settle_round(dice.SicBo(), SIC_BO, venue, bets, {"dice": list(throw)})
    for r in result.bets:
        assert r.valid_stake <= venue.max_stake["dice_bet"]
        assert 0 <= r.payout <= r.voided_excess + r.valid_stake * 181
    assert sum(r.winnings - r.capped_excess for r in result.bets) <= venue.win_cap


# ----------------------------------------------------------------------------------------- Lucky Dice


def test_lucky_dice_edges_match_the_digest_returns():
    edges = dice.lucky_dice_house_edge(dice.LUCKY_DICE["ray"])
    # 002 §5.2: total 5/9 returns 88.9 %, 6/8 and 7 83.3 %, under/over 7 83.3 %, plein 86.1 %
    assert edges["total_5"] == edges["total_9"] == 1 - Fraction(4 * 8, 36)
    assert edges["total_6"] == edges["total_7"] == edges["under_7"] == edges["all_pairs"] == Fraction(1, 6)
    assert edges["plein"] == 1 - Fraction(31, 36)
    assert not {"total_3", "total_4", "total_10", "total_11"} & set(edges)  # multipliers lost


def test_lucky_dice_with_a_published_layout():
    rules = copy.deepcopy(dice.LUCKY_DICE["ray"])
    rules["positions"] = {"cheval": [[[4, 1], [4, 2]]]}
    rules["total"]["3"] = "14"
    venue = {"kind": "ray", "max_stake": {"dice_bet": "50.00"}, "win_cap": None}
    answer = compute({"kind": "round", "rulebook": "002", "venue": venue, "game": "lucky_dice", "variant": "ray",
                      "rules": rules, "outcome": {"red": 4, "green": 2},
                      "bets": [{"type": "cheval", "squares": [[4, 1], [4, 2]], "stake": "10.00"},
                               {"type": "total", "total": 3, "stake": "10.00"}]})
    assert answer["payout_per_bet"] == ["160.00", "0.00"]
    with pytest.raises(EngineError) as err:
        compute({"kind": "round", "rulebook": "002", "venue": venue, "game": "lucky_dice", "variant": "ray",
                 "rules": rules, "outcome": {"red": 4, "green": 2},
                 "bets": [{"type": "cheval", "squares": [[4, 2], [5, 2]], "stake": "10.00"}]})
    assert err.value.field == "bets[0].squares"


# ----------------------------------------------------------------------------------------- Tuplanoppa


def test_tuplanoppa_edge_from_its_posted_table():
    rules = {"dice": 2, "paytable": {"double": {"odds": "4", "wins": [[n, n] for n in range(1, 7)]}}}
    assert dice.tuplanoppa_house_edge(rules) == {"double": Fraction(1, 6)}
    with pytest.raises(EngineError) as err:
        dice.tuplanoppa_house_edge(dice.TUPLANOPPA["game_hall"])
    assert err.value.field == "rules.dice"
