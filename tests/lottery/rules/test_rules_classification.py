"""Draw formats, result and line validation, and line classification (§3, §11-§20, §22)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lottery.rules import InvalidPicks, InvalidResult, RulesError, default_params
from lottery.rules.bitmask import contains, hits, mask_to_picks, picks_to_mask
from lottery.rules.games import (
    eurojackpot,
    jokeri,
    kaikki_tai_ei_mitaan,
    keno,
    lomatonni,
    lotto,
    milli,
    synttarit,
    tahdenlento,
    vikinglotto,
)
from tests.lottery.rules.rules_support import PROPERTY

LOTTO_DRAW = lotto.validate_result([1, 2, 3, 4, 5, 6, 7], 8, plus=11)


# -- Lotto ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ([1, 2, 3, 4, 5, 6, 7], "1"),
        ([1, 2, 3, 4, 5, 6, 8], "2"),
        ([1, 2, 3, 4, 5, 6, 9], "3"),
        ([1, 2, 3, 4, 5, 8, 9], "4"),
        ([1, 2, 3, 4, 9, 10, 11], "5"),
        ([1, 2, 3, 8, 9, 10, 11], "6"),
        ([1, 2, 3, 9, 10, 11, 12], None),
        ([1, 2, 8, 9, 10, 11, 12], None),
    ],
)
def test_lotto_line_gets_the_single_highest_class(numbers: list[int], expected: str | None) -> None:
    assert lotto.classify(lotto.validate_line(numbers), LOTTO_DRAW).class_key == expected


def test_lotto_plussa_line_with_four_correct_gets_the_boosted_class_five_only() -> None:
    result = lotto.classify(lotto.validate_line([1, 2, 3, 4, 20, 21, 22], plus=11), LOTTO_DRAW)
    assert (result.class_key, result.boosted) == ("5", True)  # W6(f): not also the 5 € class 7


def test_lotto_plussa_line_with_only_the_plus_number_correct_gets_class_seven() -> None:
    result = lotto.classify(lotto.validate_line([1, 2, 20, 21, 22, 23, 24], plus=11), LOTTO_DRAW)
    assert (result.class_key, result.boosted) == ("7", False)


def test_lotto_plussa_never_boosts_the_jackpot_class() -> None:
    result = lotto.classify(lotto.validate_line([1, 2, 3, 4, 5, 6, 7], plus=11), LOTTO_DRAW)
    assert (result.class_key, result.boosted) == ("1", False)


def test_lotto_line_outside_plussa_ignores_the_plus_number() -> None:
    assert lotto.classify(lotto.validate_line([1, 2, 20, 21, 22, 23, 24]), LOTTO_DRAW).class_key is None


def test_lotto_result_with_additional_number_among_main_numbers_is_rejected() -> None:
    with pytest.raises(InvalidResult, match="additional number 7 is duplicated"):
        lotto.validate_result([1, 2, 3, 4, 5, 6, 7], 7)


def test_lotto_result_number_out_of_range_is_named() -> None:
    with pytest.raises(InvalidResult, match="number 41 is out of range 1..40"):
        lotto.validate_result([1, 2, 3, 4, 5, 6, 41], 8)


def test_lotto_line_with_a_duplicate_is_rejected() -> None:
    with pytest.raises(InvalidPicks, match="number 5 is duplicated"):
        lotto.validate_line([1, 2, 3, 4, 5, 5, 7])


def test_lotto_line_with_six_numbers_is_rejected_with_the_count() -> None:
    with pytest.raises(InvalidPicks, match="expected 7 numbers, got 6"):
        lotto.validate_line([1, 2, 3, 4, 5, 6])


def test_lotto_plus_number_above_thirty_is_rejected() -> None:
    with pytest.raises(InvalidResult, match="31 is out of range 1..30"):
        lotto.validate_result([1, 2, 3, 4, 5, 6, 7], 8, plus=31)


# -- Eurojackpot, Vikinglotto, Milli ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("numbers", "stars", "expected"),
    [
        ([1, 2, 3, 4, 5], [1, 2], "1"),
        ([1, 2, 3, 4, 5], [1, 9], "2"),
        ([1, 2, 3, 4, 5], [8, 9], "3"),
        ([1, 2, 3, 4, 9], [1, 2], "4"),
        ([1, 2, 3, 4, 9], [1, 9], "5"),
        ([1, 2, 3, 8, 9], [1, 2], "6"),
        ([1, 2, 3, 4, 9], [8, 9], "7"),
        ([1, 2, 7, 8, 9], [1, 2], "8"),
        ([1, 2, 3, 8, 9], [1, 9], "9"),
        ([1, 2, 3, 8, 9], [8, 9], "10"),
        ([1, 6, 7, 8, 9], [1, 2], "11"),
        ([1, 2, 7, 8, 9], [1, 9], "12"),
        ([1, 2, 7, 8, 9], [8, 9], None),
        ([1, 6, 7, 8, 9], [1, 9], None),
        ([6, 7, 8, 9, 10], [1, 2], None),
    ],
)
def test_eurojackpot_only_the_twelve_table_combinations_win(
    numbers: list[int], stars: list[int], expected: str | None
) -> None:
    draw = eurojackpot.validate_result([1, 2, 3, 4, 5], [1, 2])
    assert eurojackpot.classify(eurojackpot.validate_line(numbers, stars), draw).class_key == expected


def test_eurojackpot_star_number_thirteen_is_rejected() -> None:
    with pytest.raises(InvalidResult, match="13 is out of range 1..12"):
        eurojackpot.validate_result([1, 2, 3, 4, 5], [1, 13])


def test_vikinglotto_classifies_by_main_numbers_and_viking_number() -> None:
    draw = vikinglotto.validate_result([1, 2, 3, 4, 5, 6], 3, plus=7)
    assert vikinglotto.classify(vikinglotto.validate_line([1, 2, 3, 4, 5, 6], 3), draw).class_key == "1"
    assert vikinglotto.classify(vikinglotto.validate_line([1, 2, 3, 10, 11, 12], 2), draw).class_key == "8"
    plus_only = vikinglotto.classify(vikinglotto.validate_line([1, 2, 10, 11, 12, 13], 2, plus=7), draw)
    assert plus_only.class_key == "9"
    boosted = vikinglotto.classify(vikinglotto.validate_line([1, 2, 3, 4, 5, 6], 1, plus=7), draw)
    assert (boosted.class_key, boosted.boosted) == ("2", True)


def test_vikinglotto_viking_number_six_is_rejected() -> None:
    with pytest.raises(InvalidResult, match="Viking number: 6 is out of range 1..5"):
        vikinglotto.validate_result([1, 2, 3, 4, 5, 6], 6)


def test_milli_additional_number_separates_classes_two_and_three() -> None:
    draw = milli.validate_result([1, 2, 3, 4, 5, 6], 7)
    assert milli.classify(milli.validate_line([1, 2, 3, 4, 5, 7]), draw).class_key == "2"
    assert milli.classify(milli.validate_line([1, 2, 3, 4, 5, 8]), draw).class_key == "3"
    assert milli.classify(milli.validate_line([1, 2, 8, 9, 10, 11]), draw).class_key == "6"
    assert milli.classify(milli.validate_line([1, 8, 9, 10, 11, 12]), draw).class_key is None


# -- Keno --------------------------------------------------------------------------------------------

KENO_DRAW = keno.validate_result([3, 12, 25, 33, 58, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17], 25)


def test_keno_kunkku_number_on_the_line_selects_the_kunkku_column() -> None:
    line = keno.validate_line([3, 12, 25, 33, 41, 58, 66], kunkku=True)
    result = keno.classify(line, KENO_DRAW)
    assert (result.class_key, result.column, str(result.multiplier)) == ("7-5-kunkku", "kunkku", "30")


def test_keno_level_is_the_number_of_picks() -> None:
    assert keno.validate_line([1, 2]).level == 2
    with pytest.raises(InvalidPicks, match="picks 2..11 numbers"):
        keno.validate_line([1])
    with pytest.raises(InvalidPicks, match="picks 2..11 numbers"):
        keno.validate_line(list(range(1, 13)))


def test_keno_result_needs_twenty_numbers() -> None:
    with pytest.raises(InvalidResult, match="expected 20 numbers, got 19"):
        keno.validate_result(list(range(1, 20)), 1)


def test_keno_prize_table_matches_the_source_in_every_cell() -> None:
    table = default_params("keno")["multipliers"]
    # a few cells checked against §32 of the original (levels 11..2)
    assert table["11"]["1"] == {"base": None, "kunkku": "5"}
    assert table["10"]["0"] == {"base": "1", "kunkku": None}
    assert table["8"]["4"] == {"base": "1", "kunkku": "4"}
    assert table["4"]["2"] == {"base": "1", "kunkku": "6"}
    assert table["2"]["1"] == {"base": None, "kunkku": "10"}
    assert sum(len(rows) for rows in table.values()) == 12 + 11 + 9 + 8 + 7 + 6 + 5 + 4 + 3 + 2


# -- Kaikki tai ei mitään, Synttärit, Jokeri, Lomatonni, Tähdenlento ------------------------------


def test_kaikki_tai_ei_mitaan_onnenapila_needs_the_correct_lucky_number() -> None:
    draw = kaikki_tai_ei_mitaan.validate_result(list(range(1, 13)), 3)
    line = list(range(13, 25))  # 0 correct
    with_clover = kaikki_tai_ei_mitaan.classify(kaikki_tai_ei_mitaan.validate_line(line, lucky=3), draw)
    wrong_clover = kaikki_tai_ei_mitaan.classify(kaikki_tai_ei_mitaan.validate_line(line, lucky=2), draw)
    assert (with_clover.class_key, str(with_clover.multiplier)) == ("0", "500000")
    assert (wrong_clover.class_key, str(wrong_clover.multiplier)) == ("0", "125000")


def test_kaikki_tai_ei_mitaan_line_needs_twelve_numbers() -> None:
    with pytest.raises(InvalidPicks, match="expected 12 numbers, got 11"):
        kaikki_tai_ei_mitaan.validate_line(list(range(1, 12)))


def test_synttarit_exact_match_set_gives_the_class() -> None:
    draw = synttarit.validate_result("1990-05-17", "K")
    assert synttarit.classify(synttarit.validate_line(dt.date(1990, 5, 17), "K"), draw).class_key == "1"
    assert synttarit.classify(synttarit.validate_line("1990-05-18", "K"), draw).class_key == "3"
    assert synttarit.classify(synttarit.validate_line("1991-04-17", "K"), draw).class_key is None


def test_synttarit_rejects_an_impossible_date_and_a_letter_outside_the_playable_set() -> None:
    with pytest.raises(InvalidResult, match="not a valid date"):
        synttarit.validate_result("1990-02-30", "K")
    params = default_params("synttarit")
    params["format"]["letters"] = ["A", "B"]
    with pytest.raises(InvalidPicks, match="not a playable letter"):
        synttarit.validate_line("1990-01-01", "K", params=params)


def test_jokeri_any_positions_matcher_counts_every_equal_position() -> None:
    line = jokeri.validate_line("1934567")
    assert jokeri.classify(line, "1234567").class_key == "2"


def test_jokeri_run_from_either_end_matcher_is_the_alternative() -> None:
    params = default_params("jokeri")
    params["matcher"] = "run_from_either_end"
    # positions 1, 3-7 equal but position 2 differs: runs are 1 (from the start) and 5 (from the end)
    assert jokeri.classify(jokeri.validate_line("1934567"), "1234567", params).class_key == "3"
    assert jokeri.classify(jokeri.validate_line("9234560"), "1234567", params).class_key is None


def test_jokeri_tuplaus_doubles_only_a_winning_line_with_the_digit_in_its_position() -> None:
    win = jokeri.classify(jokeri.validate_line("1234500", tuplaus=(3, 3)), "1234567")
    miss = jokeri.classify(jokeri.validate_line("1234500", tuplaus=(3, 4)), "1234567")
    lose = jokeri.classify(jokeri.validate_line("0000000", tuplaus=(3, 3)), "1234567")
    assert (win.class_key, win.doubled, miss.doubled, lose.doubled) == ("3", True, False, False)


def test_jokeri_result_must_be_seven_digits() -> None:
    with pytest.raises(InvalidResult, match="expected 7 digits, got 6"):
        jokeri.validate_result("123456")
    with pytest.raises(InvalidResult, match="'x' is not a digit"):
        jokeri.validate_result("12345x7")


def test_lomatonni_number_alone_wins_nothing() -> None:
    draw = lomatonni.validate_result("Rooma", 22)
    assert lomatonni.classify(lomatonni.validate_line("rooma", 22), draw).class_key == "1"
    assert lomatonni.classify(lomatonni.validate_line("Rooma", 23), draw).class_key == "2"
    assert lomatonni.classify(lomatonni.validate_line("Pariisi", 22), draw).class_key is None


def test_lomatonni_number_above_one_hundred_is_rejected() -> None:
    with pytest.raises(InvalidResult, match="101 is out of range 1..100"):
        lomatonni.validate_result("Rooma", 101)


def test_tahdenlento_game_type_is_the_number_of_picks() -> None:
    draw = tahdenlento.validate_result(list(range(1, 15)), "A")
    line = tahdenlento.validate_line([1, 2, 3, 20, 21, 22, 23, 24], bonus="A")
    result = tahdenlento.classify(line, draw)
    assert result.class_key is None  # 3 correct in the 8-number game wins nothing
    assert (
        tahdenlento.classify(tahdenlento.validate_line([1, 2, 3], bonus="A"), draw).class_key == "3-3+bonus"
    )


def test_tahdenlento_bonus_token_must_be_one_of_the_configured_two() -> None:
    params = default_params("tahdenlento")
    params["format"]["bonus_tokens"] = ["star", "moon"]
    with pytest.raises(InvalidResult, match="not one of"):
        tahdenlento.validate_result(list(range(1, 15)), "sun", params=params)


def test_every_validation_error_is_a_rules_error() -> None:
    assert issubclass(InvalidPicks, RulesError) and issubclass(InvalidResult, RulesError)


# -- bitmasks ----------------------------------------------------------------------------------------


def test_bitmask_sets_bit_n_minus_one_for_number_n() -> None:
    assert picks_to_mask([1, 3]) == 0b101
    assert contains(0b101, 3) and not contains(0b101, 2)


def test_bitmask_rejects_duplicates_and_out_of_range_numbers() -> None:
    with pytest.raises(InvalidPicks, match="duplicated"):
        picks_to_mask([4, 4])
    with pytest.raises(InvalidPicks, match="out of range 1..70"):
        picks_to_mask([71], max_number=70)


@PROPERTY
@given(st.sets(st.integers(1, 70), max_size=20), st.sets(st.integers(1, 70), min_size=1, max_size=11))
def test_bitmask_hits_equal_the_size_of_the_set_intersection(drawn: set[int], line: set[int]) -> None:
    assert mask_to_picks(picks_to_mask(line, 70)) == sorted(line)
    assert hits(picks_to_mask(line), picks_to_mask(drawn)) == len(line & drawn)
