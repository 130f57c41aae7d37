"""The lottery reports: a draw's payout report and the large wins of a period, read back from the PDF
and the CSV; their parameters, reproducibility, the empty report, the pages that request them and
who may."""

from __future__ import annotations

import csv
import io
import json
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from compliance.models import Report
from compliance.reports import report_render, report_request
from compliance.roles import AUDITOR, COMPLIANCE_OFFICER, DRAW_SUPERVISOR
from lottery.models import Draw, Payout
from lottery.services import (
    correction_confirm,
    correction_request,
    draw_close_sales,
    pay_draw,
    payout_approve_large,
    result_confirm,
    result_enter,
    settlement_approve,
    wager_place,
)
from lottery.services.settlement import run_settlement
from tests.lottery.support import add_line

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
SEVEN = [1, 2, 3, 4, 5, 6, 7]  # the jackpot: 1,000,000 € in these draws, a large win
FOUR = [1, 2, 3, 4, 20, 21, 22]  # 4 correct: 10 €
THREE_PLUS = [1, 2, 3, 8, 20, 21, 22]  # 3 + additional: 2 €
NOTHING = [11, 12, 13, 14, 20, 21, 22]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def people(make_staff):
    return SimpleNamespace(
        enterer=make_staff(DRAW_SUPERVISOR, first_name="Eero", last_name="Enterer"),
        confirmer=make_staff(DRAW_SUPERVISOR, first_name="Kaisa", last_name="Confirmer"),
        approver=make_staff(DRAW_SUPERVISOR, first_name="Aarne", last_name="Approver"),
        officer=make_staff(COMPLIANCE_OFFICER, first_name="Liisa", last_name="Largewin"),
    )


@pytest.fixture
def lotto_round(open_draw, make_gambler, to_the_draw, people):
    """lotto_round(player_lines, retail_lines, approve=, approve_large=) -> the draw, settled (and by
    default approved, its large win approved and its prizes paid)."""

    def make(player_lines=(SEVEN, FOUR), retail_lines=(FOUR, THREE_PLUS, NOTHING), *, approve=True,
             approve_large=True, **draw_fields):
        draw = open_draw(**draw_fields)
        for i, numbers in enumerate(retail_lines):
            add_line(draw, numbers, reference=f"RT{draw.pk}-{i:03d}")
        for i, numbers in enumerate(player_lines):
            player, session = make_gambler(100_00)
            wager_place(actor="channel:web", draw=draw, player=player, session=session, reference=f"W{draw.pk}-{i}",
                        lines=[{"numbers": numbers, "stake_cents": 100}])
        draw = to_the_draw(draw)
        draw_close_sales(actor="system:test", draw=draw)
        result_enter(actor=people.enterer, draw=draw, numbers=RESULT, draw_method="device", witnesses="W. Itness")
        result_confirm(actor=people.confirmer, draw=draw)
        run_settlement(draw.settlement_runs.get().pk)
        if approve:
            settlement_approve(actor=people.approver, draw=draw)
            if approve_large:
                for payout in Payout.objects.filter(draw=draw, state=Payout.State.HELD):
                    payout_approve_large(actor=people.officer, payout=payout)
            pay_draw(draw)
        return Draw.objects.select_related("game").get(pk=draw.pk)

    return make


def _make(actor, kind: str, params: dict, language: str = "en") -> Report:
    report = report_request(actor=actor, kind=kind, params=params, language=language)
    report_render(report.pk)
    return Report.objects.get(pk=report.pk)


def _pdf(report: Report) -> PdfReader:
    with report.pdf.open("rb") as f:
        return PdfReader(io.BytesIO(f.read()))


def _text(report: Report) -> str:
    """The PDF's text with every run of white space as one space (table cells wrap their text; thousands
    are separated by a no-break space)."""
    return " ".join(" ".join(page.extract_text() for page in _pdf(report).pages).split())


def _csv(report: Report) -> list[dict]:
    with report.csv.open("rb") as f:
        return list(csv.DictReader(io.StringIO(f.read().decode())))


def _period(draw) -> dict:
    from django.utils import timezone

    day = timezone.localtime(draw.draw_at).date().isoformat()
    return {"since": day, "until": day}


# --- draw payout report: content ----------------------------------------------------------------------


def test_payout_report_shows_game_draw_number_and_result(lotto_round, people):
    draw = lotto_round()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    assert "Lotto" in text and f"#{draw.number}" in text and "1 2 3 4 5 6 7 + 8 / plus 3" in text


def test_payout_report_shows_the_turnover(lotto_round, people):
    draw = lotto_round()
    run = draw.settlement_runs.get()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    assert f"Turnover (€) {run.turnover_cents // 100}.{run.turnover_cents % 100:02d}" in text


def test_payout_report_gives_each_class_its_winners_prize_and_total(lotto_round, people):
    draw = lotto_round()
    classes = {r["class"]: r for r in _csv(_make(people.officer, "draw_payout", {"draw": draw.pk}))
               if r["record"] == "class"}
    four = next(r for r in classes.values() if r["prize_cents"] == "1000")
    assert (four["winners"], four["paid_cents"]) == ("2", "2000")


def test_payout_report_prints_the_class_figures_in_euros(lotto_round, people):
    draw = lotto_round()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    assert "10.00" in text and "20.00" in text and "1,000,000.00" in text


def test_payout_report_in_finnish_prints_euros_the_finnish_way(lotto_round, people):
    """Comma before the cents, a no-break space between thousands (_text folds it into a space)."""
    draw = lotto_round()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}, language="fi"))
    assert "10,00" in text and "1 000 000,00" in text


def test_payout_report_in_swedish_prints_euros_the_swedish_way(lotto_round, people):
    text = _text(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}, language="sv"))
    assert "1 000 000,00" in text


def test_payout_report_csv_is_the_same_in_every_language(lotto_round, people):
    draw = lotto_round()
    english, finnish = (_make(people.officer, "draw_payout", {"draw": draw.pk}, language=x) for x in ("en", "fi"))
    assert english.sha256 != finnish.sha256 and english.csv_sha256 == finnish.csv_sha256


def test_payout_report_totals_match_the_settlement(lotto_round, people):
    draw = lotto_round()
    run = draw.settlement_runs.get()
    total = next(r for r in _csv(_make(people.officer, "draw_payout", {"draw": draw.pk})) if r["record"] == "total")
    assert (int(total["winners"]), int(total["paid_cents"]), int(total["breakage_cents"])) == (
        run.winners_count, run.paid_cents, run.breakage_cents)


def test_payout_report_shows_the_rollover_of_a_class_without_winners(lotto_round, people):
    draw = lotto_round(player_lines=(FOUR,), retail_lines=())  # nobody has 6 + additional: class 2 rolls over
    rows = _csv(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    second = next(r for r in rows if r["record"] == "class" and r["class"] == "2")
    assert (second["winners"], int(second["rollover_out_cents"]) > 0) == ("0", True)


def test_payout_report_names_who_entered_and_confirmed_the_result(lotto_round, people):
    text = _text(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}))
    assert "Eero Enterer" in text and "Kaisa Confirmer" in text


def test_payout_report_names_who_approved_the_payout(lotto_round, people):
    text = _text(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}))
    assert f"Payout approved by Aarne Approver ({people.approver.username})" in text


def test_payout_report_lists_the_large_win_and_its_approver(lotto_round, people):
    text = _text(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}))
    large = text[text.index("Large wins (from"):text.index("Winners: ")]
    assert "1,000,000.00" in large and "Liisa Largewin" in large


def test_payout_report_says_when_the_payout_is_not_approved_yet(lotto_round, people):
    text = _text(_make(people.officer, "draw_payout", {"draw": lotto_round(approve=False).pk}))
    assert "not approved yet" in text and "awaiting approval" in text


def test_payout_report_lists_every_winner_with_ticket_class_prize_and_state(lotto_round, people):
    draw = lotto_round()
    winners = [r for r in _csv(_make(people.officer, "draw_payout", {"draw": draw.pk})) if r["record"] == "winner"]
    retail_four = next(r for r in winners if r["ticket"] == f"RT{draw.pk}-000")
    assert (len(winners), retail_four["prize_cents"], retail_four["payout_state"]) == (4, "1000", "retail")


def test_payout_report_pdf_lists_the_winners_tickets(lotto_round, people):
    draw = lotto_round()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    winners = text[text.index("Winners: "):]
    assert f"RT{draw.pk}-000" in winners and f"RT{draw.pk}-001" in winners and f"RT{draw.pk}-002" not in winners


def test_payout_report_shows_the_payout_states_of_player_winners(lotto_round, people):
    rows = _csv(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}))
    assert {r["payout_state"] for r in rows if r["record"] == "winner" and r["player"]} == {"paid"}


def test_payout_report_names_the_settlement_version_and_run(lotto_round, people):
    draw = lotto_round()
    run = draw.settlement_runs.get()
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    assert f"version {run.version} · run id {run.pk}" in text


def test_payout_report_records_the_newest_settled_version_in_its_parameters(lotto_round, people):
    draw = lotto_round()
    assert _make(people.officer, "draw_payout", {"draw": draw.pk}).params == {"draw": draw.pk, "version": 1}


def test_payout_report_of_a_draw_without_settlement_is_refused(open_draw, people):
    with pytest.raises(ValueError, match="no settled settlement"):
        report_request(actor=people.officer, kind="draw_payout", params={"draw": open_draw().pk})


def test_payout_report_of_a_version_that_does_not_exist_is_refused(lotto_round, people):
    with pytest.raises(ValueError, match="no settled settlement version 2"):
        report_request(actor=people.officer, kind="draw_payout", params={"draw": lotto_round().pk, "version": 2})


def test_payout_report_of_a_corrected_draw_lists_the_line_that_no_longer_wins(lotto_round, people):
    draw = lotto_round(player_lines=(THREE_PLUS,), retail_lines=())
    correction_request(actor=people.enterer, draw=draw, numbers={**RESULT, "additional": 9}, reason="misread")
    run_settlement(correction_confirm(actor=people.confirmer, draw=draw).pk)
    settlement_approve(actor=people.approver, draw=draw)
    rows = _csv(_make(people.officer, "draw_payout", {"draw": draw.pk, "version": 2}))
    gone = next(r for r in rows if r["record"] == "winner")
    assert (gone["class"], gone["prize_cents"], gone["payout_cents"]) == ("", "0", "-200")


def test_payout_report_of_an_earlier_version_can_still_be_made(lotto_round, people):
    draw = lotto_round(player_lines=(THREE_PLUS,), retail_lines=())
    correction_request(actor=people.enterer, draw=draw, numbers={**RESULT, "additional": 9}, reason="misread")
    run_settlement(correction_confirm(actor=people.confirmer, draw=draw).pk)
    text = _text(_make(people.officer, "draw_payout", {"draw": draw.pk, "version": 1}))
    assert "superseded" in text and "1 2 3 4 5 6 7 + 8" in text


# --- draw payout report: layout, CSV, reproducibility ---------------------------------------------------


def test_payout_report_counts_its_pages(lotto_round, people):
    report = _make(people.officer, "draw_payout", {"draw": lotto_round().pk})
    assert report.pages == len(_pdf(report).pages) >= 1


def test_payout_report_with_many_winners_is_a_listing_of_every_winner_over_pages(lotto_round, people,
                                                                                   monkeypatch):
    from compliance.reports import render

    monkeypatch.setattr(render, "LISTING_ROWS", 10)
    draw = lotto_round(player_lines=(), retail_lines=[FOUR] * 130)
    report = _make(people.officer, "draw_payout", {"draw": draw.pk})
    text = _text(report)
    assert report.pages > 2 and all(f"RT{draw.pk}-{i:03d}" in text for i in range(130))


def test_payout_report_listing_repeats_the_column_header_on_each_page(lotto_round, people, monkeypatch):
    from compliance.reports import render

    monkeypatch.setattr(render, "LISTING_ROWS", 10)
    draw = lotto_round(player_lines=(), retail_lines=[FOUR] * 130)
    report = _make(people.officer, "draw_payout", {"draw": draw.pk})
    pages = [page.extract_text() for page in _pdf(report).pages]
    with_winners = [text for text in pages if f"RT{draw.pk}-" in text]
    assert len(with_winners) >= 3 and all("Payout state" in text for text in with_winners)


def test_payout_report_tables_of_winners_have_their_own_header(lotto_round, people):
    report = _make(people.officer, "draw_payout", {"draw": lotto_round(player_lines=(), retail_lines=[FOUR] * 90).pk})
    winners = _text(report).split("Winners: ", 1)[1]
    assert winners.count("Payout state") == 3  # 90 winners in tables of 40


def test_payout_report_csv_starts_with_classes_then_total_then_winners(lotto_round, people):
    rows = _csv(_make(people.officer, "draw_payout", {"draw": lotto_round().pk}))
    records = [r["record"] for r in rows]
    assert records == sorted(records, key=["class", "total", "winner"].index) and records.count("total") == 1


def test_payout_report_csv_keeps_money_in_cents(lotto_round, people):
    draw = lotto_round()
    rows = _csv(_make(people.officer, "draw_payout", {"draw": draw.pk}))
    assert next(r for r in rows if r["ticket"] == f"RT{draw.pk}-001")["prize_cents"] == "200"


def test_same_payout_report_parameters_give_the_same_bytes(lotto_round, people):
    draw = lotto_round()
    first = _make(people.officer, "draw_payout", {"draw": draw.pk})
    second = _make(people.officer, "draw_payout", {"draw": draw.pk, "version": 1})
    assert (first.sha256, first.csv_sha256) == (second.sha256, second.csv_sha256)


def test_same_parameters_give_the_same_bytes_when_fonttools_subsets_the_fonts(lotto_round, people, monkeypatch):
    # Without libharfbuzz-subset WeasyPrint subsets with fontTools, which stamps each font with the
    # clock's time: here a clock that moves ten seconds at each reading.
    import os

    import fontTools.misc.timeTools as font_time
    import weasyprint.pdf.fonts as weasy_fonts

    environment = os.environ.get("SOURCE_DATE_EPOCH")
    monkeypatch.setattr(weasy_fonts, "harfbuzz_subset", None)
    ticks = iter(range(1_800_000_000, 1_900_000_000, 10))
    monkeypatch.setattr(font_time, "time", SimpleNamespace(time=lambda: next(ticks)))
    draw = lotto_round()
    first = _make(people.officer, "draw_payout", {"draw": draw.pk})
    second = _make(people.officer, "draw_payout", {"draw": draw.pk})
    assert first.sha256 == second.sha256
    assert os.environ.get("SOURCE_DATE_EPOCH") == environment  # put back after each render


def test_payout_report_changes_when_a_large_win_is_approved(lotto_round, people):
    draw = lotto_round(approve_large=False)
    before = _make(people.officer, "draw_payout", {"draw": draw.pk})
    payout_approve_large(actor=people.officer, payout=Payout.objects.get(draw=draw, state=Payout.State.HELD))
    assert _make(people.officer, "draw_payout", {"draw": draw.pk}).sha256 != before.sha256


def test_payout_report_is_made_in_finnish_and_swedish_too(lotto_round, people):
    draw = lotto_round()
    reports = [_make(people.officer, "draw_payout", {"draw": draw.pk}, language=code) for code in ("fi", "sv")]
    assert [r.status for r in reports] == ["done", "done"] and reports[0].sha256 != reports[1].sha256


def test_payout_report_with_no_winners_says_so(lotto_round, people):
    draw = lotto_round(player_lines=(), retail_lines=(NOTHING,))
    assert "No winners in this settlement version." in _text(_make(people.officer, "draw_payout", {"draw": draw.pk}))


# --- large wins ----------------------------------------------------------------------------------------


def test_large_wins_report_lists_the_payout_above_the_threshold(lotto_round, people):
    draw = lotto_round()
    rows = _csv(_make(people.officer, "large_wins", _period(draw)))
    assert [(r["draw"], r["amount_cents"], r["state"]) for r in rows] == [(str(draw), "100000000", "paid")]


def test_large_wins_report_names_the_player_and_the_approvers(lotto_round, people):
    draw = lotto_round()
    player_id = Payout.objects.get(draw=draw, amount_cents=100_000_000).player_id
    text = _text(_make(people.officer, "large_wins", _period(draw)))
    assert f"player {player_id}" in text and "Liisa Largewin" in text and "Aarne Approver" in text


def test_large_wins_report_shows_a_held_win_waiting(lotto_round, people):
    draw = lotto_round(approve_large=False)
    assert "held: large win" in _text(_make(people.officer, "large_wins", _period(draw)))


def test_large_wins_report_includes_retail_tickets(lotto_round, people):
    draw = lotto_round(player_lines=(), retail_lines=(SEVEN,))
    rows = _csv(_make(people.officer, "large_wins", _period(draw)))
    assert [(r["holder"], r["state"]) for r in rows] == [(f"ticket RT{draw.pk}-000", "retail")]


def test_large_wins_report_uses_the_configured_threshold(lotto_round, people, settings):
    settings.LOTTERY_LARGE_WIN_CENTS = 1000
    draw = lotto_round()
    report = _make(people.officer, "large_wins", _period(draw))
    assert (report.params["min_cents"], sorted(int(r["amount_cents"]) for r in _csv(report))) == (
        1000, [1000, 1000, 100_000_000])


def test_large_wins_report_filters_by_game(lotto_round, people):
    draw = lotto_round()
    report = _make(people.officer, "large_wins", {**_period(draw), "game": "eurojackpot"})
    assert "No data for these parameters." in _text(report)


def test_large_wins_report_of_an_unknown_game_is_refused(people):
    with pytest.raises(ValueError, match="no game"):
        report_request(actor=people.officer, kind="large_wins", params={"since": "2026-01-01", "until": "2026-01-31",
                                                                         "game": "bingo"})


def test_empty_large_wins_report_is_one_page_saying_no_data(people):
    report = _make(people.officer, "large_wins", {"since": "2001-01-01", "until": "2001-01-31"})
    assert (report.pages, "No data for these parameters." in _text(report)) == (1, True)


def test_same_large_wins_parameters_give_the_same_bytes(lotto_round, people):
    period = _period(lotto_round())
    assert _make(people.officer, "large_wins", period).sha256 == _make(people.officer, "large_wins", period).sha256


# --- pages and permissions ------------------------------------------------------------------------------


def test_reports_page_offers_the_settled_draws(lotto_round, staff_client):
    draw = lotto_round()
    page = staff_client(COMPLIANCE_OFFICER).get("/compliance/reports/").content.decode()
    assert f'<option value="{draw.pk}">{draw} · ' in page


def test_reports_page_preselects_the_kind_and_draw_of_a_link(lotto_round, staff_client):
    draw = lotto_round()
    page = staff_client(COMPLIANCE_OFFICER).get(f"/compliance/reports/?kind=draw_payout&draw={draw.pk}").content.decode()
    assert f'<option value="{draw.pk}" selected>' in page and '<option value="draw_payout" selected>' in page


def test_officer_requests_a_payout_report_by_choosing_the_draw(lotto_round, staff_client):
    draw = lotto_round()
    staff_client(COMPLIANCE_OFFICER).post("/compliance/reports/new/", {"kind": "draw_payout", "language": "en",
                                                                       "draw": draw.pk})
    assert Report.objects.get().params == {"draw": draw.pk, "version": 1}


def test_officer_requests_a_payout_report_by_draw_id(lotto_round, staff_client):
    draw = lotto_round()
    staff_client(COMPLIANCE_OFFICER).post("/compliance/reports/new/", {"kind": "draw_payout", "language": "en",
                                                                       "draw_id": draw.pk, "version": "1"})
    assert Report.objects.get().params == {"draw": draw.pk, "version": 1}


def test_reports_page_refuses_a_draw_that_is_not_settled(open_draw, staff_client):
    client = staff_client(COMPLIANCE_OFFICER)
    response = client.post("/compliance/reports/new/", {"kind": "draw_payout", "language": "en",
                                                        "draw_id": open_draw().pk}, follow=True)
    assert "no settled settlement" in response.content.decode() and not Report.objects.exists()


def test_reports_page_requests_large_wins_of_a_game(staff_client):
    staff_client(COMPLIANCE_OFFICER).post("/compliance/reports/new/", {
        "kind": "large_wins", "language": "fi", "since": "2026-01-01", "until": "2026-01-31", "game": "lotto"})
    assert Report.objects.get().params == {"since": "2026-01-01", "until": "2026-01-31", "game": "lotto",
                                           "min_cents": 10_000_000}


def test_period_reports_still_need_the_period(staff_client):
    staff_client(COMPLIANCE_OFFICER).post("/compliance/reports/new/", {"kind": "large_wins", "language": "en"})
    assert not Report.objects.exists()


def test_draw_page_offers_the_payout_report_of_a_settled_draw(lotto_round, staff_client):
    draw = lotto_round()
    assert b'data-action="payout_report"' in staff_client(COMPLIANCE_OFFICER).get(f"/lottery/draws/{draw.pk}/").content


def test_draw_page_offers_no_payout_report_to_who_may_not_make_reports(lotto_round, staff_client):
    draw = lotto_round()
    assert b'data-action="payout_report"' not in staff_client(DRAW_SUPERVISOR).get(f"/lottery/draws/{draw.pk}/").content


def test_draw_page_offers_no_payout_report_before_settlement(open_draw, staff_client):
    draw = open_draw()
    assert b'data-action="payout_report"' not in staff_client(COMPLIANCE_OFFICER).get(f"/lottery/draws/{draw.pk}/").content


def test_payout_report_button_requests_it_and_goes_to_the_reports_page(lotto_round, staff_client):
    draw = lotto_round()
    response = staff_client(COMPLIANCE_OFFICER).post(f"/lottery/draws/{draw.pk}/payout-report/")
    report = Report.objects.get()
    assert (response.status_code, response.url, report.kind, report.params) == (
        302, "/compliance/reports/", "draw_payout", {"draw": draw.pk, "version": 1})


def test_draw_supervisor_may_not_request_a_payout_report(lotto_round, staff_client):
    draw = lotto_round()
    assert staff_client(DRAW_SUPERVISOR).post(f"/lottery/draws/{draw.pk}/payout-report/").status_code == 403


def test_auditor_may_not_request_a_payout_report(lotto_round, staff_client):
    draw = lotto_round()
    assert staff_client(AUDITOR).post(f"/lottery/draws/{draw.pk}/payout-report/").status_code == 403


def test_payout_report_download_is_named_by_draw_and_version(lotto_round, people, staff_client):
    draw = lotto_round()
    report = _make(people.officer, "draw_payout", {"draw": draw.pk})
    response = staff_client(AUDITOR).get(f"/compliance/reports/{report.pk}/pdf/")
    assert f"valvoja-draw_payout-draw{draw.pk}-v1-{report.pk}.pdf" in response["Content-Disposition"]


# --- benchmark command -----------------------------------------------------------------------------------


def test_bench_draw_report_builds_a_draw_with_the_winners_asked_for_and_renders_its_report(db, settings, tmp_path):
    out = io.StringIO()
    call_command("bench_draw_report", winners=60, stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    assert (figures["rows"], figures["pages"] >= 2, figures["seconds"] > 0) == (60, True, True)
