"""Pure player-protection rules: ages, limit windows, cooling-off, reminder intervals, balance cap.

No Django and no database here (DESIGN §1): the services and the screening gate feed these
functions with values they read under lock, and the tests exercise them directly.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
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


# --- Identity helpers ----------------------------------------------------------------------------

_HETU = re.compile(r"^([0-9]{2})([0-9]{2})([0-9]{2})([-+A-FU-Y])([0-9]{3})([0-9A-Y])$")
_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"
_HETU_CENTURY = {"+": 1800, "-": 1900, **dict.fromkeys("UVWXY", 1900), **dict.fromkeys("ABCDEF", 2000)}


def normalise_identifier(value: str, country: str) -> str:
    """The canonical form that is hashed: upper case, no white space; for other countries than FI
    also without hyphens and dots (the Finnish hyphen is the century sign and stays)."""
    text = re.sub(r"\s+", "", value or "").upper()
    if country.upper() != "FI":
        text = text.replace("-", "").replace(".", "")
    return text


class IdentifierInvalid(ValueError):
    """A national identifier that is not valid; `code` says why (format, check_character, date)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def finnish_id_birth_date(hetu: str) -> dt.date:
    """Birth date encoded in a Finnish personal identity code; IdentifierInvalid (a ValueError) when it
    is not valid."""
    m = _HETU.match(normalise_identifier(hetu, "FI"))
    if not m:
        raise IdentifierInvalid("format", "not a Finnish personal identity code (DDMMYYCZZZQ)")
    dd, mm, yy, century, individual, check = m.groups()
    if _HETU_CHECK[int(dd + mm + yy + individual) % 31] != check:
        raise IdentifierInvalid("check_character", "the check character of the identity code is wrong")
    try:
        return dt.date(_HETU_CENTURY[century] + int(yy), int(mm), int(dd))
    except ValueError as exc:
        raise IdentifierInvalid("date", str(exc)) from None


# The largest money amount (cents) any player service takes: a thousand million euros, far above any
# real deposit, stake, prize or limit, and far below the BigIntegerField columns and their sums.
MAX_AMOUNT_CENTS = 100_000_000_000

_RNOKPP_WEIGHTS = (-1, 5, 7, 9, 4, 6, 10, 5, 7)
# Identifiers of other countries are checked by their format only (the normalised form: upper case,
# no spaces, hyphens or dots). Countries not listed: 4-32 letters and digits.
_ID_FORMATS = {
    "SE": re.compile(r"^([0-9]{10}|[0-9]{12})$"),  # personnummer, with or without the century
    "NO": re.compile(r"^[0-9]{11}$"),  # fødselsnummer
    "DK": re.compile(r"^[0-9]{10}$"),  # CPR
    "EE": re.compile(r"^[1-8][0-9]{10}$"),  # isikukood
    "LV": re.compile(r"^[0-9]{11}$"),
    "LT": re.compile(r"^[1-6][0-9]{10}$"),
}
_ID_GENERIC = re.compile(r"^[A-Z0-9]{4,32}$")


def ukrainian_id_valid(rnokpp: str) -> bool:
    """Ukrainian taxpayer number (RNOKPP): 10 digits, the last a check digit: the weighted sum of the
    first nine (weights -1, 5, 7, 9, 4, 6, 10, 5, 7) modulo 11, then modulo 10."""
    if not re.fullmatch(r"[0-9]{10}", rnokpp):
        return False
    total = sum(w * int(d) for w, d in zip(_RNOKPP_WEIGHTS, rnokpp[:9], strict=True))
    return total % 11 % 10 == int(rnokpp[9])


def identifier_problem(value: str, country: str) -> str | None:
    """Why `value` cannot be a national identifier of `country`, or None when it can: Finnish identity
    codes by date and check character (all century signs, including the 2023 ones -YXWVU and
    ABCDEF), Ukrainian RNOKPP by check digit, other countries by format."""
    country = (country or "").upper()
    text = normalise_identifier(value, country)
    if country == "FI":
        try:
            finnish_id_birth_date(text)
        except ValueError as exc:
            return str(exc)
        return None
    if country == "UA":
        return None if ukrainian_id_valid(text) else "not a Ukrainian RNOKPP (10 digits with a valid check digit)"
    if not _ID_FORMATS.get(country, _ID_GENERIC).match(text):
        return f"not in the format of a {country} national identifier"
    return None


def finnish_id(birth_date: dt.date, individual: int) -> str:
    """A valid Finnish identity code (tests and demo use individual numbers 900-999, never issued)."""
    century = {1800: "+", 1900: "-", 2000: "A"}[birth_date.year // 100 * 100]
    digits = f"{birth_date:%d%m%y}{individual:03d}"
    return f"{birth_date:%d%m%y}{century}{individual:03d}{_HETU_CHECK[int(digits) % 31]}"


def normalise_name(*parts: str) -> str:
    """Case-, accent- and order-insensitive form of a name: "Mäkelä, Jari" -> "jari makela"."""
    text = " ".join(p for p in parts if p)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    tokens = re.findall(r"[^\W_]+", text)
    return " ".join(sorted(tokens))
