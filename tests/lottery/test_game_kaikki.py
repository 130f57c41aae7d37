"""Kaikki tai ei mitään (+ Onnenapila) through the draw pipeline: sold, drawn, settled by two paths,
approved and paid; its class cap shared in proportion to the prizes."""

from __future__ import annotations

import pytest

from compliance import roles
from lottery.models import Draw, DrawState, RunState, TierResult, Winning
from lottery.services import pay_draw, settlement_approve
from tests.lottery.game_support import (
    add_lines,
    draw_and_settle,
    engine_line_prizes,
    schedule,
    sell_and_settle,
    stored_lines,
    winnings,
)

GAME = "kaikki_tai_ei_mitaan"
RESULT = {"numbers": list(range(1, 13)), "lucky": 2}
LOW = list(range(13, 25))
# (picks, Onnenapila lucky number or None, stake cents)
PLAYER = [(LOW, None, 1),                                   # 0 correct: 125,000 x 0.01 € = 1,250 €
          ([1, 2, 3, 4, 5, 6] + LOW[:6], 2, 100),           # 6 correct with the right lucky number: 1 x
          ([1, 2, 3, 4, 5, 6] + LOW[:6], None, 100),        # 6 correct without Onnenapila: nothing
          (list(range(1, 10)) + LOW[:3], 3, 100)]           # 9 correct, wrong lucky number: 5 x
RETAIL = [("R-1", list(range(1, 9)) + LOW[:4], 2, 200),     # 8 correct, Onnenapila: 4 x 2 € = 8 €
          ("R-2", [1, 2, 3, 4] + LOW[:8], None, 100)]       # 4 correct: 1 x


def _api_line(picks, lucky, stake):
    return {"numbers": picks, "lucky": lucky, "stake_cents": stake, "addon_cents": 50 if lucky else 0}


def _row(ticket, picks, lucky, stake):
    row = {"ticket": ticket, "lucky": lucky or "", "stake_cents": stake, "addon_cents": 50 if lucky else 0}
    row.update({f"n{i}": n for i, n in enumerate(picks, start=1)})
    return row


def _engine(draw, sold):
    return engine_line_prizes(GAME, RESULT, [(line.pk, {"picks": p, **({"lucky": k} if k else {})}, s)
                                             for line, (p, k, s) in zip(stored_lines(draw), sold)])


@pytest.fixture
def kaikki_round(api_client_for, make_gambler, people):
    return sell_and_settle(schedule(GAME, 8001), api_client_for(roles.SALES_CHANNEL), make_gambler(100_00), "KT-1",
                           [_api_line(*x) for x in PLAYER], [_row(*x) for x in RETAIL], people, RESULT)


def test_a_kaikki_round_settles_with_the_engines_prize_for_every_line(kaikki_round):
    draw, run, _ = kaikki_round
    sold = PLAYER + [(p, k, s) for _, p, k, s in RETAIL]
    assert (run.state, winnings(run)) == (RunState.SETTLED, _engine(draw, sold))


def test_onnenapila_winners_are_marked_as_paid_from_the_onnenapila_column(kaikki_round):
    _, run, _ = kaikki_round
    boosted = Winning.objects.filter(run=run, boosted=True)
    assert sorted(boosted.values_list("class_no", "prize_cents")) == [(6, 1_00), (8, 8_00)]


def test_zero_correct_is_its_own_class(kaikki_round):
    _, run, _ = kaikki_round
    assert TierResult.objects.get(run=run, class_key="0").paid_cents == 1_250_00


def test_approved_kaikki_prizes_reach_the_players_game_account(kaikki_round, people):
    draw, _, player = kaikki_round
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    player.account.refresh_from_db()
    staked = 1 + 100 + 50 + 100 + 100 + 50
    assert (player.account.balance_cents, Draw.objects.get(pk=draw.pk).state) == (
        100_00 - staked + 1_250_00 + 1_00 + 5_00, DrawState.PAID)


CAPPED = [(RESULT["numbers"], 2, 500),    # 12 correct, Onnenapila: 500,000 x 5 € = 2,500,000 €
          (RESULT["numbers"], None, 1000),  # 12 correct: 125,000 x 10 € = 1,250,000 €
          (RESULT["numbers"], None, 300)]   # 12 correct: 125,000 x 3 € = 375,000 €


def _capped_round(people, number):
    draw = schedule(GAME, number)
    add_lines(draw, [_api_line(*x) for x in CAPPED])
    return Draw.objects.get(pk=draw.pk), draw_and_settle(draw, RESULT, people[0], people[1])


def test_a_kaikki_class_over_3_million_is_shared_in_proportion_to_the_prizes(people):
    # 4,125,000 € calculated > 3,000,000 €: each line gets 3,000,000 x its prize / 4,125,000 (W14),
    # not a share by stake (which would give the 5 € Onnenapila line only 833,333.33 €).
    draw, run = _capped_round(people, 8101)
    assert sorted(winnings(run).values()) == [27_272_727, 90_909_090, 181_818_181]


def test_a_capped_kaikki_class_conserves_the_cap_as_paid_plus_breakage(people):
    draw, run = _capped_round(people, 8102)
    tier = TierResult.objects.get(run=run, class_key="12")
    assert (tier.capped, tier.paid_cents + tier.breakage_cents, tier.breakage_cents) == (True, 300_000_000, 2)


def test_the_kaikki_cap_matches_the_engine_computed_from_the_picks(people):
    draw, run = _capped_round(people, 8103)
    assert winnings(run) == _engine(draw, CAPPED)
