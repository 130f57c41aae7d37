"""Money Wheel / Big Six (000-casino G-3, C-2): worked examples, void spins, validation, the house
edge of every symbol from the sector counts, money properties."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import venues
from casino.rules.base import Bet, EngineError, settle_round
from casino.rules.games import wheels
from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("wheels")
ENGINE = wheels.ENGINES[0]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    run_example(path)


def test_sector_table_is_the_rulebooks():
    table = wheels.symbols(wheels.VARIANTS["casino"])
    by_odds: dict[Fraction, int] = {}
    for odds, count in table.values():
        by_odds[odds] = by_odds.get(odds, 0) + count
    assert by_odds == {1: 23, 2: 15, 5: 8, 10: 4, 20: 2, 45: 2} and sum(by_odds.values()) == 54


def test_house_edge_per_symbol_from_the_sector_counts():
    edges = wheels.house_edge(wheels.VARIANTS["casino"])
    # published Big Six figures: 1:1 14.81 %, 2:1 16.67 %, 5:1 11.11 %, 10:1 18.52 %, 20:1 22.22 %, 45:1 14.81 %
    expected = {"1": "0.1481", "2": "0.1667", "5": "0.1111", "10": "0.1852", "20": "0.2222", "45A": "0.1481"}
    for symbol, figure in expected.items():
        assert round(float(edges[symbol]), 4) == float(figure)
    assert edges["1"] == Fraction(8, 54) and edges["45A"] == edges["45B"] == Fraction(8, 54)


def test_a_changed_sector_table_changes_the_edge():
    rules = copy.deepcopy(wheels.VARIANTS["casino"])
    rules["sectors"][0]["odds"] = "2"  # 23 sectors of 1:1 paying 2:1
    assert wheels.house_edge(rules)["1"] == 1 - Fraction(23 * 3, 54)
    rules["sectors"][0]["count"] = 22
    with pytest.raises(EngineError) as err:
        wheels.house_edge(rules)
    assert err.value.field == "rules.sectors"


@pytest.mark.parametrize("outcome,field", [({"symbol": "7", "revolutions": 5}, "outcome.symbol"),
                                           ({"symbol": "1", "revolutions": -1}, "outcome.revolutions"),
                                           ({"symbol": "1", "revolutions": 5, "tilt": True}, "outcome.tilt")])
def test_bad_outcomes(outcome, field):
    bet = Bet(0, "symbol", Decimal("1.00"), params={"symbol": "1"})
    with pytest.raises(EngineError) as err:
        ENGINE.settle(wheels.VARIANTS["casino"], [bet], outcome)
    assert err.value.field == field


def test_bad_bets():
    with pytest.raises(EngineError) as err:
        ENGINE.parse_bets([Bet(0, "symbol", Decimal("1.00"), params={"symbol": "45"})], wheels.VARIANTS["casino"])
    assert err.value.field == "bets[0].symbol"


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(["game_hall", "casino"]), symbols=st.lists(st.sampled_from(
       ["1", "2", "5", "10", "20", "45A", "45B"]), min_size=1, max_size=8), data=st.data(),
       stop=st.sampled_from(["1", "2", "5", "10", "20", "45A", "45B"]), revs=st.integers(0, 9))
def test_money_is_conserved_and_limits_hold(kind, symbols, data, stop, revs):
    venue = venues.LEGAL[("000", kind)]
    stakes = data.draw(st.lists(st.integers(1, 600_000), min_size=len(symbols), max_size=len(symbols)))
    bets = [Bet(i, "symbol", Decimal(c) / 100, player="P", params={"symbol": s})
            for i, (s, c) in enumerate(zip(symbols, stakes))]
    result = settle_round(ENGINE, wheels.VARIANTS[kind], venue, bets, {"symbol": stop, "revolutions": revs})
    for bet, r in zip(bets, result.bets):
        assert r.valid_stake <= venue.max_stake["wheel_bet"]
        assert 0 <= r.payout <= r.voided_excess + r.valid_stake * 46
        if revs < 4:
            assert r.status == "void" and r.payout == bet.stake
    assert sum(r.winnings - r.capped_excess for r in result.bets) <= venue.win_cap
