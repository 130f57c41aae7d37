"""RA II malfunction compensation and Billionaire's void-and-refund: properties beyond the worked examples."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import EngineError
from casino.rules.jsonio import compute
from casino.rules.machines.malfunction import free_games_value

amounts = st.integers(1, 100_000).map(lambda c: f"{c // 100}.{c % 100:02d}")


def interruption(**kw):
    return compute({"kind": "malfunction_compensation", "rulebook": "000", "case": "interruption", **kw})


@settings(max_examples=200, deadline=None)
@given(stake=amounts, smallest=st.one_of(st.none(), amounts), wins=st.one_of(st.none(), amounts),
       credits=st.one_of(st.none(), amounts),
       rounds=st.lists(st.tuples(amounts, st.integers(1, 50)), min_size=1, max_size=5), data=st.data())
def test_compensation_is_never_negative_and_b_is_at_least_the_stake(stake, smallest, wins, credits, rounds, data):
    unplayed = data.draw(st.integers(0, sum(g for _, g in rounds)))
    doc = {"round_stake": stake, "certain_win": {"smallest_win": smallest},
           "free_games": {"unplayed": unplayed, "won_on": [{"stake": s, "games": g} for s, g in rounds]}}
    if wins:
        doc["established_wins"] = wins
    if credits:
        doc["credits"] = credits
    answer = interruption(**doc)
    total = Decimal(answer["compensation"])
    assert total >= 0
    b = next(i for i in answer["items"] if i["item"] == "b")
    assert Decimal(b["amount"]) >= Decimal(stake)
    # only item (c) can have sub-cents; rounding it down is the one rounding of the total
    assert sum(Decimal(i["amount"]) for i in answer["items"]) == total


@settings(max_examples=200, deadline=None)
@given(rounds=st.lists(st.tuples(st.integers(1, 10_000), st.integers(1, 50)), min_size=1, max_size=6),
       unplayed=st.integers(0, 300))
def test_average_stake_lies_between_the_smallest_and_largest_winning_stake(rounds, unplayed):
    won_on = [(Decimal(c) / 100, g) for c, g in rounds]
    for mean in ("simple", "weighted"):
        value = free_games_value(unplayed, won_on, mean)
        low, high = min(s for s, _ in won_on), max(s for s, _ in won_on)
        assert unplayed * Fraction(low) <= value <= unplayed * Fraction(high)


def test_one_winning_round_gives_the_same_under_both_means():
    won_on = [(Decimal("0.40"), 15)]
    assert free_games_value(6, won_on, "simple") == free_games_value(6, won_on, "weighted") == Fraction(12, 5)


def test_sub_cent_free_game_value_is_rounded_down_once():
    answer = interruption(free_games={"unplayed": 3, "won_on": [{"stake": "0.25", "games": 2},
                                                              {"stake": "0.50", "games": 2}]})
    assert answer["items"][0]["exact"] == "1.125" and answer["compensation"] == "1.12"
    assert answer["breakage"] == "0.005"


@pytest.mark.parametrize("doc,field", [
    ({}, "case"),
    ({"certain_win": {"smallest_win": "0.40"}}, "round_stake"),
    ({"unplayable": True}, "round_stake"),
    ({"certain_win": {}, "round_stake": "1.00"}, "certain_win.smallest_win"),
    ({"free_games": {"unplayed": 1, "won_on": []}}, "free_games.won_on"),
    ({"free_games": {"unplayed": 1, "won_on": [{"stake": "1.00", "games": 1}], "mean": "median"}}, "free_games.mean"),
    ({"credits": "-1.00"}, "credits"),
])
def test_bad_interruption_input_names_the_field(doc, field):
    with pytest.raises(EngineError) as err:
        interruption(**doc)
    assert err.value.field == field


def test_visual_error_needs_the_recorded_value_of_what_was_displayed():
    with pytest.raises(EngineError) as err:
        compute({"kind": "malfunction_compensation", "rulebook": "000", "case": "visual_error",
                 "displayed": {"credits": "50.00"}, "recorded": {"win": "1.00"}})
    assert err.value.field == "recorded.credits"


def test_visual_error_credits_the_recorded_result_even_when_the_display_showed_less():
    answer = compute({"kind": "malfunction_compensation", "rulebook": "000", "case": "visual_error",
                      "displayed": {"win": "0.00", "result": "7-7-cherry"}, "recorded": {"win": "50.00",
                                                                                       "result": "7-7-7"}})
    assert answer["credited"] == {"win": "50.00", "result": "7-7-7"} and len(answer["differences"]) == 2


@settings(max_examples=150, deadline=None)
@given(stake=amounts, wins=st.integers(0, 10_000_00), credits_extra=st.integers(0, 10_000_00))
def test_billionaire_restores_the_credit_meter_to_before_the_round(stake, wins, credits_extra):
    # before the round: C0; after stake and wins: C0 - stake + wins; the malfunction brings back C0.
    c0 = Decimal(stake) + Decimal(credits_extra) / 100
    at_malfunction = c0 - Decimal(stake) + Decimal(wins) / 100
    answer = compute({"kind": "malfunction_compensation", "rulebook": "004", "case": "malfunction",
                      "last_stake": stake, "wins_credited": f"{Decimal(wins) / 100:.2f}",
                      "credits_at_malfunction": f"{at_malfunction:.2f}"})
    assert Decimal(answer["credits_after"]) == c0
    assert Decimal(answer["compensation"]) == Decimal(stake) > 0
