"""The round check page's outcome fields: built from each engine's description (casino.rules.fields),
read into the outcome the engine takes, typed values kept on a refusal, every error beside its field."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from casino import services
from casino.labels import LABELS
from casino.models import RoundCheck
from casino.outcome_form import OutcomeForm
from casino.rules import fields, registry
from compliance import roles
from tests.casino.conftest import V1_FROM

URL = "/casino/rounds/check/"
ENGINES = sorted(registry.engines().items())


def _publish(rulebook, game, variant):
    return services.rule_version_publish(actor="system:test", rulebook=rulebook, game=game, variant=variant,
                                         effective_from=timezone.make_aware(V1_FROM),
                                         rules=dict(registry.get(rulebook, game).variants[variant]))[0]


@pytest.fixture
def versions(db):
    _publish("000", "roulette", "single_zero_la_partage")
    _publish("000", "blackjack", "cas_base_3to2")
    _publish("000", "sic_bo", "casino")


def _form(game, venue="000/casino", **data):
    return {"game": game, "venue": venue, "outcome": "", "table_limits": "", "round_at": "2026-06-01T20:00",
            "bets-TOTAL_FORMS": "3", "bets-INITIAL_FORMS": "0", "bets-MIN_NUM_FORMS": "0",
            "bets-MAX_NUM_FORMS": "50", **data}


ROULETTE = _form("000/roulette/single_zero_la_partage", **{
    "bets-0-type": "split", "bets-0-stake": "100.00", "bets-0-box": "1", "bets-0-params": '{"numbers": [17, 20]}',
    "oc-000-roulette-number": "20"})
BLACKJACK = _form("000/blackjack/cas_base_3to2", **{
    "bets-0-type": "main", "bets-0-stake": "100.00", "bets-0-box": "1", "bets-0-paid": "200.00",
    "bets-1-type": "main", "bets-1-stake": "50.00", "bets-1-box": "2",
    "oc-000-blackjack-dealer": "Kh 7c",
    "oc-000-blackjack-boxes0_box": "1", "oc-000-blackjack-boxes0_cards": "8s 8d 3h Ks",
    "oc-000-blackjack-boxes0_actions": "split stand stand",
    "oc-000-blackjack-boxes1_box": "2", "oc-000-blackjack-boxes1_cards": "As Kd"})


# ------------------------------------------------------------------------------- the descriptions


@pytest.mark.parametrize(("key", "engine"), ENGINES, ids=["/".join(k) for k, _e in ENGINES])
def test_every_engine_describes_its_outcome_and_every_word_is_translatable(key, engine):
    description = engine.outcome_fields
    assert description and all(isinstance(item, (fields.Field, fields.Boxes)) for item in description)
    assert fields.labels(description) <= set(LABELS), "a label or action word without a msgid in casino.labels"
    form = OutcomeForm(description)
    assert form.fields  # the form is built from the description alone


@pytest.mark.parametrize("language", ["fi", "sv"])
def test_every_label_and_action_word_is_translated(language):
    untranslated = []
    for msgid, text in LABELS.items():
        with translation.override(language):
            shown = str(text)
        if shown == msgid:
            untranslated.append(msgid)
    assert not untranslated


def test_the_form_reads_the_outcome_the_engine_takes():
    engine = registry.get("000", "blackjack")
    form = OutcomeForm(engine.outcome_fields, {k: v for k, v in BLACKJACK.items()}, prefix="oc-000-blackjack")
    assert form.is_valid(), form.errors
    assert form.outcome() == {"dealer": "Kh 7c", "boxes": {"1": {"cards": "8s 8d 3h Ks",
                                                                 "actions": ["split", "stand", "stand"]},
                                                           "2": {"cards": "As Kd"}}}


def test_list_boxes_nested_decisions_and_steps():
    holdem = OutcomeForm(registry.get("000", "ultimate_texas_holdem").outcome_fields, {
        "u-dealer": "Kh 2c", "u-board": "7s 6s 5s Kd Kc", "u-boxes0_box": "1", "u-boxes0_cards": "9s 8s",
        "u-boxes0_actions_preflop": "play"}, prefix="u")
    assert holdem.is_valid(), holdem.errors
    assert holdem.outcome()["boxes"] == {"1": {"cards": "9s 8s", "actions": {"preflop": "play"}}}
    russian = OutcomeForm(registry.get("000", "russian_poker").outcome_fields, {
        "r-dealer": "As Kd 9c 5s 2c", "r-boxes0_box": "3", "r-boxes0_cards": "Qs Qh 7d 7c 2d",
        "r-boxes0_actions": "exchange 2d -> 9h; raise"}, prefix="r")
    assert russian.is_valid(), russian.errors
    assert russian.outcome()["boxes"] == [{"box": 3, "cards": "Qs Qh 7d 7c 2d", "actions": [
        {"action": "exchange", "out": "2d", "in": "9h"}, {"action": "raise"}]}]
    triple = OutcomeForm(registry.get("002", "triple_bet_poker").outcome_fields, {
        "t-boxes0_box": "1", "t-boxes0_cards": "As Kd Qh", "t-boxes0_withdrawn_1_": "2"}, prefix="t")
    assert triple.is_valid(), triple.errors
    assert triple.outcome()["boxes"] == [{"box": 1, "cards": "As Kd Qh", "withdrawn": [None, 2]}]


def test_a_box_row_without_its_number_is_refused_beside_it():
    form = OutcomeForm(registry.get("000", "blackjack").outcome_fields, {"b-boxes0_cards": "As Kd"}, prefix="b")
    assert not form.is_valid() and "boxes0_box" in form.errors


# ------------------------------------------------------------------------------------------ the page


def test_roulette_by_its_winning_number_field(staff_client, versions):
    response = staff_client(roles.OPERATOR).post(URL, ROULETTE)
    body = response.content.decode()
    assert 'id="result"' in body and "000-casino C-1: split 17:1" in body
    assert RoundCheck.objects.get().round_input["outcome"] == {"number": 20}


def test_blackjack_by_its_box_rows_with_actions(staff_client, versions):
    response = staff_client(roles.OPERATOR).post(URL, BLACKJACK)
    assert 'id="result"' in response.content.decode(), response.context["outcomes"]
    check = RoundCheck.objects.get()
    assert check.round_input["outcome"]["boxes"]["1"]["actions"] == ["split", "stand", "stand"]
    # box 1 split: 8s 3h = 11 loses to the dealer's 17, 8d Ks = 18 wins 1:1; box 2: a natural, 3:2 on 50
    assert [(b["winnings"], b["payout"]) for b in check.answer["bets"]] == [("100.00", "200.00"), ("75.00", "125.00")]
    assert check.difference_cents == 0


def test_sic_bo_dice_selects(staff_client, versions):
    response = staff_client(roles.OPERATOR).post(URL, _form("000/sic_bo/casino", **{
        "bets-0-type": "big", "bets-0-stake": "10.00",
        "oc-000-sic_bo-dice_0": "4", "oc-000-sic_bo-dice_1": "6", "oc-000-sic_bo-dice_2": "5"}))
    assert 'id="result"' in response.content.decode()
    assert RoundCheck.objects.get().round_input["outcome"] == {"dice": [4, 6, 5]}


def test_an_outcome_error_lands_on_its_field_and_keeps_what_was_typed(staff_client, versions):
    response = staff_client(roles.OPERATOR).post(URL, {**ROULETTE, "oc-000-roulette-number": "37"})
    chosen = next(o["form"] for o in response.context["outcomes"] if not o["hidden"])
    assert list(chosen.errors) == ["number"] and RoundCheck.objects.count() == 0
    body = response.content.decode()
    assert 'name="oc-000-roulette-number" value="37"' in body
    assert 'data-error="oc-000-roulette-number"' in body


def test_a_box_cards_error_lands_on_that_box_row(staff_client, versions):
    bad = {**BLACKJACK, "oc-000-blackjack-boxes1_cards": "As Zz"}
    response = staff_client(roles.OPERATOR).post(URL, bad)
    chosen = next(o["form"] for o in response.context["outcomes"] if not o["hidden"])
    assert list(chosen.errors) == ["boxes1_cards"]
    assert 'value="As Zz"' in response.content.decode()


def test_the_advanced_json_outcome_still_works(staff_client, versions):
    response = staff_client(roles.OPERATOR).post(URL, {**ROULETTE, "oc-000-roulette-number": "",
                                                       "outcome": '{"number": 17}'})
    assert RoundCheck.objects.get().round_input["outcome"] == {"number": 17}
    assert 'id="result"' in response.content.decode()


def test_show_fields_reloads_with_the_chosen_games_fields_and_no_check(staff_client, versions):
    data = {**ROULETTE, "game": "000/blackjack/cas_base_3to2", "show_fields": "1"}
    response = staff_client(roles.OPERATOR).post(URL, data)
    shown = [o["key"] for o in response.context["outcomes"] if not o["hidden"]]
    body = response.content.decode()
    assert shown == ["000/blackjack"] and RoundCheck.objects.count() == 0
    assert 'class="error"' not in body and 'value="100.00"' in body  # typed bets kept, no refusal shown
    assert 'fieldset class="outcome" data-game="000/blackjack">' in body
    assert 'fieldset class="outcome" data-game="000/roulette" hidden>' in body


def test_the_page_loads_its_script_from_a_static_file(staff_client, versions):
    body = staff_client(roles.OPERATOR).get(URL + "?game=000/blackjack/cas_base_3to2").content.decode()
    assert "valvoja/round_check.js" in body and "<script>" not in body
    assert 'fieldset class="outcome" data-game="000/blackjack">' in body


