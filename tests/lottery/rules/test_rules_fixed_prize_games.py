"""Milli (§31; W9), Jokeri with Tuplaus (§35; W17) and Lomatonni (§36)."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lottery.rules import RoundInputError, calculate_round, default_params
from tests.lottery.rules.rules_support import PROPERTY, assert_round_books_balance, cents, d

MILLI_PRIZES = {"2": Decimal(5000), "3": Decimal(500), "4": Decimal(10), "5": Decimal(2), "6": Decimal(1)}
JOKERI_PRIZES = {"2": Decimal(20000), "3": Decimal(500), "4": Decimal(50), "5": Decimal(6), "6": Decimal(3)}


def test_milli_jackpot_is_shared_equally_by_its_winners() -> None:
    out = calculate_round({"game": "milli", "jackpot": "1000000.00", "winners": {"1": 3}})
    assert out["classes"]["1"]["prize"] == "333333.33"
    assert out["classes"]["1"]["breakage"] == "0.01"


def test_milli_jackpot_of_exactly_two_million_is_accepted() -> None:
    out = calculate_round({"game": "milli", "jackpot": "2000000.00", "winners": {"1": 1}})
    assert out["classes"]["1"]["prize"] == "2000000.00"


def test_milli_class_cap_binds_only_when_exceeded() -> None:
    out = calculate_round({"game": "milli", "winners": {"2": 200}})  # exactly 1,000,000
    assert (out["classes"]["2"]["prize"], out["classes"]["2"]["capped"]) == ("5000.00", False)


def test_milli_combined_cap_over_classes_two_to_six_is_the_alternative_reading() -> None:
    params = default_params("milli")
    params["class_cap"]["scope"] = "combined"
    out = calculate_round({"game": "milli", "winners": {"2": 150, "3": 1000, "4": 10000}}, params)
    # 750,000 + 500,000 + 100,000 = 1,350,000 > 1,000,000: every prize x 20/27
    assert [out["classes"][k]["prize"] for k in ("2", "3", "4")] == ["3703.70", "370.37", "7.40"]
    assert sum(d(out["classes"][k]["allocated"]) for k in ("2", "3", "4")) == Decimal("1000000.00")
    assert_round_books_balance(out)


def test_jokeri_unwon_jackpot_replaces_the_prize_of_the_highest_winning_class() -> None:
    out = calculate_round(
        {
            "game": "jokeri",
            "jackpot": "300000.00",
            "jackpot_to_highest_class": True,
            "winners": {"2": 3, "3": 10},
        }
    )
    assert out["classes"]["2"]["prize"] == "100000.00"
    assert out["classes"]["3"]["prize"] == "500.00"


def test_jokeri_unwon_jackpot_added_to_the_fixed_prize_is_the_alternative() -> None:
    params = default_params("jokeri")
    params["unwon_jackpot"]["mode"] = "add"
    out = calculate_round(
        {"game": "jokeri", "jackpot": "300000.00", "jackpot_to_highest_class": True, "winners": {"2": 3}},
        params,
    )
    assert out["classes"]["2"]["prize"] == "120000.00"


def test_jokeri_tuplaus_doubles_a_lower_class_prize() -> None:
    out = calculate_round({"game": "jokeri", "winners": {"5": 100}, "tuplaus": {"doubled": {"5": 7}}})
    assert out["classes"]["5"]["tuplaus"] == {"doubled": 7, "prize": "12.00", "extra": "42.00"}
    assert out["classes"]["5"]["paid"] == "642.00"


def test_jokeri_tuplaus_doubles_the_jackpot_under_the_literal_reading() -> None:
    out = calculate_round(
        {"game": "jokeri", "jackpot": "500000.00", "winners": {"1": 1}, "tuplaus": {"doubled": {"1": 1}}}
    )
    assert out["classes"]["1"]["tuplaus"]["prize"] == "1000000.00"


def test_jokeri_tuplaus_can_be_configured_not_to_double_the_jackpot() -> None:
    params = default_params("jokeri")
    params["tuplaus"]["classes"] = ["2", "3", "4", "5", "6"]
    with pytest.raises(RoundInputError) as info:
        calculate_round(
            {"game": "jokeri", "jackpot": "500000.00", "winners": {"1": 1}, "tuplaus": {"doubled": {"1": 1}}},
            params,
        )
    assert info.value.field == "tuplaus.1"


def test_jokeri_tuplaus_counted_against_the_class_two_cap_is_the_alternative() -> None:
    params = default_params("jokeri")
    params["tuplaus"]["counts_against_cap"] = True
    out = calculate_round({"game": "jokeri", "winners": {"2": 64}, "tuplaus": {"doubled": {"2": 2}}}, params)
    c = out["classes"]["2"]
    # 1,000,000 / (64 + 2) shares = 15,151.51 each; doubled lines 2 x 15,151.51 (multiply: rounded)
    assert (c["prize"], c["tuplaus"]["prize"], c["tuplaus"]["extra"]) == ("15151.51", "30303.02", "0.00")
    assert d(c["paid"]) <= Decimal("1000000.00")
    assert_round_books_balance(out)


def test_lomatonni_pays_its_two_fixed_prizes() -> None:
    out = calculate_round({"game": "lomatonni", "winners": {"1": 2, "2": 150}})
    assert (out["classes"]["1"]["paid"], out["classes"]["2"]["paid"]) == ("2000.00", "750.00")


def test_lomatonni_takes_an_operator_cap_under_paragraph_23() -> None:
    params = default_params("lomatonni")
    params["class_cap"] = {"amount": "100000.00", "classes": ["1", "2"], "scope": "per_class"}
    out = calculate_round({"game": "lomatonni", "winners": {"1": 150}}, params)
    assert (out["classes"]["1"]["prize"], out["classes"]["1"]["capped"]) == ("666.66", True)


def test_fixed_prize_game_rejects_negative_winner_counts() -> None:
    with pytest.raises(RoundInputError) as info:
        calculate_round({"game": "lomatonni", "winners": {"2": -1}})
    assert info.value.field == "winners.2"


# -----------------------------------------------------------------------------------------------
# properties
# -----------------------------------------------------------------------------------------------

counts = st.one_of(st.just(0), st.integers(1, 100), st.integers(0, 3_000_000))


@st.composite
def milli_rounds(draw: st.DrawFn) -> dict:
    winners = {k: draw(counts) for k in ("2", "3", "4", "5", "6")}
    winners["1"] = draw(st.sampled_from([0, 0, 1, 2]))
    return {"game": "milli", "jackpot": cents(draw(st.integers(0, 200_000_000))), "winners": winners}


@st.composite
def jokeri_rounds(draw: st.DrawFn) -> dict:
    winners = {k: draw(counts) for k in ("2", "3", "4", "5", "6")}
    winners["2"] = draw(st.integers(0, 200))
    winners["1"] = draw(st.sampled_from([0, 0, 1, 2]))
    doubled = {k: draw(st.integers(0, n)) for k, n in winners.items() if n}
    return {
        "game": "jokeri",
        "jackpot": cents(draw(st.integers(0, 500_000_000))),
        "jackpot_to_highest_class": draw(st.booleans()),
        "winners": winners,
        "tuplaus": {"doubled": doubled},
    }


@PROPERTY
@given(milli_rounds())
def test_milli_money_in_equals_paid_plus_breakage(data: dict) -> None:
    out = calculate_round(data)
    assert_round_books_balance(out)
    expected = sum(
        (min(data["winners"][k] * p, Decimal(1_000_000)) for k, p in MILLI_PRIZES.items()), Decimal(0)
    )
    if data["winners"]["1"]:
        expected += d(data["jackpot"])
    assert d(out["totals"]["money_in"]) == expected


@PROPERTY
@given(milli_rounds())
def test_milli_no_class_cap_is_exceeded_and_no_prize_exceeds_its_table_amount(data: dict) -> None:
    out = calculate_round(data)
    for k, p in MILLI_PRIZES.items():
        assert d(out["classes"][k]["paid"]) <= Decimal("1000000.00")
        if out["classes"][k]["winners"]:
            assert d(out["classes"][k]["prize"]) <= p


@PROPERTY
@given(jokeri_rounds())
def test_jokeri_money_in_equals_paid_plus_breakage(data: dict) -> None:
    assert_round_books_balance(calculate_round(data))


@PROPERTY
@given(jokeri_rounds())
def test_jokeri_class_two_pays_at_most_one_million_before_tuplaus_when_over_fifty_winners(data: dict) -> None:
    out = calculate_round(data)
    c = out["classes"]["2"]
    if c["winners"] > 50 and d(out["totals"]["jackpot"]) == 0:
        assert d(c["paid"]) - d(c["extra"]) <= Decimal("1000000.00")
    for c in out["classes"].values():
        if c.get("tuplaus"):
            assert d(c["tuplaus"]["prize"]) == 2 * d(c["prize"])


@PROPERTY
@given(jokeri_rounds(), st.randoms(use_true_random=False))
def test_jokeri_result_does_not_depend_on_the_order_of_classes_in_the_input(
    data: dict, rnd: random.Random
) -> None:
    shuffled = dict(data)
    items = list(data["winners"].items())
    rnd.shuffle(items)
    shuffled["winners"] = dict(items)
    assert calculate_round(shuffled) == calculate_round(data)


@PROPERTY
@given(st.integers(0, 10_000_000), st.integers(0, 10_000_000))
def test_lomatonni_money_in_equals_paid(first: int, second: int) -> None:
    out = calculate_round({"game": "lomatonni", "winners": {"1": first, "2": second}})
    assert_round_books_balance(out)
    assert d(out["totals"]["paid"]) == first * Decimal(1000) + second * Decimal(5)
