"""The jackpot liability report (issue 19 items 3 and 5): per venue and jackpot, for a period of gaming
days, the opening balance, seed and resets, contributions, wins, transfers and the closing balance, read
back from the CSV and the PDF, archived with their SHA-256, in fi, sv and en."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io

import pytest
from pypdf import PdfReader

from casino import jackpots
from compliance import roles
from compliance.models import Report
from compliance.reports import report_render, report_request
from tests.casino.conftest import JACKPOT_DAY
from tests.casino.jackpot_rounds import STRAIGHT_FLUSH, played, record, uth_round

DAY = JACKPOT_DAY.isoformat()


@pytest.fixture
def posted(progressive, uth_table):
    """The seed on 1 March; on 14 March two contributions and a 10 % win, the pot reset to 10,000 €."""
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1)),
            uth_round(uth_table, "sf", played(JACKPOT_DAY, 2), STRAIGHT_FLUSH, pot_cents=1_000_025)])
    while progressive.posted_through != JACKPOT_DAY:
        jackpots.jackpot_post_day(jackpot=progressive, day=jackpots.next_day(progressive))
        progressive.refresh_from_db()
    return progressive


def _make(make_staff, params: dict, language: str = "en") -> Report:
    report = report_request(actor=make_staff(roles.COMPLIANCE_OFFICER), kind="jackpot_liability", params=params,
                            language=language)
    report_render(report.pk)
    return Report.objects.get(pk=report.pk)


def _csv(report: Report) -> list[dict]:
    with report.csv.open("rb") as f:
        return list(csv.DictReader(io.StringIO(f.read().decode())))


def _text(report: Report) -> str:
    with report.pdf.open("rb") as f:
        pages = PdfReader(io.BytesIO(f.read())).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def test_the_csv_has_the_days_opening_contributions_wins_resets_and_closing(make_staff, posted):
    row = _csv(_make(make_staff, {"since": DAY, "until": DAY}))[0]
    figures = {k: int(row[k]) for k in ("opening_cents", "funded_cents", "contributions_cents", "wins_cents",
                                         "transfers_cents", "closing_cents")}
    assert figures == {"opening_cents": 1_000_000, "funded_cents": 100_002 - 25, "contributions_cents": 50,
                       "wins_cents": 100_002, "transfers_cents": 0, "closing_cents": 1_000_025}


def test_the_seed_is_in_the_period_it_was_paid_in(make_staff, posted):
    row = _csv(_make(make_staff, {"since": "2026-03-01", "until": "2026-03-13"}))[0]
    assert (int(row["opening_cents"]), int(row["funded_cents"]), int(row["closing_cents"])) == (0, 1_000_000, 1_000_000)


def test_a_removal_is_a_transfer_of_the_period(make_staff, posted):
    jackpots.jackpot_remove(actor="system:test", jackpot=posted, destination="unpaid_funds", note="closed")
    today = dt.date.today().isoformat()
    row = _csv(_make(make_staff, {"since": "2026-03-15", "until": today}))[0]
    assert (int(row["transfers_cents"]), int(row["closing_cents"]), row["state"]) == (-1_000_025, 0, "removed")


def test_the_report_is_archived_with_the_sha256_of_its_files(make_staff, posted):
    report = _make(make_staff, {"since": DAY, "until": DAY})
    with report.pdf.open("rb") as f:
        pdf = f.read()
    with report.csv.open("rb") as f:
        data = f.read()
    assert (report.sha256, report.csv_sha256) == (hashlib.sha256(pdf).hexdigest(), hashlib.sha256(data).hexdigest())


@pytest.mark.parametrize(("language", "title", "column"), [
    ("fi", "Jättipottivastuu", "Loppusaldo (€)"),
    ("sv", "Jackpottansvar", "Utgående saldo (€)"),
    ("en", "Jackpot liability", "Closing balance (€)"),
])
def test_the_pdf_is_in_the_reports_language(make_staff, posted, language, title, column):
    text = _text(_make(make_staff, {"since": DAY, "until": DAY}, language))
    assert title in text and column in text and "UTH Progressive" in text


def test_the_pdf_shows_the_closing_balance_in_euros(make_staff, posted):
    assert "10,000.25" in _text(_make(make_staff, {"since": DAY, "until": DAY}))


def test_a_venue_without_jackpots_gives_an_empty_report(make_staff, posted):
    from casino import operations

    operations.venue_create(actor="system:test", code="hall", name="Pelisali", kind="game_hall", jurisdiction="FI")
    assert _csv(_make(make_staff, {"since": DAY, "until": DAY, "venue": "hall"})) == []


def test_an_unknown_venue_is_refused_when_asked(make_staff, posted):
    with pytest.raises(ValueError):
        report_request(actor=make_staff(roles.COMPLIANCE_OFFICER), kind="jackpot_liability",
                       params={"since": DAY, "until": DAY, "venue": "nowhere"})


def test_the_reports_page_offers_the_venue_of_the_jackpot_liability(staff_client, posted):
    from django.urls import reverse

    response = staff_client(roles.COMPLIANCE_OFFICER).get(reverse("compliance:reports"))
    assert response.context["kind_fields"]["jackpot_liability"] == ["since", "until", "jackpot_venue"]
