"""Lotto prizes (§28; digest §5.1, §15.1, §15.2, W1-W6) and its Plussa add-on."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lottery.rules import RoundInputError, calculate_round, default_params
from tests.lottery.rules.rules_support import PROPERTY, assert_round_books_balance, cents, d

SHARES = {"2": Fraction("0.038"), "3": Fraction("0.025"), "4": Fraction("0.03")}
FIXED = {"5": Decimal("10.00"), "6": Decimal("2.00"), "7": Decimal("5.00")}


def lotto(**kw: object) -> dict:
    return calculate_round({"game": "lotto", **kw})


def test_lotto_merge_pays_equal_prizes_to_out_of_order_classes() -> None:
    out = lotto(turnover="2000000.00", winners={"2": 16, "3": 4, "4": 900})
    assert out["classes"]["2"]["prize"] == out["classes"]["3"]["prize"] == "6300.00"


def test_lotto_merge_does_not_join_classes_with_equal_prizes() -> None:
    out = lotto(turnover="1000000.00", winners={"2": 38, "3": 25})  # 38,000 / 38 = 25,000 / 25: a tie
    assert out["merges"] == []
    assert out["classes"]["2"]["prize"] == out["classes"]["3"]["prize"] == "1000.00"


def test_lotto_class_without_winners_is_skipped_in_the_merge_comparison() -> None:
    # class 3 has no winner: class 2 (3,800) is compared with class 4 (10,000) directly
    out = lotto(turnover="1000000.00", winners={"2": 10, "4": 3})
    assert out["classes"]["2"]["merged_with"] == ["2", "4"]
    assert out["classes"]["3"]["rollover_out"] == "25000.00"


def test_lotto_jackpot_class_takes_part_in_the_merge() -> None:
    out = lotto(turnover="10000000.00", jackpot="100000.00", winners={"1": 2, "2": 1})
    # class 1: 50,000 each < class 2: 380,000 -> merged: 480,000 / 3 = 160,000
    assert out["classes"]["1"]["prize"] == out["classes"]["2"]["prize"] == "160000.00"


def test_lotto_minimum_prize_is_applied_after_the_merge() -> None:
    # class 3 computes 5.00, class 4 computes 7.50: merged first (6.75...), then lifted to 10.00
    out = lotto(turnover="1000000.00", winners={"3": 5000, "4": 4000})
    assert out["classes"]["3"]["merged_with"] == ["3", "4"]
    assert out["classes"]["3"]["prize"] == out["classes"]["4"]["prize"] == "10.00"
    assert out["totals"]["topup"] == "35000.00"  # 9,000 x 10 - 55,000


def test_lotto_minimum_pool_tops_up_a_small_class_after_the_rollover() -> None:
    params = default_params("lotto")
    params["classes"][1]["min_pool"] = "100000.00"
    out = calculate_round(
        {"game": "lotto", "turnover": "1000000.00", "rollover_in": {"2": "50000.00"}, "winners": {"2": 2}},
        params,
    )
    c = out["classes"]["2"]
    assert (c["pool"], c["topup"], c["prize"]) == ("100000.00", "12000.00", "50000.00")


def test_lotto_minimum_pool_before_rollover_is_the_alternative_reading() -> None:
    params = default_params("lotto")
    params["classes"][1]["min_pool"] = "100000.00"
    params["min_pool_mode"] = "before_rollover"
    out = calculate_round(
        {"game": "lotto", "turnover": "1000000.00", "rollover_in": {"2": "50000.00"}, "winners": {"2": 2}},
        params,
    )
    assert out["classes"]["2"]["pool"] == "150000.00"  # max(38,000, 100,000) + 50,000


def test_lotto_minimum_pool_top_up_does_not_roll_over_without_winners() -> None:
    params = default_params("lotto")
    params["classes"][1]["min_pool"] = "100000.00"
    out = calculate_round({"game": "lotto", "turnover": "1000000.00", "winners": {}}, params)
    assert out["classes"]["2"]["rollover_out"] == "38000.00"


def test_lotto_minimum_pool_top_up_rolls_over_when_the_rule_set_says_so() -> None:
    params = default_params("lotto")
    params["classes"][1]["min_pool"] = "100000.00"
    params["rollover_carries_topup"] = True
    out = calculate_round({"game": "lotto", "turnover": "1000000.00", "winners": {}}, params)
    assert out["classes"]["2"]["rollover_out"] == "100000.00"
    assert_round_books_balance(out)


def test_lotto_unwon_jackpot_stays_unpaid_unless_the_operator_decides() -> None:
    out = lotto(turnover="1000000.00", jackpot="2000000.00", winners={"3": 3})
    assert out["totals"]["jackpot"] == "0.00"
    assert out["classes"]["3"]["prize"] == "8333.33"


def test_lotto_unwon_jackpot_is_added_to_the_highest_winning_class() -> None:
    out = lotto(
        turnover="1000000.00", jackpot="2000000.00", jackpot_to_highest_class=True, winners={"3": 3, "4": 10}
    )
    assert out["classes"]["3"]["pool"] == "2025000.00"
    assert out["classes"]["3"]["prize"] == "675000.00"


def test_lotto_unwon_jackpot_replacing_the_class_pool_rolls_the_own_pool_over() -> None:
    params = default_params("lotto")
    params["unwon_jackpot"]["mode"] = "replace"
    out = calculate_round(
        {
            "game": "lotto",
            "turnover": "1000000.00",
            "jackpot": "2000000.00",
            "jackpot_to_highest_class": True,
            "winners": {"3": 4},
        },
        params,
    )
    assert out["classes"]["3"]["prize"] == "500000.00"
    assert out["classes"]["3"]["rollover_out"] == "25000.00"
    assert_round_books_balance(out)


def test_lotto_class_one_winners_need_the_confirmed_jackpot() -> None:
    with pytest.raises(RoundInputError) as info:
        lotto(turnover="1000000.00", winners={"1": 1})
    assert info.value.field == "jackpot"


def test_lotto_plussa_boost_multiplies_the_paid_base_prize_by_default() -> None:
    out = lotto(turnover="10250000.00", winners={"2": 3}, plussa={"boosted": {"2": 1}})
    assert out["classes"]["2"]["plussa"]["prize"] == "649166.65"


def test_lotto_plussa_boost_of_the_exact_prize_is_the_alternative() -> None:
    params = default_params("lotto")
    params["plussa"]["multiply"] = "exact"
    out = calculate_round(
        {"game": "lotto", "turnover": "10250000.00", "winners": {"2": 3}, "plussa": {"boosted": {"2": 1}}},
        params,
    )
    assert out["classes"]["2"]["plussa"]["prize"] == "649166.66"  # W6(a) rounding note


def test_lotto_plussa_limit_on_all_class_winners_is_the_alternative_basis() -> None:
    params = default_params("lotto")
    params["plussa"]["limit_basis"] = "class_base"
    # 200,000 class-5 winners (2,000,000 of base prizes), only 10 boosted
    out = calculate_round(
        {"game": "lotto", "turnover": "0.00", "winners": {"5": 200000}, "plussa": {"boosted": {"5": 10}}},
        params,
    )
    assert out["classes"]["5"]["plussa"]["limited"] is True
    assert out["classes"]["5"]["plussa"]["prize"] == "400010.00"


def test_lotto_plussa_never_boosts_class_one() -> None:
    with pytest.raises(RoundInputError) as info:
        lotto(turnover="1000000.00", jackpot="1000000.00", winners={"1": 1}, plussa={"boosted": {"1": 1}})
    assert info.value.field == "plussa.boosted.1"


def test_lotto_plussa_boosted_lines_cannot_outnumber_the_class_winners() -> None:
    with pytest.raises(RoundInputError) as info:
        lotto(turnover="1000000.00", winners={"5": 3}, plussa={"boosted": {"5": 4}})
    assert info.value.field == "plussa.boosted.5"


def test_lotto_rejects_a_rollover_into_a_fixed_prize_class() -> None:
    with pytest.raises(RoundInputError) as info:
        lotto(turnover="1000000.00", rollover_in={"5": "10.00"}, winners={})
    assert info.value.field == "rollover_in.5"


def test_lotto_explain_names_the_share_and_the_merge() -> None:
    out = lotto(turnover="2000000.00", winners={"2": 16, "3": 4, "4": 900})
    text = "\n".join(out["explain"])
    assert "3.80 % × 2 000 000.00 = 76 000.00" in text
    assert "Merge classes 2, 3" in text


# -----------------------------------------------------------------------------------------------
# properties
# -----------------------------------------------------------------------------------------------

counts = st.one_of(st.just(0), st.integers(1, 20), st.integers(0, 300_000))


@st.composite
def lotto_rounds(draw: st.DrawFn) -> dict:
    winners = {k: draw(counts) for k in ("1", "2", "3", "4", "5", "6", "7")}
    winners["1"] = draw(st.sampled_from([0, 0, 1, 2, 5]))
    data: dict = {
        "game": "lotto",
        "turnover": cents(draw(st.integers(0, 5_000_000_000))),
        "winners": winners,
        "rollover_in": {
            k: cents(draw(st.integers(0, 100_000_000))) for k in ("2", "3", "4") if draw(st.booleans())
        },
        "jackpot": cents(draw(st.integers(0, 2_000_000_000))),
        "jackpot_to_highest_class": draw(st.booleans()),
    }
    boosted = {}
    for k in ("2", "3", "4", "5", "6"):
        if winners[k] and draw(st.booleans()):
            boosted[k] = draw(st.integers(1, winners[k]))
    data["plussa"] = {"boosted": boosted}
    return data


def independent_money_in(data: dict, out: dict) -> Decimal:
    """Money in, computed from the input: booked shares of turnover, rollovers, the jackpot
    when paid, fixed prizes, and the operator-funded amounts the output reports (top-ups,
    Plussa boosts), which must not be negative."""
    turnover = Fraction(Decimal(data["turnover"]))
    total = sum((Fraction(math.floor(s * turnover * 100), 100) for s in SHARES.values()), Fraction(0))
    total += sum((Fraction(Decimal(v)) for v in data["rollover_in"].values()), Fraction(0))
    w = data["winners"]
    highest = next((k for k in ("2", "3", "4", "5", "6") if w[k]), None)
    if w["1"] or (data["jackpot_to_highest_class"] and highest is not None):
        total += Fraction(Decimal(data["jackpot"]))
    total += sum((Fraction(w[k] * FIXED[k]) for k in FIXED), Fraction(0))
    topup, extra = d(out["totals"]["topup"]), d(out["totals"]["extra"])
    assert topup >= 0 and extra >= 0
    return Decimal(total.numerator) / Decimal(total.denominator) + topup + extra


@PROPERTY
@given(lotto_rounds())
def test_lotto_money_in_equals_paid_plus_breakage_plus_rollover(data: dict) -> None:
    out = calculate_round(data)
    assert_round_books_balance(out)
    assert independent_money_in(data, out) == d(out["totals"]["money_in"])


@PROPERTY
@given(lotto_rounds())
def test_lotto_prizes_of_classes_one_to_four_never_increase_by_class_after_merging(data: dict) -> None:
    out = calculate_round(data)
    prizes = [d(out["classes"][k]["prize"]) for k in ("1", "2", "3", "4") if out["classes"][k]["winners"]]
    assert prizes == sorted(prizes, reverse=True)


@PROPERTY
@given(lotto_rounds())
def test_lotto_minimum_prize_of_ten_euros_holds_in_classes_one_to_four(data: dict) -> None:
    out = calculate_round(data)
    for k in ("1", "2", "3", "4"):
        if out["classes"][k]["winners"]:
            assert d(out["classes"][k]["prize"]) >= Decimal("10.00")


@PROPERTY
@given(lotto_rounds())
def test_lotto_plussa_pays_five_fold_or_base_plus_a_share_of_four_million(data: dict) -> None:
    out = calculate_round(data)
    for k, c in out["classes"].items():
        p = c.get("plussa")
        if not p:
            continue
        base, boosted, n = d(c["prize"]), d(p["prize"]), p["boosted"]
        if p["limited"]:
            assert n * base > Decimal("1000000")
            assert d(p["extra"]) == Decimal("4000000.00")
            assert n * (boosted - base) + d(p["breakage"]) == Decimal("4000000.00")
            assert boosted <= 5 * base
        else:
            assert n * base <= Decimal("1000000")
            assert boosted == 5 * base


@PROPERTY
@given(lotto_rounds(), st.randoms(use_true_random=False))
def test_lotto_result_does_not_depend_on_the_order_of_classes_in_the_input(
    data: dict, rnd: random.Random
) -> None:
    shuffled = dict(data)
    items = list(data["winners"].items())
    rnd.shuffle(items)
    shuffled["winners"] = dict(items)
    boosted = list(data["plussa"]["boosted"].items())
    rnd.shuffle(boosted)
    shuffled["plussa"] = {"boosted": dict(boosted)}
    assert calculate_round(shuffled) == calculate_round(data)


@PROPERTY
@given(st.integers(0, 5_000_000_000), st.integers(0, 5_000_000_000), st.integers(0, 5))
def test_lotto_unwon_class_shares_accumulate_over_consecutive_rounds(
    first: int, second: int, winners: int
) -> None:
    round_n = calculate_round({"game": "lotto", "turnover": cents(first), "winners": {}})
    carried = round_n["classes"]["2"]["rollover_out"]
    assert d(carried) == Decimal(first * 38 // 1000) / 100  # 3.80 % of turnover, in cents
    round_n1 = calculate_round(
        {"game": "lotto", "turnover": cents(second), "rollover_in": {"2": carried}, "winners": {"2": winners}}
    )
    c = round_n1["classes"]["2"]
    share = Decimal(second * 38 // 1000) / 100
    if winners:
        assert d(c["pool"]) == share + d(carried)
        assert d(c["paid"]) + d(c["breakage"]) == max(share + d(carried), 10 * winners)
    else:
        assert d(c["rollover_out"]) == share + d(carried)
