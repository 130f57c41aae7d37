"""Complaint and payout deadlines of casino Billionaire (004 S2 §2.15, §2.16.4; digest §3.6, §3.9,
E24, ambiguities A29 and A30). Pure: no Django, no database.

* **Answer**: a complaint (in person, in writing or electronically) is reviewed and answered within
  **10 working days**, counted from the next working day: day 1 is the first working day after the
  day it was received (a complaint received on a Saturday starts on Monday; A30).
* **Extension**: once, when reasonably necessary, by **another 10 working days**, counted on from the
  original due date, and only when the player is notified; the notification must be sent by the
  original due date (A30, interpretation). There is no second extension.
* **Payment of winnings**: at most **30 calendar days** from the player's request; day 1 is the day
  after the request, so the deadline is the request date + 30 days (A29), not moved off a weekend or
  holiday (A29's default: the cash desks work daily; ``shift_payment_to_working_day`` moves it).

Working days are Monday to Friday without the public holidays of the venue's country, from the
`holidays` library (its calendar also knows a country's moved days off and working Saturdays, and
that Ukraine has had no public days off under martial law since 24 Feb 2022). The venue is in Kyiv,
so the country is ``UA`` unless given.

JSON kind ``complaint`` (``python manage.py casino_compute``)::

    {"kind": "complaint", "received": "2021-02-01", "channel": "electronic",
     "extension_notified_on": "2021-02-12", "payout_requested": "2021-02-01", "country": "UA"}

answers ``answer_due`` 2021-02-15, ``extended_answer_due`` 2021-03-01, ``further_extension_allowed``
false (true while the one extension is still unused), ``payment_due`` 2021-03-03 (digest E24).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import cache
from typing import Any

import holidays

from .base import EngineError, require
from .jsonio import KINDS

ANSWER_DAYS = 10  # working days (S2 §2.16.4)
EXTENSION_DAYS = 10  # working days, once (S2 §2.16.4)
PAYMENT_DAYS = 30  # calendar days from the player's request (S2 §2.15)
CHANNELS = ("in_person", "written", "electronic")
KEYS = {"kind", "received", "channel", "extension_notified_on", "payout_requested", "country",
        "shift_payment_to_working_day"}
COUNTRY = "UA"  # casino Billionaire, Kyiv (004 S1)
RULE = "004 S2 §2.16.4 (A30)"
PAYMENT_RULE = "004 S2 §2.15 (A29)"
#: Dates far outside this range are refused (the holiday calendars are not meant for them).
FIRST_YEAR, LAST_YEAR = 1990, 2100


@cache
def calendar(country: str) -> holidays.HolidayBase:
    if country not in holidays.list_supported_countries():
        raise EngineError("country", f"{country!r} is not a country code such as FI or UA")
    return holidays.country_holidays(country)


def is_working_day(day: dt.date, country: str = COUNTRY) -> bool:
    return calendar(country).is_working_day(day)


def working_days_after(day: dt.date, count: int, country: str = COUNTRY) -> dt.date:
    """The `count`-th working day after `day` (day 1 is the first working day after it)."""
    cal = calendar(country)
    current, found = day, 0
    while found < count:
        current += dt.timedelta(days=1)
        if cal.is_working_day(current):
            found += 1
    return current


def answer_due(received: dt.date, country: str = COUNTRY) -> dt.date:
    """The last day to answer a complaint received on `received` (10 working days)."""
    return working_days_after(received, ANSWER_DAYS, country)


def extended_answer_due(received: dt.date, country: str = COUNTRY) -> dt.date:
    """The last day with the one extension: 10 working days on from the original due date."""
    return working_days_after(answer_due(received, country), EXTENSION_DAYS, country)


def payment_due(requested: dt.date, *, country: str = COUNTRY, shift: bool = False) -> dt.date:
    """The last day to pay a win the player asked for on `requested` (30 calendar days; with `shift`,
    a last day that is not a working day moves to the next working day)."""
    due = requested + dt.timedelta(days=PAYMENT_DAYS)
    if shift and not is_working_day(due, country):
        due = working_days_after(due, 1, country)
    return due


def _date(value: Any, field: str) -> dt.date:
    if not isinstance(value, str):
        raise EngineError(field, "a date such as \"2025-11-15\"")
    try:
        day = dt.date.fromisoformat(value.strip())
    except ValueError:
        raise EngineError(field, f"{value!r} is not a date such as \"2025-11-15\"") from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise EngineError(field, f"a date from {FIRST_YEAR} to {LAST_YEAR}")
    return day


def complaint(doc: Mapping[str, Any]) -> dict[str, Any]:
    extra = set(doc) - KEYS
    if extra:
        raise EngineError(sorted(extra)[0], f"is not a field of a complaint ({', '.join(sorted(KEYS))})")
    received = _date(require(doc, "received", ""), "received")
    channel = doc.get("channel")
    if channel is not None and channel not in CHANNELS:
        raise EngineError("channel", f"{channel!r} is not one of: {', '.join(CHANNELS)}")
    country = doc.get("country", COUNTRY)
    if not isinstance(country, str):
        raise EngineError("country", f"{country!r} is not a country code such as FI or UA")
    calendar(country)
    shift = doc.get("shift_payment_to_working_day", False)
    if not isinstance(shift, bool):
        raise EngineError("shift_payment_to_working_day", "true or false")
    due = answer_due(received, country)
    answer: dict[str, Any] = {
        "received": received.isoformat(), "channel": channel, "country": country,
        "counting_from": working_days_after(received, 1, country).isoformat(),
        "answer_due": due.isoformat(), "extension_notified_on": None, "extended_answer_due": None,
        "further_extension_allowed": True, "rule": RULE, "notes": [],
    }
    notified = doc.get("extension_notified_on")
    if notified is not None:
        notified = _date(notified, "extension_notified_on")
        if notified < received:
            raise EngineError("extension_notified_on", "is before the complaint was received")
        answer["extension_notified_on"] = notified.isoformat()
        if notified <= due:
            answer["extended_answer_due"] = working_days_after(due, EXTENSION_DAYS, country).isoformat()
            answer["further_extension_allowed"] = False
            answer["notes"].append("extended once by 10 working days; no further extension (S2 §2.16.4)")
        else:
            answer["further_extension_allowed"] = False
            answer["notes"].append(f"the player was notified after the answer was due ({due.isoformat()}): "
                                   "the extension does not apply (A30)")
    requested = doc.get("payout_requested")
    if requested is not None:
        requested = _date(requested, "payout_requested")
        answer["payout_requested"] = requested.isoformat()
        answer["payment_due"] = payment_due(requested, country=country, shift=shift).isoformat()
        answer["payment_rule"] = PAYMENT_RULE
    return answer


KINDS["complaint"] = complaint
