"""Pure player-protection rules: ages, limit windows, cooling-off, reminder intervals, balance cap.

No Django and no database here (DESIGN §1): the services and the screening gate feed these
functions with values they read under lock, and the tests exercise them directly.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

# --- Ages -----------------------------------------------------------------------------------------

# The law's minimum per jurisdiction; configuration may raise it, never lower it.
# FI: the Finnish rules (000-lottery PR); UA: 004-billionaire S1 §1.8, S2 §2.5 and §2.9 (21, "never below 21").
STATUTORY_MIN_AGE = {"FI": 18, "UA": 21}


def effective_min_age(jurisdiction: str, configured: dict[str, int]) -> int:
    """The configured minimum age of the jurisdiction, raised to the statutory one where it is lower."""
    statutory = STATUTORY_MIN_AGE.get(jurisdiction, 18)
    return max(configured.get(jurisdiction, statutory), statutory)


def anniversary(birth_date: dt.date, years: int) -> dt.date:
    """The day a person born on `birth_date` turns `years`. Born on 29 February: 1 March in common
    years (the later reading, so nobody plays a day early)."""
    try:
        return birth_date.replace(year=birth_date.year + years)
    except ValueError:
        return dt.date(birth_date.year + years, 3, 1)


def has_reached_age(birth_date: dt.date, years: int, on: dt.date) -> bool:
    return anniversary(birth_date, years) <= on


def age_on(birth_date: dt.date, on: dt.date) -> int:
    years = on.year - birth_date.year
    return years if has_reached_age(birth_date, years, on) else years - 1


# --- Windows in the operator's zone ----------------------------------------------------------------

DAY, WEEK, MONTH = "day", "week", "month"
PERIODS = (DAY, WEEK, MONTH)


def window_bounds(period: str, now: dt.datetime, zone: str | dt.tzinfo) -> tuple[dt.datetime, dt.datetime]:
    """[start, end) of the calendar day, ISO week (Monday) or month containing `now`, in `zone`.

    Bounds are local midnights (given in UTC), so a day across a daylight-saving change is 23 or
    25 hours long.
    """
    tz = ZoneInfo(zone) if isinstance(zone, str) else zone
    local = now.astimezone(tz)
    today = local.date()
    if period == DAY:
        first, after = today, today + dt.timedelta(days=1)
    elif period == WEEK:
        first = today - dt.timedelta(days=today.weekday())
        after = first + dt.timedelta(days=7)
    elif period == MONTH:
        first = today.replace(day=1)
        after = (first + dt.timedelta(days=32)).replace(day=1)
    else:
        raise ValueError(f"Unknown period {period!r}; periods are {', '.join(PERIODS)}")
    # Returned in UTC: arithmetic on two datetimes of the same zone would ignore a DST change.
    return (
        dt.datetime.combine(first, dt.time(0), tzinfo=tz).astimezone(dt.UTC),
        dt.datetime.combine(after, dt.time(0), tzinfo=tz).astimezone(dt.UTC),
    )


def overlap_seconds(
    start: dt.datetime, end: dt.datetime, win_start: dt.datetime, win_end: dt.datetime
) -> int:
    """Seconds of [start, end) that fall inside [win_start, win_end)."""
    lo, hi = max(start, win_start), min(end, win_end)
    return max(0, int((hi - lo).total_seconds()))


# --- Limits --------------------------------------------------------------------------------------


def is_raise(current: int | None, new: int | None) -> bool:
    """None means "no limit". Raising = a higher value, or removing a limit that exists."""
    if current is None:
        return False  # from no limit to any limit (or none) is never a raise
    if new is None:
        return True
    return new > current


def limit_effective_from(
    current: int | None, new: int | None, now: dt.datetime, cooling_off: dt.timedelta
) -> dt.datetime:
    """Lowering (or keeping) takes effect at once; raising or removing after the cooling-off period."""
    return now + cooling_off if is_raise(current, new) else now


def tightest(*values: int | None) -> int | None:
    """The strictest of several limits (None = no limit)."""
    present = [v for v in values if v is not None]
    return min(present) if present else None


# --- Balance cap (PR §2) -------------------------------------------------------------------------


def cap_room(balance_cents: int, cap_cents: int) -> int:
    """How much may still be credited without exceeding the cap."""
    return max(0, cap_cents - balance_cents)


def split_credit(amount_cents: int, balance_cents: int, cap_cents: int) -> tuple[int, int]:
    """(credited to the account, diverted to a pending bank payout) for a prize or refund."""
    credited = min(amount_cents, cap_room(balance_cents, cap_cents))
    return credited, amount_cents - credited


# --- Session time reminder (PR §1) ---------------------------------------------------------------

REMINDER_INTERVAL = dt.timedelta(minutes=15)  # mandatory default and the maximum
MIN_REMINDER_INTERVAL = dt.timedelta(minutes=1)


class IntervalRefused(ValueError):
    """A refused reminder interval. `code` is what callers use: the services show the translated
    message of the code (players.services.INTERVAL_REFUSALS); the English text is for logs and tests."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def check_reminder_interval(interval: dt.timedelta, reminders_shown: int) -> None:
    """The player may change the interval only after the first reminder, and only to 15 minutes or
    less (at least one minute). Raises IntervalRefused with a reason code."""
    if reminders_shown < 1:
        raise IntervalRefused(
            "interval_before_first_reminder",
            "The reminder interval can be changed only after the first reminder has been shown.",
        )
    if interval > REMINDER_INTERVAL:
        raise IntervalRefused(
            "interval_too_long", "The reminder interval can only be shortened: at most 15 minutes."
        )
    if interval < MIN_REMINDER_INTERVAL:
        raise IntervalRefused("interval_too_short", "The reminder interval must be at least one minute.")


# The largest money amount (cents) any player service takes: a thousand million euros, far above any
# real deposit, stake, prize or limit, and far below the BigIntegerField columns and their sums.
MAX_AMOUNT_CENTS = 100_000_000_000
