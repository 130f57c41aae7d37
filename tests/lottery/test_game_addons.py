"""Jokeri (+ Tuplaus) and Lomatonni, the add-on games (§2): a main-game wager carries lines in the
add-on draws linked to its draw; each add-on draw gets its own result, settlement and payouts."""

from __future__ import annotations

import pytest

from compliance import roles
from lottery.models import Draw, DrawState, Line, LomatonniCity, RetailImport, RunState, WagerRefund, Winning
from lottery.rules.rulesets import default_params
from lottery.services import (
    DrawStateError,
    draw_cancel,
    draw_set_jackpot,
    pay_draw,
    ruleset_publish,
    settlement_approve,
    wager_place,
)
from tests.lottery.game_support import (
    add_lines,
    draw_and_settle,
    import_rows,
    jokeri_engine_prizes,
    lomatonni_engine_prizes,
    place,
    schedule,
    stored_lines,
    winnings,
)

LOTTO_LINE = {"numbers": [1, 2, 3, 4, 5, 6, 7], "stake_cents": 100}
JOKERI_RESULT = {"digits": "0123456"}
# (digits, Tuplaus (position, digit) or None, stake cents) played with a Lotto wager ...
JOKERI_ADDON = [("0123999", (2, 1), 300),   # 4 correct (any positions): 50 €, Tuplaus digit 1 at 2 is right: 100 €
                ("9993456", None, 300),     # 4 correct: 50 €
                ("0999999", (1, 0), 300)]   # 1 correct: nothing (Tuplaus does not make a win)
# ... and sold on their own at retail.
JOKERI_RETAIL = [("J-1", "0123456", None, 300),   # 7 correct: the jackpot
                 ("J-2", "0120000", (7, 6), 300),  # 3 correct: 6 €, doubled: 12 €
                 ("J-3", "5555555", None, 300)]    # 1 correct: nothing
JACKPOT_CENTS = 5_000_00


def _jokeri(digits, tuplaus, stake, **extra):
    line = {"digits": digits, "stake_cents": stake, "addon_cents": 100 if tuplaus else 0, **extra}
    if tuplaus:
        line["tuplaus"] = {"position": tuplaus[0], "digit": tuplaus[1]}
    return line


def _jokeri_row(ticket, digits, tuplaus, stake):
    return {"ticket": ticket, "digits": digits, "tuplaus_position": tuplaus[0] if tuplaus else "",
            "tuplaus_digit": tuplaus[1] if tuplaus else "", "stake_cents": stake, "addon_cents": 100 if tuplaus else 0}


@pytest.fixture
def jokeri_round(api_client_for, make_gambler, people):
    """A Lotto draw with its Jokeri draw; a player's Lotto wager carries Jokeri lines; Jokeri tickets
    sold at retail; the Jokeri draw drawn and settled (the Lotto draw is not drawn yet)."""
    lotto = schedule("lotto", 1201)
    jokeri = schedule("jokeri", 1201, main_draw=lotto)
    draw_set_jackpot(actor="system:test", draw=jokeri, jackpot_cents=JACKPOT_CENTS)
    player, session = make_gambler(100_00)
    response = place(api_client_for(roles.SALES_CHANNEL), lotto, player, session, "LJ-1", [LOTTO_LINE],
                     addons=[_jokeri(*x, game="jokeri") for x in JOKERI_ADDON])
    assert response.status_code == 201, response.json()
    record = import_rows(jokeri, people[0], [_jokeri_row(*x) for x in JOKERI_RETAIL])
    assert record.state == RetailImport.State.DONE, record.errors
    run = draw_and_settle(jokeri, JOKERI_RESULT, people[0], people[1])
    return Draw.objects.get(pk=lotto.pk), Draw.objects.get(pk=jokeri.pk), run, player, response.json()


def _expected_jokeri(jokeri, sold, params=None):
    return jokeri_engine_prizes(JOKERI_RESULT["digits"], [(line.pk, d, t) for line, (d, t, _) in
                                                          zip(stored_lines(jokeri), sold)], "5000.00", params)


def test_an_add_on_draw_scheduled_with_the_same_close_is_linked_to_the_main_draw(db):
    lotto = schedule("lotto", 1200)
    jokeri = schedule("jokeri", 1200, close_at=lotto.sales_close_at)  # found by its close time (§2)
    assert jokeri.main_draw_id == lotto.pk


def test_a_lotto_wager_carries_its_jokeri_lines_in_the_jokeri_draw(jokeri_round):
    lotto, jokeri, _, _, wager = jokeri_round
    by_draw = sorted((line["draw"], line["picks"]["digits"] if line["picks"] else None) for line in wager["lines"])
    assert (by_draw, wager["stake_cents"]) == (
        sorted([(lotto.pk, None), (jokeri.pk, "0123999"), (jokeri.pk, "9993456"), (jokeri.pk, "0999999")]),
        100 + 900 + 200)


def test_a_jokeri_round_settles_with_the_engines_prize_for_every_line(jokeri_round):
    _, jokeri, run, _, _ = jokeri_round
    sold = [(d, t, s) for d, t, s in JOKERI_ADDON] + [(d, t, s) for _, d, t, s in JOKERI_RETAIL]
    assert (run.state, winnings(run)) == (RunState.SETTLED, _expected_jokeri(jokeri, sold))


def test_a_right_tuplaus_number_doubles_the_prize(jokeri_round):
    _, _, run, _, _ = jokeri_round
    doubled = Winning.objects.filter(run=run, boosted=True)
    assert sorted(doubled.values_list("class_no", "prize_cents")) == [(4, 100_00), (5, 12_00)]


def test_approved_jokeri_prizes_reach_the_lotto_players_game_account(jokeri_round, people):
    _, jokeri, _, player, _ = jokeri_round
    settlement_approve(actor=people[2], draw=jokeri)
    pay_draw(jokeri)
    player.account.refresh_from_db()
    assert (player.account.balance_cents, Draw.objects.get(pk=jokeri.pk).state) == (
        100_00 - 1200 + 100_00 + 50_00, DrawState.PAID)


def test_cancelling_the_jokeri_draw_refunds_only_the_jokeri_part_of_the_lotto_wager(make_gambler, people):
    lotto = schedule("lotto", 1202)
    jokeri = schedule("jokeri", 1202, main_draw=lotto)
    player, session = make_gambler(100_00)
    placed = wager_place(actor="channel:web", draw=lotto, player=player, session=session, reference="LJ-2",
                         lines=[LOTTO_LINE], addons=[_jokeri(*x, game="jokeri") for x in JOKERI_ADDON])
    draw_cancel(actor=people[0], draw=jokeri, reason="The draw machine broke")
    refund = WagerRefund.objects.get(wager=placed.wager)
    assert (refund.draw_id, refund.amount_cents, Line.objects.filter(draw_id=lotto.pk).count()) == (jokeri.pk, 1100, 1)


def test_an_add_on_line_needs_an_add_on_draw_linked_to_the_main_draw(make_gambler):
    lotto = schedule("lotto", 1203)
    player, session = make_gambler(100_00)
    with pytest.raises(DrawStateError, match="no Jokeri draw linked"):
        wager_place(actor="channel:web", draw=lotto, player=player, session=session, reference="LJ-3",
                    lines=[LOTTO_LINE], addons=[_jokeri("0123456", None, 300, game="jokeri")])


def test_the_jokeri_matcher_is_the_rule_versions_reading(people):
    # "0193456" against "0123456": 6 equal positions (class 2, 20,000 €), but the longest run from
    # either end is 4 ("3456"), so under run_from_either_end it is class 4 (50 €).
    params = {**default_params("jokeri"), "matcher": "run_from_either_end"}
    ruleset_publish(actor="system:test", game="jokeri", version="2026-runs", effective_from=dt_today(), params=params)
    lotto = schedule("lotto", 1204)
    jokeri = schedule("jokeri", 1204, main_draw=lotto)
    draw_set_jackpot(actor="system:test", draw=jokeri, jackpot_cents=JACKPOT_CENTS)
    sold = [("0193456", None, 300), ("0123459", None, 300)]
    add_lines(jokeri, [_jokeri(*x) for x in sold])
    run = draw_and_settle(jokeri, JOKERI_RESULT, people[0], people[1])
    assert (jokeri.ruleset.version, winnings(run), winnings(run) == _expected_jokeri(jokeri, sold, params)) == (
        "2026-runs", {stored_lines(jokeri)[0].pk: 50_00, stored_lines(jokeri)[1].pk: 20_000_00}, True)


def dt_today():
    from django.utils import timezone

    return timezone.localdate()


# ------------------------------------------------------------------------------------------------
# Lomatonni
# ------------------------------------------------------------------------------------------------

EJ_LINE = {"numbers": [1, 2, 3, 4, 5], "stars": [1, 2], "stake_cents": 250}
LOMATONNI_RESULT = {"city": "Rooma", "number": 22}
LOMATONNI_ADDON = [("Rooma", 22, 100),     # city and number: 1,000 €
                   ("ROOMA", 5, 100),      # city (any case): 5 €
                   ("Pariisi", 22, 100)]   # the number alone: nothing
LOMATONNI_RETAIL = [("L-1", "rooma", 99, 100),  # city: 5 €
                    ("L-2", "Oslo", 1, 100)]    # nothing


@pytest.fixture
def lomatonni_round(api_client_for, make_gambler, people):
    eurojackpot = schedule("eurojackpot", 301)
    lomatonni = schedule("lomatonni", 301, main_draw=eurojackpot)
    player, session = make_gambler(100_00)
    addons = [{"game": "lomatonni", "city": c, "number": n, "stake_cents": s} for c, n, s in LOMATONNI_ADDON]
    response = place(api_client_for(roles.SALES_CHANNEL), eurojackpot, player, session, "EL-1", [EJ_LINE], addons)
    assert response.status_code == 201, response.json()
    record = import_rows(lomatonni, people[0], [{"ticket": t, "city": c, "number": n, "stake_cents": s}
                                                for t, c, n, s in LOMATONNI_RETAIL])
    assert record.state == RetailImport.State.DONE, record.errors
    run = draw_and_settle(lomatonni, LOMATONNI_RESULT, people[0], people[1])
    return Draw.objects.get(pk=lomatonni.pk), run, player


def test_a_lomatonni_round_settles_with_the_engines_prize_for_every_line(lomatonni_round):
    draw, run, _ = lomatonni_round
    sold = [(c, n) for c, n, _ in LOMATONNI_ADDON] + [(c, n) for _, c, n, _ in LOMATONNI_RETAIL]
    expected = lomatonni_engine_prizes(("Rooma", 22), [(line.pk, c, n) for line, (c, n) in
                                                       zip(stored_lines(draw), sold)])
    assert (run.state, winnings(run)) == (RunState.SETTLED, expected)


def test_a_lomatonni_city_is_one_city_whatever_its_case(lomatonni_round):
    assert sorted(LomatonniCity.objects.values_list("key", flat=True)) == ["oslo", "pariisi", "rooma"]


def test_approved_lomatonni_prizes_reach_the_eurojackpot_players_game_account(lomatonni_round, people):
    draw, _, player = lomatonni_round
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    player.account.refresh_from_db()
    assert (player.account.balance_cents, Draw.objects.get(pk=draw.pk).state) == (
        100_00 - 550 + 1_000_00 + 5_00, DrawState.PAID)


def test_a_disagreement_between_the_two_paths_halts_the_jokeri_run(people, monkeypatch):
    from compliance.models import AuditEvent
    from lottery.games import jokeri as jokeri_game

    # Path B's hand-written table puts 4 correct digits in class 5 instead of 4.
    monkeypatch.setattr(jokeri_game, "CLASSES", {**jokeri_game.CLASSES, 4: 5})
    lotto = schedule("lotto", 1205)
    jokeri = schedule("jokeri", 1205, main_draw=lotto)
    draw_set_jackpot(actor="system:test", draw=jokeri, jackpot_cents=JACKPOT_CENTS)
    add_lines(jokeri, [_jokeri("0123999", None, 300)])
    run = draw_and_settle(jokeri, JOKERI_RESULT, people[0], people[1])
    event = AuditEvent.objects.filter(action="lottery.settlement_disagreement").last()
    assert (run.state, event.significant, "class 4" in run.error) == (RunState.HALTED, True, True)


def test_a_halted_run_says_why_in_the_readers_language(people, monkeypatch, staff_client, language_restored):
    from django.urls import reverse

    from lottery.games import jokeri as jokeri_game

    monkeypatch.setattr(jokeri_game, "CLASSES", {**jokeri_game.CLASSES, 4: 5})
    lotto = schedule("lotto", 1206)
    jokeri = schedule("jokeri", 1206, main_draw=lotto)
    draw_set_jackpot(actor="system:test", draw=jokeri, jackpot_cents=JACKPOT_CENTS)
    add_lines(jokeri, [_jokeri("0123999", None, 300)])
    run = draw_and_settle(jokeri, JOKERI_RESULT, people[0], people[1])
    page = staff_client(roles.DRAW_SUPERVISOR).get(reverse("lottery:draw", args=[jokeri.pk]),
                                                   HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    # Stored in English for the record; shown in Finnish: "luokka 4: laskettu 0 voittajaa ..."
    assert ("class 4: counted" in run.error, "luokka 4: laskettu" in page, "class 4: counted" in page) == (
        True, True, False)
