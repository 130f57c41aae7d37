"""Wagers from sales channels: screened and debited in the same transaction, refusals say why."""

from __future__ import annotations

import pytest

from compliance import roles
from compliance.models import ScreeningDecision
from lottery.models import Line, Wager
from lottery.services import DrawInputError, DrawStateError, wager_place
from players.errors import PlayerError
from players.models import LedgerEntry

LINE = {"numbers": [1, 2, 3, 4, 5, 6, 7], "stake_cents": 100}
PLUSSA_LINE = {"numbers": [8, 9, 10, 11, 12, 13, 14], "plus": 5, "stake_cents": 100, "plus_cents": 50}


def _place(draw, player, session, lines=(LINE,), reference="W1"):
    return wager_place(actor="channel:web", draw=draw, player=player, session=session, reference=reference,
                       lines=list(lines))


def test_an_accepted_wager_is_stored_with_its_lines(open_draw, make_gambler):
    player, session = make_gambler()
    placed = _place(open_draw(), player, session, [LINE, PLUSSA_LINE])
    assert (placed.wager.stake_cents, Line.objects.filter(wager=placed.wager).count()) == (250, 2)


def test_the_stake_is_debited_from_the_game_account(open_draw, make_gambler):
    player, session = make_gambler(100_00)
    _place(open_draw(), player, session, [LINE, PLUSSA_LINE])
    player.account.refresh_from_db()
    assert player.account.balance_cents == 100_00 - 250


def test_the_same_reference_does_not_debit_twice(open_draw, make_gambler):
    player, session = make_gambler()
    draw = open_draw()
    _place(draw, player, session)
    again = _place(draw, player, session)
    assert (again.replayed, LedgerEntry.objects.filter(kind="stake").count()) == (True, 1)


def test_a_closed_draw_refuses_wagers(open_draw, make_gambler):
    player, session = make_gambler()
    with pytest.raises(DrawStateError, match="not open for sales"):
        _place(open_draw(state="closed"), player, session)


def test_an_invalid_line_is_refused_and_nothing_is_debited(open_draw, make_gambler):
    player, session = make_gambler(100_00)
    with pytest.raises(DrawInputError, match="line 1"):
        _place(open_draw(), player, session, [{"numbers": [1, 2, 3], "stake_cents": 100}])
    player.account.refresh_from_db()
    assert player.account.balance_cents == 100_00


def test_insufficient_funds_are_refused(open_draw, make_gambler):
    player, session = make_gambler(50)
    with pytest.raises(PlayerError) as refused:
        _place(open_draw(), player, session)
    assert (refused.value.code, Wager.objects.count()) == ("insufficient_funds", 0)


def test_a_screening_refusal_keeps_the_decision_and_stores_no_wager(open_draw, make_gambler):
    player, _ = make_gambler()
    with pytest.raises(PlayerError):
        _place(open_draw(), player, None)  # a stake needs an open play session
    assert (ScreeningDecision.objects.filter(action="stake", allowed=False).count(), Wager.objects.count()) == (1, 0)


def test_a_channel_places_a_wager_through_the_api(api_client_for, open_draw, make_gambler):
    player, session = make_gambler()
    draw = open_draw()
    body = {"reference": "T-1", "draw": draw.pk, "player": player.pk, "session": session.pk, "lines": [LINE]}
    api = api_client_for(roles.SALES_CHANNEL)
    first, second = api.post("/api/v1/wagers/", body, format="json"), api.post("/api/v1/wagers/", body, format="json")
    assert (first.status_code, second.status_code, first.json()["id"]) == (201, 200, second.json()["id"])


def test_an_api_refusal_says_why(api_client_for, open_draw, make_gambler):
    player, session = make_gambler(10)
    body = {"reference": "T-2", "draw": open_draw().pk, "player": player.pk, "session": session.pk, "lines": [LINE]}
    response = api_client_for(roles.SALES_CHANNEL).post("/api/v1/wagers/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (422, "insufficient_funds")


def test_a_channel_sees_only_its_own_wagers(api_client_for, open_draw, make_gambler):
    player, session = make_gambler()
    wager = _place(open_draw(), player, session).wager
    assert api_client_for(roles.SALES_CHANNEL).get(f"/api/v1/wagers/{wager.pk}/").status_code == 404
