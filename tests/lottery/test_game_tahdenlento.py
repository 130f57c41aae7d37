"""Tähdenlento (+ bonus draw) through the draw pipeline: sold, drawn, settled by two paths, approved
and paid; its cell caps shared by stake."""

from __future__ import annotations

import pytest

from compliance import roles
from lottery.models import Draw, DrawState, RunState, TierResult
from lottery.services import pay_draw, settlement_approve
from tests.lottery.game_support import (
    add_lines,
    draw_and_settle,
    engine_line_prizes,
    place,
    schedule,
    sell_and_settle,
    stored_lines,
    winnings,
)

GAME = "tahdenlento"
RESULT = {"numbers": list(range(1, 15)), "bonus": 2}
# (picks, bonus token or None, stake cents)
PLAYER = [([1, 2, 3, 4, 5, 20, 21], None, 100),     # 7 numbers, 5 correct: 7 x
          ([1, 2, 3, 4], 2, 100),                    # 4 numbers, 4 correct, bonus right: 70 x
          ([1, 2, 3, 20, 21, 22], 1, 100),           # 6 numbers, 3 correct, bonus wrong: 1 x
          (list(range(20, 28)), None, 100)]          # 8 numbers, 0 correct: 1 x
RETAIL = [("R-1", [1, 2, 20], 2, 100),               # 3 numbers, 2 correct, bonus right: 4 x
          ("R-2", [20, 21, 22], None, 100)]          # 3 numbers, 0 correct: nothing


def _api_line(picks, bonus, stake):
    return {"numbers": picks, "bonus": bonus, "stake_cents": stake, "addon_cents": 30 if bonus else 0}


def _row(ticket, picks, bonus, stake):
    row = {"ticket": ticket, "bonus": bonus or "", "stake_cents": stake, "addon_cents": 30 if bonus else 0}
    row.update({f"n{i}": n for i, n in enumerate(picks, start=1)})
    return row


def _engine(draw, sold):
    return engine_line_prizes(GAME, RESULT, [(line.pk, {"picks": p, **({"bonus_token": b} if b else {})}, s)
                                             for line, (p, b, s) in zip(stored_lines(draw), sold)])


@pytest.fixture
def star_round(api_client_for, make_gambler, people):
    return sell_and_settle(schedule(GAME, 9001), api_client_for(roles.SALES_CHANNEL), make_gambler(100_00), "S-1",
                           [_api_line(*x) for x in PLAYER], [_row(*x) for x in RETAIL], people, RESULT)


def test_a_tahdenlento_round_settles_with_the_engines_prize_for_every_line(star_round):
    draw, run, _ = star_round
    sold = PLAYER + [(p, b, s) for _, p, b, s in RETAIL]
    assert (run.state, winnings(run)) == (RunState.SETTLED, _engine(draw, sold))


def test_a_right_bonus_token_pays_the_bonus_cell(star_round):
    _, run, _ = star_round
    cells = dict(TierResult.objects.filter(run=run, class_key__endswith="+bonus").values_list("class_key", "paid_cents"))
    assert cells == {"4-4+bonus": 70_00, "3-2+bonus": 4_00}


def test_approved_tahdenlento_prizes_reach_the_players_game_account(star_round, people):
    draw, _, player = star_round
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    player.account.refresh_from_db()
    assert (player.account.balance_cents, Draw.objects.get(pk=draw.pk).state) == (
        100_00 - 460 + 7_00 + 70_00 + 1_00 + 1_00, DrawState.PAID)


def test_a_tahdenlento_bonus_token_that_is_not_one_of_the_two_is_refused(api_client_for, make_gambler):
    draw = schedule(GAME, 9002)
    player, session = make_gambler()
    response = place(api_client_for(roles.SALES_CHANNEL), draw, player, session, "S-3",
                     [_api_line([1, 2, 3], 3, 100)])
    assert (response.status_code, "is not one of 1, 2" in response.json()["detail"]) == (400, True)


def _capped_round(people, lines, number):
    draw = schedule(GAME, number)
    add_lines(draw, [_api_line(*x) for x in lines])
    return Draw.objects.get(pk=draw.pk), draw_and_settle(draw, RESULT, people[0], people[1])


SEVEN = [1, 2, 3, 4, 5, 6, 7]


def test_a_tahdenlento_cell_over_600_000_is_shared_by_stake(people):
    # 7 numbers, 7 correct: 5,000 x (100 € + 50 €) = 750,000 € > 600,000 €.
    draw, run = _capped_round(people, [(SEVEN, None, 10000), (SEVEN, None, 5000)], 9101)
    assert sorted(winnings(run).values()) == [200_000_00, 400_000_00]


def test_the_8_plus_bonus_cell_is_capped_at_1_2_million(people):
    # 8 numbers, 8 correct with the bonus: 60,000 x 30 € = 1,800,000 € > 1,200,000 €.
    lines = [(list(range(1, 9)), 2, 3000), (SEVEN, None, 100)]
    draw, run = _capped_round(people, lines, 9102)
    tier = TierResult.objects.get(run=run, class_key="8-8+bonus")
    assert (tier.capped, tier.paid_cents, winnings(run) == _engine(draw, lines)) == (True, 1_200_000_00, True)
