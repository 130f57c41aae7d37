"""Synttärit through the draw pipeline: a date and a letter, sold, drawn, settled by two paths,
approved and paid; its class cap shared by stake."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from compliance import roles
from lottery.models import Draw, DrawState, RunState, TierResult
from lottery.services import DrawInputError, pay_draw, result_enter, settlement_approve
from tests.lottery.game_support import (
    add_lines,
    draw_and_settle,
    engine_line_prizes,
    schedule,
    sell_and_settle,
    stored_lines,
    winnings,
)

GAME = "synttarit"
RESULT = {"date": "1990-05-17", "letter": "K"}
PLAYER = [("1990-05-17", "A", 100),   # day, month, year: 5,000 x
          ("1985-05-17", "k", 100),   # day, month, letter (any case): 250 x
          ("1990-05-03", "B", 100),   # month, year: 50 x
          ("1990-06-17", "K", 100)]   # the month wrong: nothing
RETAIL = [("R-1", "1985-05-03", "A", 200),  # month only: 2 x
          ("R-2", "1990-05-17", "Ä", 100)]  # day, month, year (Ä is a letter too): 5,000 x


def _engine(draw, sold):
    return engine_line_prizes(GAME, RESULT, [(line.pk, {"date": d, "letter": letter}, s)
                                             for line, (d, letter, s) in zip(stored_lines(draw), sold)])


@pytest.fixture
def birthday_round(api_client_for, make_gambler, people):
    lines = [{"date": d, "letter": letter, "stake_cents": s} for d, letter, s in PLAYER]
    rows = [{"ticket": t, "date": d, "letter": letter, "stake_cents": s} for t, d, letter, s in RETAIL]
    return sell_and_settle(schedule(GAME, 9501), api_client_for(roles.SALES_CHANNEL), make_gambler(100_00), "B-1",
                           lines, rows, people, RESULT)


def test_a_synttarit_round_settles_with_the_engines_prize_for_every_line(birthday_round):
    draw, run, _ = birthday_round
    sold = PLAYER + [(d, letter, s) for _, d, letter, s in RETAIL]
    assert (run.state, winnings(run)) == (RunState.SETTLED, _engine(draw, sold))


def test_synttarit_classes_are_the_exact_sets_of_correct_components(birthday_round):
    _, run, _ = birthday_round
    assert dict(TierResult.objects.filter(run=run).values_list("class_key", "winners")) == {
        "2": 2, "4": 1, "5": 1, "8": 1}


def test_approved_synttarit_prizes_reach_the_players_game_account(birthday_round, people):
    draw, _, player = birthday_round
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    player.account.refresh_from_db()
    assert (player.account.balance_cents, Draw.objects.get(pk=draw.pk).state) == (
        100_00 - 400 + 5_000_00 + 250_00 + 50_00, DrawState.PAID)


def test_a_synttarit_result_needs_a_real_date(people):
    draw = schedule(GAME, 9502)
    Draw.objects.filter(pk=draw.pk).update(sales_close_at=timezone.now() - dt.timedelta(minutes=10),
                                           draw_at=timezone.now() - dt.timedelta(minutes=5), state="closed")
    with pytest.raises(DrawInputError, match="not a valid date"):
        result_enter(actor=people[0], draw=Draw.objects.get(pk=draw.pk), numbers={"date": "1990-02-30", "letter": "K"},
                     draw_method="device", witnesses="W")


def test_a_synttarit_class_over_3_million_is_shared_by_stake(people):
    # Everything correct: 150,000 x (10 € + 20 €) = 4,500,000 € > 3,000,000 €.
    draw = schedule(GAME, 9503)
    add_lines(draw, [{"date": "1990-05-17", "letter": "K", "stake_cents": 1000},
                     {"date": "1990-05-17", "letter": "K", "stake_cents": 2000}])
    run = draw_and_settle(draw, RESULT, people[0], people[1])
    tier = TierResult.objects.get(run=run, class_key="1")
    assert (sorted(winnings(run).values()), tier.paid_cents + tier.breakage_cents) == (
        [100_000_000, 200_000_000], 300_000_000)
