"""Multiplier games with capped groups: Keno (§32; W10-W13), Kaikki tai ei mitään (§33; W14),
Synttärit (§34; W15) and Tähdenlento (§37; W16)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lottery.rules import RoundInputError, calculate_round, default_params
from tests.lottery.rules.rules_support import PROPERTY, cents, d

KENO = default_params("keno")["multipliers"]
KTEM = default_params("kaikki_tai_ei_mitaan")["multipliers"]
STAR = default_params("tahdenlento")["multipliers"]
SYNTTARIT = {
    c["match"]: (c["class"], Decimal(c["multiplier"])) for c in default_params("synttarit")["classes"]
}


def keno(lines: list[dict], **kw: object) -> dict:
    return calculate_round({"game": "keno", "lines": lines, **kw})


# -----------------------------------------------------------------------------------------------
# examples
# -----------------------------------------------------------------------------------------------


def test_keno_kunkku_line_whose_king_missed_is_paid_from_the_kerroin_column() -> None:
    out = keno([{"level": 7, "hits": 5, "kunkku": True, "king": False, "stake": "1.00"}])
    assert (out["lines"][0]["class"], out["lines"][0]["prize"]) == ("7-5", "10.00")


def test_keno_zero_correct_wins_only_at_levels_ten_and_eleven() -> None:
    out = keno([{"level": 11, "hits": 0, "stake": "1.00"}, {"level": 9, "hits": 0, "stake": "1.00"}])
    assert [line["prize"] for line in out["lines"]] == ["1.00", "0.00"]


def test_keno_cell_cap_is_not_applied_when_the_total_equals_the_cap() -> None:
    out = keno([{"level": 10, "hits": 10, "stake": "12.50"}])  # 12.50 x 200,000 = 2,500,000
    assert out["classes"]["10-10"]["capped"] is False
    assert out["lines"][0]["prize"] == "2500000.00"


def test_keno_multiplier_on_the_stake_with_the_kunkku_fee_is_the_alternative() -> None:
    params = default_params("keno")
    params["stake_basis"] = "with_addon_fee"
    line = {"level": 7, "hits": 5, "king": True, "stake": "1.00", "addon_fee": "1.00"}
    assert calculate_round({"game": "keno", "lines": [line]})["lines"][0]["prize"] == "30.00"
    assert calculate_round({"game": "keno", "lines": [line]}, params)["lines"][0]["prize"] == "60.00"


def test_keno_designated_king_number_is_the_alternative_kunkku_reading() -> None:
    params = default_params("keno")
    params["kunkku_mode"] = "designated"
    drawn = [3, 12, 25, 33, 58, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17]
    lines = [
        {"picks": [3, 12, 25, 33, 41, 58, 66], "kunkku": True, "king_number": 3, "stake": "1.00"},
        {"picks": [3, 12, 25, 33, 41, 58, 66], "kunkku": True, "king_number": 25, "stake": "1.00"},
    ]
    out = calculate_round(
        {"game": "keno", "result": {"numbers": drawn, "kunkku": 25}, "lines": lines}, params
    )
    assert [line["prize"] for line in out["lines"]] == ["10.00", "30.00"]


def test_keno_rejects_the_kunkku_column_without_a_hit() -> None:
    with pytest.raises(RoundInputError) as info:
        keno(
            [{"level": 5, "hits": 1, "stake": "1.00"}, {"level": 5, "hits": 0, "king": True, "stake": "1.00"}]
        )
    assert info.value.field == "lines[1].king"


def test_keno_rejects_a_level_outside_two_to_eleven() -> None:
    with pytest.raises(RoundInputError) as info:
        keno([{"level": 12, "hits": 3, "stake": "1.00"}])
    assert info.value.field == "lines[0].level"


def test_keno_rejects_a_float_stake() -> None:
    with pytest.raises(RoundInputError) as info:
        keno([{"level": 5, "hits": 3, "stake": "1.00"}, {"level": 5, "hits": 3, "stake": 1.5}])
    assert info.value.field == "lines[1].stake"


def test_keno_rejects_a_result_whose_kunkku_number_was_not_drawn() -> None:
    drawn = list(range(1, 21))
    with pytest.raises(RoundInputError) as info:
        keno([{"picks": [1, 2], "stake": "1.00"}], result={"numbers": drawn, "kunkku": 30})
    assert info.value.field == "result"
    assert "not among the 20 drawn numbers" in info.value.message


def test_kaikki_tai_ei_mitaan_five_to_seven_correct_win_only_with_onnenapila() -> None:
    out = calculate_round(
        {
            "game": "kaikki_tai_ei_mitaan",
            "lines": [
                {"hits": 6, "clover": False, "stake": "1.00"},
                {"hits": 6, "clover": True, "stake": "1.00"},
            ],
        }
    )
    assert [line["prize"] for line in out["lines"]] == ["0.00", "1.00"]


def test_kaikki_tai_ei_mitaan_caps_twelve_and_zero_correct_together_under_the_symmetric_alternative() -> None:
    params = default_params("kaikki_tai_ei_mitaan")
    params["class_scope"] = "symmetric_pair"
    lines = [{"hits": 12, "stake": "1.00", "count": 20}, {"hits": 0, "stake": "1.00", "count": 20}]
    separate = calculate_round({"game": "kaikki_tai_ei_mitaan", "lines": lines})
    together = calculate_round({"game": "kaikki_tai_ei_mitaan", "lines": lines}, params)
    assert separate["lines"][0]["prize"] == "125000.00"  # 2,500,000 per class: no cap
    assert together["lines"][0]["prize"] == "75000.00"  # 5,000,000 > 3,000,000 over the pair


def test_synttarit_needs_the_month_for_every_prize() -> None:
    out = calculate_round(
        {"game": "synttarit", "lines": [{"match": "DYL", "stake": "1.00"}, {"match": "M", "stake": "1.00"}]}
    )
    assert [line["class"] for line in out["lines"]] == [None, "8"]
    assert out["lines"][1]["prize"] == "2.00"


def test_synttarit_classifies_lines_given_as_dates_against_the_result() -> None:
    out = calculate_round(
        {
            "game": "synttarit",
            "result": {"date": "1990-05-17", "letter": "K"},
            "lines": [
                {"date": "1990-05-17", "letter": "k", "stake": "1.00"},
                {"date": "1991-05-17", "letter": "K", "stake": "1.00"},
                {"date": "1990-06-17", "letter": "K", "stake": "1.00"},
            ],
        }
    )
    assert [line["class"] for line in out["lines"]] == ["1", "4", None]


def test_tahdenlento_bonus_needs_the_fee_and_the_drawn_token() -> None:
    drawn = list(range(1, 15))
    out = calculate_round(
        {
            "game": "tahdenlento",
            "result": {"numbers": drawn, "bonus": "A"},
            "lines": [
                {"picks": [1, 2, 3, 4, 5], "bonus_token": "A", "stake": "1.00"},
                {"picks": [1, 2, 3, 4, 5], "bonus_token": "B", "stake": "1.00"},
                {"picks": [1, 2, 3, 4, 5], "stake": "1.00"},
            ],
        }
    )
    assert [line["prize"] for line in out["lines"]] == ["400.00", "200.00", "200.00"]


def test_tahdenlento_zero_correct_wins_in_the_six_to_eight_number_games() -> None:
    out = calculate_round(
        {
            "game": "tahdenlento",
            "lines": [
                {"numbers": 8, "hits": 0, "bonus": True, "stake": "1.00"},
                {"numbers": 5, "hits": 0, "stake": "1.00"},
                {"numbers": 8, "hits": 2, "stake": "1.00"},
            ],
        }
    )
    assert [line["prize"] for line in out["lines"]] == ["2.00", "0.00", "0.00"]


# -----------------------------------------------------------------------------------------------
# properties
# -----------------------------------------------------------------------------------------------

stakes = st.one_of(st.integers(25, 2_000), st.integers(1, 50_000))  # cents
line_counts = st.one_of(st.integers(1, 5), st.integers(1, 5_000))


@st.composite
def keno_lines(draw: st.DrawFn) -> list[dict]:
    out = []
    for _ in range(draw(st.integers(1, 12))):
        level = draw(st.integers(2, 11))
        hits = draw(st.one_of(st.just(level), st.integers(0, level)))
        out.append(
            {
                "level": level,
                "hits": hits,
                "king": hits > 0 and draw(st.booleans()),
                "stake": cents(draw(stakes)),
                "count": draw(line_counts),
            }
        )
    return out


@st.composite
def ktem_lines(draw: st.DrawFn) -> list[dict]:
    return [
        {
            "hits": draw(st.sampled_from([12, 12, 0, 11, 1, 6, 8, 4])),
            "clover": draw(st.booleans()),
            "stake": cents(draw(stakes)),
            "count": draw(line_counts),
        }
        for _ in range(draw(st.integers(1, 10)))
    ]


@st.composite
def synttarit_lines(draw: st.DrawFn) -> list[dict]:
    matches = ["DMYL", "DMYL", "DMY", "MYL", "DML", "MY", "DM", "ML", "M", "DYL", "Y"]  # DYL, Y: no prize
    return [
        {"match": m, "stake": cents(draw(stakes)), "count": draw(line_counts)}
        for m in draw(st.lists(st.sampled_from(matches), min_size=1, max_size=10))
    ]


@st.composite
def star_lines(draw: st.DrawFn) -> list[dict]:
    out = []
    for _ in range(draw(st.integers(1, 10))):
        numbers = draw(st.integers(3, 8))
        out.append(
            {
                "numbers": numbers,
                "hits": draw(st.one_of(st.just(numbers), st.integers(0, numbers))),
                "bonus": draw(st.booleans()),
                "stake": cents(draw(stakes)),
                "count": draw(line_counts),
            }
        )
    return out


def keno_cell(line: dict) -> tuple[str, Fraction, Fraction] | None:
    row = KENO[str(line["level"])].get(str(line["hits"]))
    if not row:
        return None
    if line["king"] and row["kunkku"]:
        return f"{line['level']}-{line['hits']}-kunkku", Fraction(row["kunkku"]), Fraction(3_000_000)
    if row["base"]:
        return f"{line['level']}-{line['hits']}", Fraction(row["base"]), Fraction(2_500_000)
    return None


def expected_after_caps(lines: list[dict], cell_of) -> Fraction:  # type: ignore[no-untyped-def]
    """Independent reference: Σ over capped groups of min(calculated, cap)."""
    totals: dict[str, Fraction] = {}
    caps: dict[str, Fraction] = {}
    for line in lines:
        cell = cell_of(line)
        if cell is None:
            continue
        key, mult, cap = cell
        totals[key] = totals.get(key, Fraction(0)) + Fraction(Decimal(line["stake"])) * mult * line["count"]
        caps[key] = cap
    return sum((min(t, caps[k]) for k, t in totals.items()), Fraction(0))


def assert_multiplier_books(out: dict, expected_money_in: Fraction) -> None:
    t = {k: d(v) for k, v in out["totals"].items()}
    assert Fraction(t["money_in"]) == expected_money_in
    assert t["money_in"] == t["paid"] + t["breakage"]
    assert t["breakage"] >= 0
    for key, c in out["classes"].items():
        assert d(c["allocated"]) == d(c["paid"]) + d(c["breakage"]), key
        assert d(c["breakage"]) >= 0, key
    assert t["paid"] == sum(d(line["paid"]) for line in out["lines"])
    for line in out["lines"]:
        assert d(line["prize"]) <= d(line["calculated"])


def assert_order_does_not_matter(game: str, lines: list[dict], rnd: random.Random) -> None:
    order = list(range(len(lines)))
    rnd.shuffle(order)
    base = calculate_round({"game": game, "lines": lines})
    moved = calculate_round({"game": game, "lines": [lines[i] for i in order]})
    assert moved["totals"] == base["totals"]
    assert moved["classes"] == base["classes"]
    for new_pos, old_pos in enumerate(order):
        assert moved["lines"][new_pos] == base["lines"][old_pos]


@PROPERTY
@given(keno_lines())
def test_keno_money_in_is_prizes_after_caps_and_equals_paid_plus_breakage(lines: list[dict]) -> None:
    out = calculate_round({"game": "keno", "lines": lines})
    after_cells = expected_after_caps(lines, keno_cell)
    assert_multiplier_books(out, min(after_cells, Fraction(15_000_000)))


@PROPERTY
@given(keno_lines())
def test_keno_no_cell_cap_and_no_overall_cap_is_exceeded(lines: list[dict]) -> None:
    out = calculate_round({"game": "keno", "lines": lines})
    for key, c in out["classes"].items():
        assert d(c["paid"]) <= (Decimal(3_000_000) if key.endswith("kunkku") else Decimal(2_500_000))
    assert d(out["totals"]["paid"]) <= Decimal(15_000_000)


@PROPERTY
@given(keno_lines(), st.randoms(use_true_random=False))
def test_keno_order_of_buckets_does_not_change_the_result(lines: list[dict], rnd: random.Random) -> None:
    assert_order_does_not_matter("keno", lines, rnd)


def ktem_cell(line: dict) -> tuple[str, Fraction, Fraction] | None:
    row = KTEM[str(line["hits"])]
    value = row["clover"] if line["clover"] and row["clover"] else row["base"]
    return None if value is None else (str(line["hits"]), Fraction(value), Fraction(3_000_000))


@PROPERTY
@given(ktem_lines())
def test_kaikki_tai_ei_mitaan_money_in_equals_paid_plus_breakage_and_caps_hold(lines: list[dict]) -> None:
    out = calculate_round({"game": "kaikki_tai_ei_mitaan", "lines": lines})
    assert_multiplier_books(out, expected_after_caps(lines, ktem_cell))
    for c in out["classes"].values():
        assert d(c["paid"]) <= Decimal(3_000_000)


@PROPERTY
@given(ktem_lines(), st.randoms(use_true_random=False))
def test_kaikki_tai_ei_mitaan_order_of_buckets_does_not_change_the_result(
    lines: list[dict], rnd: random.Random
) -> None:
    assert_order_does_not_matter("kaikki_tai_ei_mitaan", lines, rnd)


def synttarit_cell(line: dict) -> tuple[str, Fraction, Fraction] | None:
    hit = SYNTTARIT.get(line["match"])
    return None if hit is None else (hit[0], Fraction(hit[1]), Fraction(3_000_000))


@PROPERTY
@given(synttarit_lines())
def test_synttarit_money_in_equals_paid_plus_breakage_and_caps_hold(lines: list[dict]) -> None:
    out = calculate_round({"game": "synttarit", "lines": lines})
    assert_multiplier_books(out, expected_after_caps(lines, synttarit_cell))
    for c in out["classes"].values():
        assert d(c["paid"]) <= Decimal(3_000_000)


@PROPERTY
@given(synttarit_lines(), st.randoms(use_true_random=False))
def test_synttarit_order_of_buckets_does_not_change_the_result(lines: list[dict], rnd: random.Random) -> None:
    assert_order_does_not_matter("synttarit", lines, rnd)


def star_cell(line: dict) -> tuple[str, Fraction, Fraction] | None:
    row = STAR[str(line["numbers"])].get(str(line["hits"]))
    if not row:
        return None
    label = f"{line['hits']}+bonus" if line["bonus"] else str(line["hits"])
    value = row["bonus"] if line["bonus"] else row["base"]
    cap = Fraction(1_200_000) if label == "8+bonus" else Fraction(600_000)
    return f"{line['numbers']}-{label}", Fraction(value), cap


@PROPERTY
@given(star_lines())
def test_tahdenlento_money_in_equals_paid_plus_breakage_and_caps_hold(lines: list[dict]) -> None:
    out = calculate_round({"game": "tahdenlento", "lines": lines})
    assert_multiplier_books(out, expected_after_caps(lines, star_cell))
    for key, c in out["classes"].items():
        assert d(c["paid"]) <= (Decimal(1_200_000) if key == "8-8+bonus" else Decimal(600_000))


@PROPERTY
@given(star_lines(), st.randoms(use_true_random=False))
def test_tahdenlento_order_of_buckets_does_not_change_the_result(
    lines: list[dict], rnd: random.Random
) -> None:
    assert_order_does_not_matter("tahdenlento", lines, rnd)
