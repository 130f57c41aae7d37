"""Eurojackpot (§29; digest §5.2, W7) and Vikinglotto (§30; digest §5.3, W8)."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lottery.rules import RoundInputError, calculate_round, default_params
from tests.lottery.rules.rules_support import PROPERTY, assert_round_books_balance, cents, d

EJ_CLASSES = [str(k) for k in range(1, 13)]
VL_CLASSES = [str(k) for k in range(1, 10)]


def ej(**kw: object) -> dict:
    return calculate_round({"game": "eurojackpot", **kw})


def vl(**kw: object) -> dict:
    return calculate_round({"game": "vikinglotto", **kw})


def test_eurojackpot_prize_pool_is_half_of_turnover_and_the_fund_nine_percent_of_it() -> None:
    out = ej(turnover="80000000.00", winners={"2": 1})
    assert out["totals"]["prize_pool"] == "40000000.00"
    assert out["totals"]["fund"] == "3600000.00"


def test_eurojackpot_prizes_round_down_to_ten_cents() -> None:
    out = ej(turnover="80000000.00", winners={"3": 9})
    assert out["classes"]["3"]["prize"] == "215555.50"  # 1,940,000 / 9 = 215,555.55…
    assert out["classes"]["3"]["breakage"] == "0.50"


def test_eurojackpot_jackpot_pool_has_a_ten_million_minimum() -> None:
    out = ej(turnover="10000000.00", winners={"1": 1})
    assert out["classes"]["1"]["prize"] == "10000000.00"
    assert out["classes"]["1"]["topup"] == "8200000.00"


def test_eurojackpot_jackpot_above_120_million_overflows_to_class_two() -> None:
    out = ej(turnover="100000000.00", rollover_in={"1": "110000000.00"}, winners={"1": 1, "2": 3})
    assert out["classes"]["1"]["prize"] == "120000000.00"
    assert out["classes"]["1"]["capped"] is True
    assert out["classes"]["2"]["pool"] == "12300000.00"  # 4,300,000 + 8,000,000 excess


def test_eurojackpot_unwon_jackpot_rolls_over_at_most_120_million() -> None:
    out = ej(turnover="100000000.00", rollover_in={"1": "110000000.00"}, winners={"2": 3})
    assert out["classes"]["1"]["rollover_out"] == "120000000.00"
    assert out["classes"]["2"]["pool"] == "12300000.00"
    assert_round_books_balance(out)


def test_eurojackpot_class_prizes_can_be_imported_from_the_central_system() -> None:
    out = ej(
        turnover="80000000.00",
        winners={"1": 1, "5": 7},
        central={"1": {"prize": "54000000.00", "winners": 3}},
    )
    c = out["classes"]["1"]
    assert (c["prize"], c["paid"], c["imported"], c["central_winners"]) == (
        "54000000.00",
        "54000000.00",
        True,
        3,
    )
    assert out["classes"]["1"]["rollover_out"] == "0.00"
    assert_round_books_balance(out)


def test_eurojackpot_has_no_confirmed_jackpot_input() -> None:
    with pytest.raises(RoundInputError) as info:
        ej(turnover="1000.00", jackpot="10.00", winners={})
    assert info.value.field == "jackpot"


def test_eurojackpot_rejects_an_unknown_class() -> None:
    with pytest.raises(RoundInputError) as info:
        ej(turnover="1000.00", winners={"13": 1})
    assert info.value.field == "winners.13"


def test_vikinglotto_common_class_needs_its_distribution_sum_when_it_has_winners() -> None:
    with pytest.raises(RoundInputError) as info:
        vl(turnover="2000000.00", winners={"1": 1})
    assert info.value.field == "common_pools.1"


def test_vikinglotto_common_class_shares_its_distribution_sum() -> None:
    out = vl(turnover="2000000.00", winners={"2": 4}, common_pools={"2": "1000000.00"})
    assert out["classes"]["2"]["prize"] == "250000.00"


def test_vikinglotto_national_class_cannot_be_imported() -> None:
    with pytest.raises(RoundInputError) as info:
        vl(turnover="2000000.00", winners={"4": 1}, central={"4": {"prize": "10.00"}})
    assert info.value.field == "central.4"


def test_vikinglotto_plussa_boosts_an_imported_common_class_prize() -> None:
    out = vl(
        turnover="2000000.00",
        winners={"2": 2},
        central={"2": {"prize": "123456.70"}},
        plussa={"boosted": {"2": 1}},
    )
    assert out["classes"]["2"]["plussa"]["prize"] == "617283.50"


def test_vikinglotto_has_no_ten_euro_minimum() -> None:
    out = vl(turnover="100000.00", winners={"8": 10000})
    assert out["classes"]["8"]["prize"] == "0.75"


def test_vikinglotto_rollover_carries_the_topped_up_pool_by_default() -> None:
    params = default_params("vikinglotto")
    params["classes"][0]["min_pool"] = "500000.00"
    out = calculate_round(
        {"game": "vikinglotto", "turnover": "1000.00", "common_pools": {"1": "100000.00"}, "winners": {}},
        params,
    )
    assert out["classes"]["1"]["rollover_out"] == "500000.00"  # §30: "jakosumma siirtyy"
    assert_round_books_balance(out)


def test_vikinglotto_reports_the_per_line_common_contribution() -> None:
    assert (
        vl(turnover="2000000.00", lines_in_draw=2000000, winners={})["totals"]["common_contribution"]
        == "370000.00"
    )


# -----------------------------------------------------------------------------------------------
# properties
# -----------------------------------------------------------------------------------------------

counts = st.one_of(st.just(0), st.integers(1, 50), st.integers(0, 2_000_000))


@st.composite
def ej_rounds(draw: st.DrawFn) -> dict:
    data: dict = {
        "game": "eurojackpot",
        "turnover": cents(draw(st.integers(0, 40_000_000_000))),
        "winners": {k: draw(counts) if k != "1" else draw(st.sampled_from([0, 0, 1, 3])) for k in EJ_CLASSES},
        "rollover_in": {
            k: cents(draw(st.integers(0, 15_000_000_000))) for k in EJ_CLASSES if draw(st.booleans())
        },
    }
    if draw(st.booleans()):
        k = draw(st.sampled_from(EJ_CLASSES))
        data["central"] = {k: {"prize": cents(draw(st.integers(0, 10_000_000))), "winners": 5}}
        data["rollover_in"].pop(k, None)  # the central system keeps an imported class's rollover
    return data


@st.composite
def vl_rounds(draw: st.DrawFn) -> dict:
    winners = {k: draw(counts) for k in VL_CLASSES}
    data: dict = {
        "game": "vikinglotto",
        "turnover": cents(draw(st.integers(0, 2_000_000_000))),
        "winners": winners,
        "rollover_in": {
            k: cents(draw(st.integers(0, 100_000_000))) for k in VL_CLASSES[:8] if draw(st.booleans())
        },
        "common_pools": {k: cents(draw(st.integers(0, 3_000_000_000))) for k in ("1", "2")},
        "lines_in_draw": draw(st.integers(0, 10_000_000)),
    }
    if draw(st.booleans()):
        data["central"] = {"2": {"prize": cents(draw(st.integers(0, 100_000_000)))}}
        data["rollover_in"].pop("2", None)
        data["common_pools"].pop("2")
    data["plussa"] = {"boosted": {k: draw(st.integers(0, winners[k])) for k in VL_CLASSES[1:8] if winners[k]}}
    return data


def non_imported_prizes(out: dict, classes: list[str]) -> list[Decimal]:
    return [
        d(out["classes"][k]["prize"])
        for k in classes
        if out["classes"][k]["winners"] and not out["classes"][k].get("imported")
    ]


@PROPERTY
@given(ej_rounds())
def test_eurojackpot_money_in_equals_paid_plus_breakage_plus_rollover_plus_fund(data: dict) -> None:
    out = calculate_round(data)
    assert_round_books_balance(out)
    pool = d(out["totals"]["prize_pool"])
    rollover = sum((d(v) for v in data["rollover_in"].values()), Decimal(0))
    imported = sum((d(c["paid"]) for c in out["classes"].values() if c.get("imported")), Decimal(0))
    # money in = the prize pool (less the sub-cent remainders of 12 shares and the fund)
    #            + rollovers + operator top-ups + imported prizes
    gap = pool + rollover + d(out["totals"]["topup"]) + imported - d(out["totals"]["money_in"])
    assert Decimal(0) <= gap < Decimal("0.13")


@PROPERTY
@given(ej_rounds())
def test_eurojackpot_prizes_never_increase_by_class_after_merging(data: dict) -> None:
    prizes = non_imported_prizes(calculate_round(data), EJ_CLASSES)
    assert prizes == sorted(prizes, reverse=True)


@PROPERTY
@given(ej_rounds())
def test_eurojackpot_jackpot_pool_stays_within_its_minimum_and_maximum(data: dict) -> None:
    c = calculate_round(data)["classes"]["1"]
    if c.get("imported"):
        return
    assert d(c["pool"]) <= Decimal("120000000.00")
    assert d(c["rollover_out"]) <= Decimal("120000000.00")
    if c["winners"]:
        assert d(c["pool"]) >= Decimal("10000000.00")


@PROPERTY
@given(vl_rounds())
def test_vikinglotto_money_in_equals_paid_plus_breakage_plus_rollover(data: dict) -> None:
    out = calculate_round(data)
    assert_round_books_balance(out)


@PROPERTY
@given(vl_rounds())
def test_vikinglotto_prizes_never_increase_by_class_after_merging(data: dict) -> None:
    prizes = non_imported_prizes(calculate_round(data), VL_CLASSES[:8])
    assert prizes == sorted(prizes, reverse=True)


@PROPERTY
@given(vl_rounds(), st.randoms(use_true_random=False))
def test_vikinglotto_result_does_not_depend_on_the_order_of_classes_in_the_input(
    data: dict, rnd: random.Random
) -> None:
    shuffled = dict(data)
    items = list(data["winners"].items())
    rnd.shuffle(items)
    shuffled["winners"] = dict(items)
    assert calculate_round(shuffled) == calculate_round(data)


@PROPERTY
@given(vl_rounds())
def test_vikinglotto_plussa_multiplies_at_most_one_million_per_class(data: dict) -> None:
    for c in calculate_round(data)["classes"].values():
        p = c.get("plussa")
        if not p:
            continue
        base, n = d(c["prize"]), p["boosted"]
        if p["limited"]:
            assert n * base > Decimal("1000000") and d(p["extra"]) == Decimal("4000000.00")
            assert d(p["breakage"]) >= 0
        else:
            assert d(p["prize"]) == 5 * base
