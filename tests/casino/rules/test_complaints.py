"""Complaint and payout deadlines of casino Billionaire (004 S2 §2.15, §2.16.4; E24, A29, A30)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import complaints
from casino.rules.jsonio import compute
from tests.casino.rules.support import examples, run_example

EXAMPLES = examples("complaints")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_examples(path):
    run_example(path)


def test_the_examples_are_there():
    assert any(p.stem.startswith("004_E24") for p in EXAMPLES)


def test_a_complaint_received_on_a_weekend_counts_from_monday():
    saturday, sunday, monday = dt.date(2025, 11, 15), dt.date(2025, 11, 16), dt.date(2025, 11, 17)
    assert complaints.answer_due(saturday, "FI") == complaints.answer_due(sunday, "FI")
    assert complaints.answer_due(saturday, "FI") < complaints.answer_due(monday, "FI")


def test_ukraine_had_no_public_days_off_under_martial_law():
    # 2021: 8 March (Monday) was a day off, so 10 working days from Fri 5 March end on Mon 22 March;
    # 2023: the same dates under martial law end on Fri 17 March.
    assert complaints.answer_due(dt.date(2021, 3, 5)) == dt.date(2021, 3, 22)
    assert complaints.answer_due(dt.date(2023, 3, 3)) == dt.date(2023, 3, 17)


def test_the_payment_deadline_is_thirty_calendar_days_unshifted_by_default():
    # request Sat 1 Nov 2025 -> day 30 is Mon 1 Dec; request Fri 7 Nov 2025 -> Sun 7 Dec 2025 (not moved)
    assert complaints.payment_due(dt.date(2025, 11, 1), country="FI") == dt.date(2025, 12, 1)
    assert complaints.payment_due(dt.date(2025, 11, 7), country="FI") == dt.date(2025, 12, 7)
    # shifted: Sun 7 Dec -> Mon 8 Dec (6 Dec, Independence Day, is a Saturday)
    assert complaints.payment_due(dt.date(2025, 11, 7), country="FI", shift=True) == dt.date(2025, 12, 8)


@pytest.mark.parametrize(("doc", "field"), [
    ({"kind": "complaint"}, "received"),
    ({"kind": "complaint", "received": "2025-02-30"}, "received"),
    ({"kind": "complaint", "received": "2025-11-15", "channel": "fax"}, "channel"),
    ({"kind": "complaint", "received": "2025-11-15", "extension_notified_on": "2025-11-14"}, "extension_notified_on"),
    ({"kind": "complaint", "received": "2025-11-15", "payout_requested": 20251115}, "payout_requested"),
    ({"kind": "complaint", "received": "2025-11-15", "answered": "2025-11-20"}, "answered"),
    ({"kind": "complaint", "received": "2025-11-15", "country": 246}, "country"),
])
def test_bad_input_names_the_field(doc, field):
    from casino.rules.base import EngineError  # noqa: PLC0415

    with pytest.raises(EngineError) as err:
        compute(doc)
    assert err.value.field == field


DATES = st.dates(min_value=dt.date(2015, 1, 1), max_value=dt.date(2035, 12, 31))


@settings(max_examples=300, deadline=None)
@given(received=DATES, country=st.sampled_from(["FI", "UA", "SE", "EE"]))
def test_deadline_properties(received, country):
    due = complaints.answer_due(received, country)
    extended = complaints.extended_answer_due(received, country)
    assert complaints.is_working_day(due, country) and complaints.is_working_day(extended, country)
    assert due > received and extended > due
    # exactly 10 working days after the received day, and the extension exactly 10 after the first due date
    days = [received + dt.timedelta(days=n) for n in range(1, (due - received).days + 1)]
    assert sum(complaints.is_working_day(d, country) for d in days) == 10
    later = [due + dt.timedelta(days=n) for n in range(1, (extended - due).days + 1)]
    assert sum(complaints.is_working_day(d, country) for d in later) == 10
    # 10 working days are 10 distinct days after the received day (not always two calendar weeks: the
    # holiday library knows Saturdays worked in exchange for a bridge day, e.g. Ukraine, 14 Feb 2015)
    assert (due - received).days >= 10
    answer = compute({"kind": "complaint", "received": received.isoformat(), "country": country,
                      "extension_notified_on": due.isoformat(), "payout_requested": received.isoformat()})
    assert (answer["answer_due"], answer["extended_answer_due"]) == (due.isoformat(), extended.isoformat())
    assert answer["further_extension_allowed"] is False
    assert answer["payment_due"] == (received + dt.timedelta(days=30)).isoformat()
