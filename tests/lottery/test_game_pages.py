"""The staff pages and the API for the games of lottery.games: a result form that fits the game,
results over the API, the winners list, the import page and a correction (§27)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance import roles
from lottery.models import Draw, DrawResult, DrawState, RunState
from lottery.services import correction_confirm, correction_request
from lottery.services.settlement import run_settlement
from tests.factories import DrawFactory
from tests.lottery.game_support import add_lines, draw_and_settle, schedule

KENO_RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 64, 65, 66, 67, 70], "kunkku": 66}


@pytest.fixture
def people(make_staff):
    return [make_staff(roles.DRAW_SUPERVISOR) for _ in range(4)]


def _fields(html: str) -> set[str]:
    names = {"numbers", "additional", "stars", "viking", "plus", "kunkku", "lucky", "bonus", "date", "letter", "digits",
             "city", "number"}
    return {n for n in names if f'name="enter-{n}"' in html}


@pytest.mark.parametrize("game, fields", [
    ("keno", {"numbers", "kunkku"}),
    ("kaikki_tai_ei_mitaan", {"numbers", "lucky"}),
    ("tahdenlento", {"numbers", "bonus"}),
    ("synttarit", {"date", "letter"}),
    ("jokeri", {"digits"}),
    ("lomatonni", {"city", "number"}),
    ("lotto", {"numbers", "additional", "plus"}),
])
def test_the_result_form_on_the_draw_page_fits_the_game(staff_client, game, fields):
    draw = DrawFactory(game_code=game, state="closed")
    html = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert _fields(html) == fields


def test_a_keno_result_is_entered_from_the_draw_page(staff_client):
    draw = DrawFactory(game_code="keno", state="closed")
    staff_client(roles.DRAW_SUPERVISOR).post(reverse("lottery:draw-enter", args=[draw.pk]), {
        "enter-numbers": " ".join(str(n) for n in KENO_RESULT["numbers"]), "enter-kunkku": "66",
        "enter-draw_method": "device", "enter-witnesses": "A. Witness"})
    result = DrawResult.objects.get(draw=draw)
    assert (result.numbers, Draw.objects.get(pk=draw.pk).state) == (KENO_RESULT, DrawState.RESULT_ENTERED)


def test_a_synttarit_result_is_entered_from_the_draw_page(staff_client):
    draw = DrawFactory(game_code="synttarit", state="closed")
    staff_client(roles.DRAW_SUPERVISOR).post(reverse("lottery:draw-enter", args=[draw.pk]), {
        "enter-date": "1990-05-17", "enter-letter": "k", "enter-draw_method": "device", "enter-witnesses": "W"})
    assert DrawResult.objects.get(draw=draw).numbers == {"date": "1990-05-17", "letter": "K"}


def test_a_kunkku_number_not_among_the_drawn_is_refused_with_the_engines_reason(staff_client):
    draw = DrawFactory(game_code="keno", state="closed")
    response = staff_client(roles.DRAW_SUPERVISOR).post(reverse("lottery:draw-enter", args=[draw.pk]), {
        "enter-numbers": " ".join(str(n) for n in KENO_RESULT["numbers"]), "enter-kunkku": "30",
        "enter-draw_method": "device", "enter-witnesses": "W"}, follow=True)
    assert "Kunkku number 30 is not among the 20 drawn numbers" in response.content.decode()


def test_a_jokeri_result_is_entered_over_the_api(api_client_for):
    draw = DrawFactory(game_code="jokeri", state="closed")
    response = api_client_for(roles.DRAW_SUPERVISOR).post(
        f"/api/v1/draws/{draw.pk}/result/", {"digits": "0012345", "draw_method": "system", "witnesses": "W"},
        format="json")
    assert (response.status_code, response.json()["results"][0]["numbers"]) == (200, {"digits": "0012345"})


def test_the_import_page_shows_the_games_own_columns(staff_client):
    draw = DrawFactory(game_code="lomatonni", state="open")
    html = staff_client(roles.OPERATOR).get(reverse("lottery:draw-import", args=[draw.pk])).content.decode()
    assert "ticket,sold_at,terminal,city,number,stake_cents" in html


@pytest.fixture
def settled_keno(people):
    draw = schedule("keno", 7501)
    add_lines(draw, [{"numbers": [64, 65, 66, 1], "kunkku": True, "stake_cents": 200, "addon_cents": 100},
                     {"numbers": [1, 2, 3, 4, 5], "stake_cents": 100}])
    run = draw_and_settle(draw, KENO_RESULT, people[0], people[1])
    return Draw.objects.get(pk=draw.pk), run


def test_the_winners_page_shows_keno_lines_and_cells(settled_keno, staff_client):
    draw, _ = settled_keno
    client = staff_client(roles.DRAW_SUPERVISOR)
    html = client.get(reverse("lottery:draw-winners", args=[draw.pk]) + "?class_no=4041").content.decode()
    assert ("1 64 65 66 · Kunkku" in html, "1 2 3 4 5<" in html) == (True, False)


def test_the_draw_page_links_each_keno_cell_to_its_winners(settled_keno, staff_client):
    draw, _ = settled_keno
    html = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert "?class_no=4041" in html and "?class_no=5050" in html


def test_a_corrected_keno_result_settles_again_and_reports_the_changes(settled_keno, people, staff_client):
    draw, first = settled_keno
    corrected = {**KENO_RESULT, "numbers": [n for n in KENO_RESULT["numbers"] if n != 5] + [40]}
    correction_request(actor=people[2], draw=draw, numbers=corrected, reason="Ball 40 was read as 5")
    run = correction_confirm(actor=people[3], draw=draw)
    run = run_settlement(run.pk)
    page = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw-correction", args=[draw.pk]))
    # 5 correct (200 x 1 €) becomes 4 correct at level 5 (9 x 1 €).
    assert (run.state, run.previous_id, page.status_code, "5-4" in page.content.decode()) == (
        RunState.SETTLED, first.pk, 200, True)


def test_the_draw_page_names_the_keno_add_on_columns_kunkku(settled_keno, staff_client):
    draw, _ = settled_keno
    html = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert ("Kunkku winners" in html, "Plussa winners" in html) == (True, False)
