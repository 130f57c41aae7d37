"""The pure protection rules (players/rules.py): ages, windows in Helsinki time, limits, the cap,
reminder intervals and identity codes. No database."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compliance import idcodes
from players import rules

HKI = ZoneInfo("Europe/Helsinki")
UTC = dt.UTC


def test_finnish_minimum_age_is_18_and_billionaire_is_21():
    assert (rules.effective_min_age("FI", {"FI": 18}), rules.effective_min_age("UA", {"UA": 21})) == (18, 21)


def test_configuration_cannot_lower_the_statutory_minimum_age():
    assert rules.effective_min_age("UA", {"UA": 18}) == 21


def test_configuration_may_raise_the_minimum_age():
    assert rules.effective_min_age("FI", {"FI": 20}) == 20


def test_person_reaches_the_age_on_the_birthday_not_the_day_before():
    born = dt.date(2008, 5, 10)
    assert (
        rules.has_reached_age(born, 18, dt.date(2026, 5, 9)),
        rules.has_reached_age(born, 18, dt.date(2026, 5, 10)),
    ) == (
        False,
        True,
    )


def test_person_born_on_29_february_comes_of_age_on_1_march_in_a_common_year():
    assert rules.anniversary(dt.date(2008, 2, 29), 18) == dt.date(2026, 3, 1)


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2020, 12, 31)), st.integers(0, 80))
def test_age_on_the_anniversary_is_exactly_that_age(born, years):
    assert rules.age_on(born, rules.anniversary(born, years)) == years


def test_day_window_is_the_helsinki_calendar_day_not_the_utc_one():
    # 23:30 in Helsinki on 15 January is 21:30 UTC the same day; 00:30 on the 16th is 22:30 UTC on the 15th.
    late = dt.datetime(2026, 1, 15, 21, 30, tzinfo=UTC)
    after_midnight = dt.datetime(2026, 1, 15, 22, 30, tzinfo=UTC)
    assert rules.window_bounds("day", late, HKI)[1] == rules.window_bounds("day", after_midnight, HKI)[0]


def test_day_window_starts_at_helsinki_midnight():
    start, _ = rules.window_bounds("day", dt.datetime(2026, 7, 1, 12, 0, tzinfo=UTC), HKI)
    assert start.astimezone(UTC) == dt.datetime(2026, 6, 30, 21, 0, tzinfo=UTC)


def test_day_of_the_spring_daylight_saving_change_lasts_23_hours():
    start, end = rules.window_bounds("day", dt.datetime(2026, 3, 29, 12, 0, tzinfo=UTC), HKI)
    assert end - start == dt.timedelta(hours=23)


def test_play_time_across_the_autumn_change_counts_real_seconds():
    start, end = rules.window_bounds("day", dt.datetime(2026, 10, 25, 12, 0, tzinfo=UTC), HKI)
    assert (
        rules.overlap_seconds(start - dt.timedelta(hours=1), end + dt.timedelta(hours=1), start, end)
        == 25 * 3600
    )


def test_week_window_runs_from_monday_midnight():
    start, end = rules.window_bounds("week", dt.datetime(2026, 1, 15, 12, 0, tzinfo=UTC), HKI)  # a Thursday
    local = start.astimezone(HKI)
    assert (local.date(), local.time(), (end - start).days) == (dt.date(2026, 1, 12), dt.time(0), 7)


def test_month_window_ends_at_the_first_of_the_next_month():
    start, end = rules.window_bounds("month", dt.datetime(2026, 12, 31, 21, 59, tzinfo=UTC), HKI)
    assert (start.astimezone(HKI).date(), end.astimezone(HKI).date()) == (
        dt.date(2026, 12, 1),
        dt.date(2027, 1, 1),
    )


def test_a_moment_after_helsinki_midnight_on_the_first_is_in_the_new_month():
    # 1 February 00:10 Helsinki is still 31 January in UTC.
    start, _ = rules.window_bounds("month", dt.datetime(2026, 1, 31, 22, 10, tzinfo=UTC), HKI)
    assert start.astimezone(HKI).date() == dt.date(2026, 2, 1)


@pytest.mark.parametrize(
    "current,new,expected",
    [
        (100, 50, False),
        (100, 100, False),
        (100, 150, True),
        (100, None, True),
        (None, 100, False),
        (None, None, False),
    ],
)
def test_raising_means_a_higher_value_or_removing_a_limit(current, new, expected):
    assert rules.is_raise(current, new) is expected


def test_lowering_takes_effect_at_once_and_raising_after_the_cooling_off():
    now, cooling = dt.datetime(2026, 1, 1, tzinfo=UTC), dt.timedelta(hours=24)
    assert (
        rules.limit_effective_from(100, 50, now, cooling),
        rules.limit_effective_from(100, 200, now, cooling),
    ) == (
        now,
        now + cooling,
    )


def test_tightest_limit_ignores_missing_ones():
    assert rules.tightest(None, 300, 200) == 200


def test_balance_cap_example_w22_allows_800_of_a_1000_deposit():
    assert rules.cap_room(19_200_00, 20_000_00) == 800_00


@given(st.integers(1, 10**9), st.integers(0, 2_000_000))
def test_split_credit_never_exceeds_the_cap_and_loses_nothing(amount, balance):
    credited, diverted = rules.split_credit(amount, balance, 2_000_000)
    assert credited + diverted == amount and balance + credited <= 2_000_000 and min(credited, diverted) >= 0


def test_interval_cannot_change_before_the_first_reminder():
    with pytest.raises(rules.IntervalRefused) as exc:
        rules.check_reminder_interval(dt.timedelta(minutes=10), reminders_shown=0)
    assert exc.value.code == "interval_before_first_reminder"


def test_interval_of_20_minutes_is_refused_example_w22():
    with pytest.raises(rules.IntervalRefused) as exc:
        rules.check_reminder_interval(dt.timedelta(minutes=20), reminders_shown=1)
    assert exc.value.code == "interval_too_long"


def test_interval_of_10_minutes_is_accepted_after_the_first_reminder():
    rules.check_reminder_interval(dt.timedelta(minutes=10), reminders_shown=1)


def test_valid_finnish_identity_code_gives_its_birth_date():
    assert idcodes.finnish_id_birth_date("131052-308T") == dt.date(1952, 10, 13)


def test_finnish_identity_code_with_a_wrong_check_character_is_refused():
    with pytest.raises(ValueError, match="check character"):
        idcodes.finnish_id_birth_date("131052-308A")


@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2099, 12, 31)), st.integers(900, 999))
def test_generated_identity_codes_validate_and_carry_the_birth_date(born, n):
    assert idcodes.finnish_id_birth_date(idcodes.finnish_id(born, n)) == born


def test_identifier_normalisation_ignores_case_and_spaces_but_keeps_the_finnish_century_sign():
    assert idcodes.normalise_identifier(" 131052-308t ", "FI") == "131052-308T"


def test_names_match_in_any_order_and_without_accents():
    assert idcodes.normalise_name("Jari", "Mäkelä") == idcodes.normalise_name("MAKELA,", "jari")
