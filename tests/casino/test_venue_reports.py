"""The casino's reports (issue 19 item 5): the daily venue report (rounds, stakes, payouts, voided excess,
cap cuts, discrepancies per venue and gaming day, summed by the database) and the disputes and complaints
of a period (deadlines met, missed, open), as PDF and CSV in the report machinery. Every expected figure
is worked out here from the rounds the test records, not read from the code."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re

import pytest
from django.utils import timezone

from casino import complaints, disputes, operations, verification
from casino.models import Discrepancy
from casino.venue_reports import DISPUTES_COMPLAINTS, VENUE_DAY, venue_day_rows
from compliance import roles
from compliance.models import Report
from compliance.reports import report_render, report_request
from compliance.reports.render import render_bytes

V1 = timezone.make_aware(dt.datetime(2026, 1, 1))
D1, D2 = dt.date(2026, 3, 14), dt.date(2026, 3, 15)
LIMIT, CAP = 50, 200  # the table's maximum inside stake and win cap, in euros
ODDS = 35  # straight up (000-casino C-1)
CENT = 100


def _at(day: dt.date, minute: int) -> str:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(20, minute))).isoformat()


def _table(code):
    venue = operations.venue_create(actor="system:test", code=code, name=f"Casino {code.title()}", kind="casino",
                                    jurisdiction="FI")
    operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                            variant="single_zero_la_partage", min_stake_cents=100,
                            max_stake_cents={"roulette_inside_1": LIMIT * CENT, "roulette_outside": 500 * CENT},
                            win_cap_cents=CAP * CENT, effective_from=V1)
    return venue


def _spin(venue, ref, day, minute, bets, number, paid):
    return {"table": f"{venue}/r1", "ref": ref, "played_at": _at(day, minute), "outcome": {"number": number},
            "bets": [{"type": t, "stake": s, **({"numbers": [17]} if t == "straight" else {})} for t, s in bets],
            "paid": paid}


@pytest.fixture
def played(published):
    """Helsinki: on D1 a straight 80 € on 17 that wins (30 € above the limit voided; 50 € plays and wins
    1,750 €, cut to the 200 € cap), a straight 10 € that loses, a red 10 € that wins 10 €; on D2 a
    straight 20 € that wins 700 €, cut to 200 €, paid 300 € (80 € too much: a discrepancy). Turku: one red
    10 € that wins on D1."""
    helsinki, turku = _table("helsinki"), _table("turku")
    batch = operations.rounds_record(actor="inspector", source="api", verify=False, rounds=[
        _spin("helsinki", "a", D1, 1, [("straight", "80.00")], 17, ["280.00"]),
        _spin("helsinki", "b", D1, 2, [("straight", "10.00")], 3, ["0.00"]),
        _spin("helsinki", "c", D1, 3, [("red", "10.00")], 3, ["20.00"]),
        _spin("helsinki", "d", D2, 4, [("straight", "20.00")], 17, ["300.00"]),
        _spin("turku", "e", D1, 5, [("red", "10.00")], 1, ["20.00"]),
    ])
    verification.verify_batch(batch.pk)
    return helsinki, turku


EXPECTED = {
    ("Casino Helsinki", "2026-03-14"): {
        "rounds": 3, "verified": 3, "stakes_cents": (80 + 10 + 10) * CENT, "paid_cents": (280 + 0 + 20) * CENT,
        "due_cents": (80 + CAP + 0 + 20) * CENT, "difference_cents": 0, "voided_excess_cents": (80 - LIMIT) * CENT,
        "capped_excess_cents": (LIMIT * ODDS - CAP) * CENT, "discrepancies_open": 0, "discrepancies_resolved": 0},
    ("Casino Helsinki", "2026-03-15"): {
        "rounds": 1, "verified": 1, "stakes_cents": 20 * CENT, "paid_cents": 300 * CENT, "due_cents": (20 + CAP) * CENT,
        "difference_cents": (300 - 20 - CAP) * CENT, "voided_excess_cents": 0, "capped_excess_cents": (20 * ODDS - CAP) * CENT,
        "discrepancies_open": 1, "discrepancies_resolved": 0},
    ("Casino Turku", "2026-03-14"): {
        "rounds": 1, "verified": 1, "stakes_cents": 10 * CENT, "paid_cents": 20 * CENT, "due_cents": 20 * CENT,
        "difference_cents": 0, "voided_excess_cents": 0, "capped_excess_cents": 0, "discrepancies_open": 0,
        "discrepancies_resolved": 0},
}


def _params(kind=VENUE_DAY, **extra):
    return kind.prepare({"since": "2026-03-01", "until": "2026-03-31", **extra})


def _by_key(rows):
    return {(r["venue"], r["day"]): {k: v for k, v in r.items() if k not in ("venue", "day")} for r in rows}


# --- the daily venue report ------------------------------------------------------------------------------


def test_the_daily_venue_report_sums_each_venue_and_gaming_day(played):
    assert _by_key(venue_day_rows(_params())) == EXPECTED


def test_the_daily_venue_report_of_one_venue(played):
    rows = venue_day_rows(_params(venue="turku"))
    assert _by_key(rows) == {("Casino Turku", "2026-03-14"): EXPECTED[("Casino Turku", "2026-03-14")]}


def test_a_resolution_after_the_reports_moment_still_counts_as_open(played, make_staff):
    before = _params()
    manager = make_staff(roles.CASINO_MANAGER)
    operations.discrepancy_resolve(actor=manager, discrepancy=Discrepancy.objects.get(), note="recovered")
    after = _params(as_of=(timezone.now() + dt.timedelta(seconds=1)).isoformat())
    counts = [(r["discrepancies_open"], r["discrepancies_resolved"]) for p in (before, after)
              for r in venue_day_rows(p) if r["day"] == "2026-03-15"]
    assert counts == [(1, 0), (0, 1)]


def test_rounds_recorded_after_the_reports_moment_are_not_in_it(played):
    params = _params()
    operations.rounds_record(actor="inspector", source="api", verify=False, rounds=[
        _spin("turku", "late", D1, 30, [("red", "10.00")], 1, ["20.00"])])
    assert _by_key(venue_day_rows(params))[("Casino Turku", "2026-03-14")]["rounds"] == 1


def test_the_daily_venue_report_reads_in_three_queries_however_many_rounds(played, django_assert_num_queries):
    params = _params()
    operations.rounds_record(actor="inspector", source="api", verify=False, rounds=[
        _spin("helsinki", f"x{i}", D2, 10 + i, [("red", "10.00")], 1, ["20.00"]) for i in range(40)])
    with django_assert_num_queries(3):
        venue_day_rows(_params())
    assert params["since"] == "2026-03-01"


def test_the_csv_keeps_cents_and_the_pdf_writes_euros_in_finnish(played):
    pdf, csv_bytes, rows, pages = render_bytes(VENUE_DAY.key, _params(), "fi")
    parsed = {(r["venue"], r["day"]): r for r in csv.DictReader(io.StringIO(csv_bytes.decode()))}
    text = _pdf_text(pdf)
    cut = (LIMIT * ODDS - CAP) + (20 * ODDS - CAP)  # Helsinki's cap cuts of the period: 1,550 € + 500 €
    assert int(parsed[("Casino Helsinki", "2026-03-14")]["capped_excess_cents"]) == (LIMIT * ODDS - CAP) * CENT
    assert int(parsed[("Casino Helsinki", "2026-03-15")]["difference_cents"]) == (300 - 20 - CAP) * CENT
    assert (rows, "1 550,00" in text, f"{cut // 1000} {cut % 1000:03d},00" in text, "Yhteensä" in text) == (
        3, True, True, True)


def test_the_report_is_archived_with_its_version_and_the_sha256_of_its_pdf(played, make_staff):
    officer = make_staff(roles.COMPLIANCE_OFFICER)
    report = report_request(actor=officer, kind=VENUE_DAY.key, params={"since": "2026-03-01", "until": "2026-03-31"},
                            language="sv")
    report_render(report.pk)
    report = Report.objects.get(pk=report.pk)
    assert (report.status, report.version, report.sha256, "as_of" in report.params) == (
        "done", "1", hashlib.sha256(report.pdf.read()).hexdigest(), True)


def test_the_same_parameters_render_the_same_bytes_later(played, make_staff):
    params = _params()
    first = render_bytes(VENUE_DAY.key, params, "en")[:2]
    operations.discrepancy_resolve(actor=make_staff(roles.CASINO_MANAGER), discrepancy=Discrepancy.objects.get(),
                                   note="later")
    assert render_bytes(VENUE_DAY.key, params, "en")[:2] == first


def test_an_unknown_venue_is_refused_when_the_report_is_asked_for(db):
    with pytest.raises(ValueError, match="nowhere"):
        _params(venue="nowhere")


def _pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader  # noqa: PLC0415 (a test-only reader)

    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).replace("\xa0", " "))


# --- disputes and complaints of a period ----------------------------------------------------------------


@pytest.fixture
def handled(played):
    """Helsinki: a dispute on D1 (decided by the dealer) amended once; complaints received in March 2026:
    one answered in time with winnings paid late, one answered late, one never answered (all long past)."""
    table = played[0].tables.get()
    first = disputes.dispute_record(
        actor="inspector", table=table, occurred_at=timezone.make_aware(dt.datetime(2026, 3, 14, 21)),
        round_description="spin at 21:00", players=[{"description": "box 2"}],
        deciders=[{"name": "Mikko", "role": "dealer"}], decision="The bet stands.", round_outcome="continued")
    disputes.dispute_record(
        actor="inspector", table=table, occurred_at=timezone.make_aware(dt.datetime(2026, 3, 14, 21)),
        round_description="spin at 21:00", players=[{"description": "box 2"}],
        deciders=[{"name": "Mikko", "role": "dealer"}, {"name": "Inka", "role": "inspector"}],
        decision="The bet stands.", round_outcome="ended", amends=first, amendment_reason="the inspector decided too")
    venue = played[0]

    def complaint(day, **kw):
        return complaints.complaint_record(actor="casino", venue=venue, received_on=dt.date(2026, 3, day),
                                           channel="written", player_name=f"Player {day}", subject="x", **kw)

    # Received Monday 2 March: 10 Finnish working days -> Monday 16 March; payment due 1 April.
    in_time = complaint(2)
    complaints.complaint_answer(actor="casino", complaint=in_time, answered_on=dt.date(2026, 3, 16), text="Upheld.",
                                winnings_cents=12_345)
    complaints.complaint_mark_paid(actor="casino", complaint=in_time, paid_on=dt.date(2026, 4, 2))
    late = complaint(3)  # due Tuesday 17 March, answered on the 18th
    complaints.complaint_answer(actor="casino", complaint=late, answered_on=dt.date(2026, 3, 18), text="No.")
    complaint(4)  # due Wednesday 18 March, never answered
    return venue


def test_the_disputes_and_complaints_report_says_which_deadlines_were_met(handled):
    data = DISPUTES_COMPLAINTS.data(_params(DISPUTES_COMPLAINTS))
    rows = {(r["record"], r["player"] if r["record"] == "complaint" else r["number"]): r for r in data.rows}
    answers = {name: rows[("complaint", name)]["answer_deadline"] for name in ("Player 2", "Player 3", "Player 4")}
    paid = rows[("complaint", "Player 2")]
    assert answers == {"Player 2": "met", "Player 3": "late", "Player 4": "unmet"}
    assert (paid["answer_due"], paid["payment_due"], paid["payment_deadline"], paid["winnings_cents"]) == (
        "2026-03-16", "2026-04-01", "late", 12_345)


def test_the_disputes_report_lists_each_record_and_its_amendment(handled):
    data = DISPUTES_COMPLAINTS.data(_params(DISPUTES_COMPLAINTS))
    listed = [(r["amends"], r["amended_by"], r["decided_by"]) for r in data.rows if r["record"] == "dispute"]
    first = min(r["number"] for r in data.rows if r["record"] == "dispute")
    assert listed == [("", first + 1, "Mikko (dealer)"), (first, "", "Mikko (dealer); Inka (inspector)")]


def test_the_disputes_and_complaints_report_renders_in_swedish_with_its_csv(handled):
    pdf, csv_bytes, rows, _pages = render_bytes(DISPUTES_COMPLAINTS.key, _params(DISPUTES_COMPLAINTS), "sv")
    parsed = list(csv.DictReader(io.StringIO(csv_bytes.decode())))
    text = _pdf_text(pdf)
    assert (rows, [r["record"] for r in parsed].count("complaint"), parsed[-1]["answer_deadline"]) == (5, 3, "unmet")
    assert "123,45" in text and "Tvister" in text
