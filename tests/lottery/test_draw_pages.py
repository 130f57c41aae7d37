"""Staff pages of the draw pipeline: a round through the browser, the progress and the winners list."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from compliance import roles
from lottery.models import Draw, DrawState, Line, RetailImport
from lottery.services.settlement import run_settlement
from tests.factories import DrawFactory
from tests.lottery.support import add_random_lines, lotto_row, sales_file

LOTTO = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


def _post(client, name, draw, data=None):
    # "confirmed": the second POST of an irreversible step (compliance.confirm); the others ignore it.
    return client.post(reverse(f"lottery:{name}", args=[draw.pk]), {"confirmed": "yes", **(data or {})}, follow=True)


@pytest.fixture
def supervisor_client(client, make_staff):
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    return client


def test_the_board_shows_a_draw_in_the_column_of_its_state(staff_client):
    draw = DrawFactory(state="closed")
    html = staff_client(roles.OPERATOR).get(reverse("lottery:draws")).content.decode()
    column = html.split('data-column="awaiting_result"')[1].split("</section>")[0]
    assert str(draw) in column


def test_a_draw_is_scheduled_from_the_form(staff_client):
    close = timezone.localtime(timezone.now() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
    staff_client(roles.OPERATOR).post(reverse("lottery:draw-new"), {
        "game": "lotto", "number": 77, "sales_open_at": (close - dt.timedelta(days=6)).strftime("%Y-%m-%dT%H:%M"),
        "sales_close_at": close.strftime("%Y-%m-%dT%H:%M"), "draw_at": (close + dt.timedelta(minutes=45)).strftime("%Y-%m-%dT%H:%M"),
        "jackpot": "1000000.00"})
    assert Draw.objects.get(number=77).jackpot_cents == 100_000_000


def test_the_draw_page_offers_only_the_actions_the_state_allows(staff_client):
    draw = DrawFactory(state="closed")
    html = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    offered = {a for a in ("open", "close", "enter", "confirm", "cancel", "correct") if f'data-action="{a}"' in html}
    assert offered == {"enter", "cancel"}


def test_closing_sales_is_offered_only_once_the_close_time_has_passed(staff_client):
    client = staff_client(roles.OPERATOR)
    now = timezone.now()
    early = DrawFactory(state="open", sales_open_at=now - dt.timedelta(days=1), sales_close_at=now + dt.timedelta(hours=2),
                        draw_at=now + dt.timedelta(hours=3))
    due = DrawFactory(state="open", sales_open_at=now - dt.timedelta(days=1), sales_close_at=now - dt.timedelta(minutes=1),
                      draw_at=now + dt.timedelta(hours=1))
    pages = [client.get(reverse("lottery:draw", args=[d.pk])).content.decode() for d in (early, due)]
    assert ['data-action="close"' in page for page in pages] == [False, True]


def test_an_auditor_sees_the_draw_page_without_actions(staff_client):
    draw = DrawFactory(state="closed")
    html = staff_client(roles.AUDITOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert "data-action=" not in html


def test_a_round_runs_through_the_browser(client, make_staff, django_capture_on_commit_callbacks, eager_tasks):
    first, second = make_staff(roles.DRAW_SUPERVISOR), make_staff(roles.DRAW_SUPERVISOR)
    draw = DrawFactory(jackpot_cents=50_000_000)
    client.force_login(first)
    _post(client, "draw-close", draw)
    upload = sales_file([lotto_row("A1", draw.sales_open_at + dt.timedelta(hours=1), (1, 2, 3, 4, 9, 10, 11))])
    upload.name = "sales.csv"
    with django_capture_on_commit_callbacks(execute=True):  # the import job runs after the upload's commit
        client.post(reverse("lottery:draw-import", args=[draw.pk]), {"file": upload})
    _post(client, "draw-enter", draw, {"enter-numbers": "1 2 3 4 5 6 7", "enter-additional": 8, "enter-plus": 3,
                                       "enter-draw_method": "device", "enter-witnesses": "Notary"})
    client.force_login(second)
    with django_capture_on_commit_callbacks(execute=True):
        _post(client, "draw-confirm", draw)
    html = client.get(reverse("lottery:draw-winners", args=[draw.pk])).content.decode()
    assert (Draw.objects.get(pk=draw.pk).state, "A1" in html) == (DrawState.SETTLED, True)


def test_the_enterer_is_told_another_user_must_confirm(client, make_staff):
    user = make_staff(roles.DRAW_SUPERVISOR)
    draw = DrawFactory(jackpot_cents=1)
    client.force_login(user)
    _post(client, "draw-close", draw)
    _post(client, "draw-enter", draw, {"enter-numbers": "1 2 3 4 5 6 7", "enter-additional": 8, "enter-plus": 3,
                                       "enter-draw_method": "device", "enter-witnesses": "Notary"})
    response = _post(client, "draw-confirm", draw)
    assert "a different user must confirm it" in response.content.decode()


def test_an_operator_may_not_confirm_a_result(staff_client):
    draw = DrawFactory(state="result_entered")
    assert staff_client(roles.OPERATOR).post(reverse("lottery:draw-confirm", args=[draw.pk])).status_code == 403


def test_a_bad_result_comes_back_as_a_message(supervisor_client):
    draw = DrawFactory(state="closed")
    response = _post(supervisor_client, "draw-enter", draw, {
        "enter-numbers": "1 2 3 4 5 6 41", "enter-additional": 8, "enter-plus": 3, "enter-draw_method": "device",
        "enter-witnesses": "W"})
    assert "out of range" in response.content.decode()


def test_the_progress_endpoint_reports_the_run(staff_client, confirm_result):
    draw = DrawFactory(jackpot_cents=1)
    run = run_settlement(confirm_result(draw, LOTTO).pk)
    data = json.loads(staff_client(roles.AUDITOR).get(reverse("lottery:draw-progress", args=[draw.pk])).content)
    assert data["run"] == {**data["run"], "version": run.version, "state": "settled", "percent": 100}


def test_the_winners_list_pages_by_cursor(staff_client, confirm_result):
    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 2500)
    run = run_settlement(confirm_result(draw, LOTTO).pk)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    first = client.get(reverse("lottery:draw-winners", args=[draw.pk]))
    second = client.get(reverse("lottery:draw-winners", args=[draw.pk]) + f"?after={first.context['cursor']}")
    lines = [r["line_id"] for r in first.context["rows"]] + [r["line_id"] for r in second.context["rows"]]
    assert lines == sorted(set(lines)) and len(lines) == min(100, run.winners_count)


def test_the_winners_list_filters_by_class(staff_client, confirm_result):
    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 800)
    run_settlement(confirm_result(draw, LOTTO).pk)
    response = staff_client(roles.OPERATOR).get(reverse("lottery:draw-winners", args=[draw.pk]) + "?class_no=6")
    assert {r["class_no"] for r in response.context["rows"]} == {6}


def test_the_winners_list_orders_by_prize(staff_client, confirm_result):
    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 800)
    run_settlement(confirm_result(draw, LOTTO).pk)
    rows = staff_client(roles.OPERATOR).get(reverse("lottery:draw-winners", args=[draw.pk]) + "?order=prize").context["rows"]
    prizes = [r["prize_cents"] for r in rows]
    assert prizes == sorted(prizes, reverse=True)


def _upload(client, draw, upload, capture):
    """POST the file; its import job runs once the upload is committed; returns the import's page."""
    with capture(execute=True):
        response = client.post(reverse("lottery:draw-import", args=[draw.pk]), {"file": upload})
    return client.get(response["Location"])


def test_a_refused_file_shows_its_report(supervisor_client, django_capture_on_commit_callbacks):
    draw = DrawFactory(state="closed")
    upload = sales_file([lotto_row("A1", draw.sales_open_at + dt.timedelta(hours=1), (1, 2, 3, 4, 5, 6, 99))])
    upload.name = "bad.csv"
    response = _upload(supervisor_client, draw, upload, django_capture_on_commit_callbacks)
    assert (RetailImport.objects.get().state, "out of range" in response.content.decode()) == ("failed", True)


def test_an_imported_file_loads_its_lines(supervisor_client, django_capture_on_commit_callbacks):
    draw = DrawFactory(state="closed")
    sold = draw.sales_open_at + dt.timedelta(hours=1)
    upload = sales_file([lotto_row("A1", sold), lotto_row("A1", sold, (2, 3, 4, 5, 6, 7, 8))])
    upload.name = "good.csv"
    response = _upload(supervisor_client, draw, upload, django_capture_on_commit_callbacks)
    assert Line.objects.filter(draw=draw).count() == 2
    assert response.context["outcome"] == "Imported 2 lines in 1 ticket."


def test_a_refused_file_of_one_bad_row_says_so_in_the_singular_in_finnish(supervisor_client,
                                                                          django_capture_on_commit_callbacks):
    draw = DrawFactory(state="closed")
    upload = sales_file([lotto_row("A1", draw.sales_open_at + dt.timedelta(hours=1), (1, 2, 3, 4, 5, 6, 99))])
    upload.name = "bad.csv"
    supervisor_client.cookies["django_language"] = "fi"
    response = _upload(supervisor_client, draw, upload, django_capture_on_commit_callbacks)
    assert response.context["outcome"] == "Tiedosto hylättiin: 1 virheellinen rivi. Mitään ei tuotu."


def test_the_correction_report_page_shows_the_changes(client, make_staff, confirm_result):
    from lottery.services import correction_confirm, correction_request

    a, b = make_staff(roles.DRAW_SUPERVISOR), make_staff(roles.DRAW_SUPERVISOR)
    draw = DrawFactory(jackpot_cents=1)
    add_random_lines(draw, 300)
    run_settlement(confirm_result(draw, LOTTO).pk)
    correction_request(actor=a, draw=draw, numbers={**LOTTO, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    run_settlement(correction_confirm(actor=b, draw=draw).pk)
    client.force_login(a)
    response = client.get(reverse("lottery:draw-correction", args=[draw.pk]))
    assert response.status_code == 200 and response.context["rows"]


def test_the_winners_list_finds_a_ticket(staff_client, confirm_result):
    from tests.lottery.support import add_line

    draw = DrawFactory(jackpot_cents=1)
    add_line(draw, [1, 2, 3, 4, 20, 21, 22], reference="FIND-ME")
    add_random_lines(draw, 500)
    run_settlement(confirm_result(draw, LOTTO).pk)
    rows = staff_client(roles.OPERATOR).get(reverse("lottery:draw-winners", args=[draw.pk]) + "?ticket=FIND-ME").context["rows"]
    assert [r["wager"]["reference"] for r in rows] == ["FIND-ME"]
