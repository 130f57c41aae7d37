"""Bad input to the draw pipeline gets a clear refusal naming the field and changes nothing; never a
500 or a traceback (issue 14, finding 5 and item 8: bounds on operator-set amounts)."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

from compliance import roles
from lottery.models import Draw, RetailImport
from lottery.services import DrawInputError, draw_set_jackpot
from lottery.services.retail import retail_import
from tests.factories import DrawFactory
from tests.lottery.support import lotto_row, sales_file

ROUND = {"game": "lotto", "turnover": "1000000.00", "jackpot": "2000000.00",
         "winners": {"1": 0, "2": 1, "3": 4, "4": 150, "5": 3000, "6": 9000}}


# --- API: numbers above their columns, NUL bytes in filters ----------------------------------------


def test_a_nul_byte_in_the_draw_list_filter_is_a_400_naming_the_field(api_client_for):
    response = api_client_for(roles.OPERATOR).get("/api/v1/draws/?state=%00")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["state"])


def test_a_nul_byte_in_the_payout_filter_is_a_400(api_client_for):
    draw = DrawFactory()
    response = api_client_for(roles.OPERATOR).get(f"/api/v1/draws/{draw.pk}/payouts/?state=%00")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["state"])


def test_a_jackpot_above_the_bigint_column_is_a_400_naming_the_field(api_client_for):
    draw = DrawFactory(state="open")
    response = api_client_for(roles.DRAW_SUPERVISOR).post(f"/api/v1/draws/{draw.pk}/jackpot/",
                                                          {"jackpot_cents": 2**63}, format="json")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["jackpot_cents"])


def test_a_draw_number_above_the_integer_column_is_a_400_naming_the_field(api_client_for):
    now = dt.datetime.now(dt.UTC)
    body = {"game": "lotto", "number": 2**31, "sales_open_at": now.isoformat(),
            "sales_close_at": (now + dt.timedelta(days=1)).isoformat(), "draw_at": (now + dt.timedelta(days=1)).isoformat()}
    response = api_client_for(roles.DRAW_SUPERVISOR).post("/api/v1/draws/", body, format="json")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["number"])


def test_an_id_above_the_id_column_is_a_json_404(api_client_for):
    response = api_client_for(roles.OPERATOR).get(f"/api/v1/draws/{2**64}/payouts/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_superscript_digit_in_the_winners_filter_is_a_400_naming_the_field(api_client_for):
    draw = DrawFactory()
    response = api_client_for(roles.OPERATOR).get(f"/api/v1/draws/{draw.pk}/winners/?class_no=%C2%B2")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["class_no"])


def test_a_winners_cursor_above_the_column_is_a_400_naming_the_field(api_client_for):
    draw = DrawFactory()
    response = api_client_for(roles.OPERATOR).get(f"/api/v1/draws/{draw.pk}/winners/?after={'9' * 19}")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["after"])


def test_a_wager_for_a_player_id_above_the_column_is_a_400(api_client_for):
    body = {"reference": "R1", "draw": 1, "player": 2**63, "session": 1, "lines": []}
    response = api_client_for(roles.SALES_CHANNEL).post("/api/v1/wagers/", body, format="json")
    assert (response.status_code, list(response.json()["fields"])) == (400, ["player"])


# --- the jackpot's upper bound, in the service --------------------------------------------------------


@override_settings(LOTTERY_JACKPOT_MAX_CENTS=1_000_000_000)
def test_a_jackpot_above_the_configured_maximum_is_refused_by_the_service(make_staff):
    draw = DrawFactory(state="open")
    with pytest.raises(DrawInputError, match="LOTTERY_JACKPOT_MAX_CENTS"):
        draw_set_jackpot(actor=make_staff(roles.DRAW_SUPERVISOR), draw=draw, jackpot_cents=1_000_000_001)


@override_settings(LOTTERY_JACKPOT_MAX_CENTS=1_000_000_000)
def test_the_refusal_names_the_maximum_in_the_language_it_is_shown_in(make_staff):
    """The refusal is raised in English and read in Finnish: it is rendered when shown (compliance.errors)."""
    draw = DrawFactory(state="open")
    with pytest.raises(DrawInputError) as refused:
        draw_set_jackpot(actor=make_staff(roles.DRAW_SUPERVISOR), draw=draw, jackpot_cents=1_000_000_001)
    with translation.override("fi"):
        assert "enintään 10\u00a0000\u00a0000,00 €" in str(refused.value)


@override_settings(LOTTERY_JACKPOT_MAX_CENTS=1_000_000_000)
def test_a_jackpot_above_the_maximum_is_refused_on_the_api_and_changes_nothing(api_client_for):
    draw = DrawFactory(state="open")
    response = api_client_for(roles.DRAW_SUPERVISOR).post(f"/api/v1/draws/{draw.pk}/jackpot/",
                                                          {"jackpot_cents": 9_200_000_000_000_000_000}, format="json")
    assert (response.status_code, Draw.objects.get(pk=draw.pk).jackpot_cents) == (400, None)


@override_settings(LOTTERY_JACKPOT_MAX_CENTS=1_000_000_000)
def test_a_draw_scheduled_with_a_jackpot_above_the_maximum_is_refused(api_client_for):
    now = dt.datetime.now(dt.UTC)
    body = {"game": "lotto", "number": 7, "jackpot_cents": 1_000_000_001, "sales_open_at": now.isoformat(),
            "sales_close_at": (now + dt.timedelta(days=1)).isoformat(), "draw_at": (now + dt.timedelta(days=1)).isoformat()}
    response = api_client_for(roles.DRAW_SUPERVISOR).post("/api/v1/draws/", body, format="json")
    assert (response.status_code, Draw.objects.filter(number=7).exists()) == (400, False)


def test_the_jackpot_page_names_the_field_of_a_too_large_amount(staff_client):
    draw = DrawFactory(state="open")
    response = staff_client(roles.DRAW_SUPERVISOR).post(f"/lottery/draws/{draw.pk}/jackpot/",
                                                        {"jackpot-jackpot": "1" * 20}, follow=True)
    # The draw page is shown again with the amount as typed and the error beside its field (issue 18).
    body = response.content.decode()
    error = body.split('data-field-error="jackpot"')[1].split("</span>")[0] if 'data-field-error="jackpot"' in body else ""
    assert (response.status_code, bool(error), 'value="' + "1" * 20 + '"' in body,
            Draw.objects.get(pk=draw.pk).jackpot_cents) == (200, True, True, None)


@override_settings(LOTTERY_JACKPOT_MAX_CENTS=1_000_000_000)
def test_the_jackpot_page_refuses_an_amount_above_the_maximum(staff_client):
    draw = DrawFactory(state="open")
    staff_client(roles.DRAW_SUPERVISOR).post(f"/lottery/draws/{draw.pk}/jackpot/", {"jackpot-jackpot": "10000000.01"})
    assert Draw.objects.get(pk=draw.pk).jackpot_cents is None


# --- pages: Unicode digits, tampered cursors -----------------------------------------------------------


def test_a_superscript_digit_as_the_winners_page_run_is_ignored(staff_client):
    draw = DrawFactory(state="open")
    response = staff_client(roles.OPERATOR).get(f"/lottery/draws/{draw.pk}/winners/", {"run": "²"})
    assert response.status_code == 404  # no settled run; before: int("²") was a 500


def test_a_superscript_digit_as_the_correction_report_run_is_ignored(staff_client):
    draw = DrawFactory(state="open")
    response = staff_client(roles.OPERATOR).get(f"/lottery/draws/{draw.pk}/correction/", {"run": "²"})
    assert response.status_code == 404


def test_a_superscript_digit_as_the_calculator_rule_version_is_ignored(staff_client):
    response = staff_client(roles.OPERATOR).get("/lottery/calculator/", {"game": "lotto", "ruleset": "²"})
    assert response.status_code == 200


# --- the prize calculator: amounts beyond Decimal's precision ------------------------------------------


@pytest.mark.parametrize("amount", ["1e30", "1E+999999", "123456789012345678901234567890.12"])
def test_calculate_prizes_exits_2_naming_an_amount_too_large(db, monkeypatch, capsys, amount):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({**ROUND, "turnover": amount})))
    with pytest.raises(SystemExit) as exit_info:
        call_command("calculate_prizes", input="-")
    assert (exit_info.value.code, "error: turnover:" in capsys.readouterr().err) == (2, True)


def test_calculate_prizes_exits_2_on_a_number_of_5000_digits(db, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO('{"game": "lotto", "winners": {"1": 1' + "0" * 5000 + "}}"))
    with pytest.raises(SystemExit) as exit_info:
        call_command("calculate_prizes", input="-")
    assert (exit_info.value.code, "error: $:" in capsys.readouterr().err) == (2, True)


def test_the_calculator_page_reports_an_amount_too_large_beside_its_field(staff_client):
    response = staff_client(roles.OPERATOR).get(
        "/lottery/calculator/", {"game": "lotto", "calculate": "1", "turnover": "1e30"})
    assert "turnover" in response.context["form"].errors


def test_the_calculator_page_reports_a_too_large_amount_in_the_json(staff_client):
    response = staff_client(roles.OPERATOR).get(
        "/lottery/calculator/", {"game": "lotto", "calculate": "1", "round_json": json.dumps({**ROUND, "jackpot": "1e30"})})
    assert response.context["error"]["field"] == "jackpot"


# --- retail files ---------------------------------------------------------------------------------------


@pytest.fixture
def closed_draw(db):
    return DrawFactory(state="closed")


def _row(draw, ticket="A1"):
    return lotto_row(ticket, draw.sales_open_at + dt.timedelta(hours=1))


def test_a_nul_byte_in_a_retail_file_is_refused_with_its_row(closed_draw):
    record = retail_import(actor="system:test", draw=closed_draw, file_name="s.csv",
                           stream=sales_file([_row(closed_draw), _row(closed_draw, "B\x002")]))
    assert (record.state, record.errors[0]["row"]) == (RetailImport.State.FAILED, 3)


def test_a_retail_field_longer_than_csv_allows_is_refused_with_its_row(closed_draw):
    record = retail_import(actor="system:test", draw=closed_draw, file_name="s.csv",
                           stream=sales_file([_row(closed_draw), "A2," + "x" * 140_000]))
    assert (record.state, record.errors[0]["row"]) == (RetailImport.State.FAILED, 3)


def test_a_retail_sale_time_with_an_offset_beyond_15_59_is_a_bad_row(closed_draw):
    """PostgreSQL knows no offset beyond ±15:59 (its COPY refused the whole file without naming the
    row); every database now reports the row."""
    t = (closed_draw.sales_open_at + dt.timedelta(hours=1)).astimezone(dt.timezone(dt.timedelta(hours=23)))
    row = _row(closed_draw).split(",")
    row[1] = t.isoformat()
    record = retail_import(actor="system:test", draw=closed_draw, file_name="s.csv", stream=sales_file([",".join(row)]))
    assert [(e["row"], "beyond ±15:59" in e["errors"][0]) for e in record.errors] == [(2, True)]


def test_the_import_command_takes_a_superscript_draw_number_as_no_draw(db, tmp_path):
    from django.core.management.base import CommandError

    path = tmp_path / "sales.csv"
    path.write_text("x")
    with pytest.raises(CommandError, match="No draw"):
        call_command("import_retail_sales", "--draw", "lotto:²", str(path))


def test_central_figures_with_a_number_of_5000_digits_are_a_field_error(db):
    from lottery.forms import CentralInputsForm

    params = DrawFactory(game_code="vikinglotto").ruleset.params
    form = CentralInputsForm({"common_1": "9" * 5000}, params=params)
    assert (form.is_valid(), list(form.errors)) == (False, ["common_1"])


@pytest.mark.parametrize("amount", ["1e30", "123456789012345678901234567890.12"])
def test_central_figures_beyond_the_engine_s_amounts_are_refused_by_the_service(make_staff, amount):
    from lottery.services import draw_set_central_inputs

    draw = DrawFactory(game_code="vikinglotto", state="open")
    with pytest.raises(DrawInputError, match="too large"):
        draw_set_central_inputs(actor=make_staff(roles.DRAW_SUPERVISOR), draw=draw,
                                inputs={"common_pools": {"1": amount}})
