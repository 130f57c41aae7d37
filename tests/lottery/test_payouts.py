"""Approval and payout: a second user approves, prizes go to game accounts once, large wins wait,
the balance cap diverts to a bank payout, cancellation refunds, and corrections adjust payments."""

from __future__ import annotations

import pytest
from django.test import override_settings

from compliance import roles
from lottery.models import Draw, DrawState, Payout, WagerRefund
from lottery.services import (
    FourEyesError,
    correction_confirm,
    correction_request,
    draw_cancel,
    draw_close_sales,
    pay_draw,
    pay_refunds,
    payout_approve_large,
    result_confirm,
    result_enter,
    settlement_approve,
    wager_place,
)
from lottery.services.settlement import run_settlement
from players.models import LedgerEntry, PendingPayout
from tests.lottery.support import add_line

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
FOUR = [1, 2, 3, 4, 20, 21, 22]  # 4 correct: 10 €
THREE_PLUS = [1, 2, 3, 8, 20, 21, 22]  # 3 + additional: 2 €
SEVEN = [1, 2, 3, 4, 5, 6, 7]  # the jackpot


@pytest.fixture
def people(make_staff):
    return [make_staff(roles.DRAW_SUPERVISOR) for _ in range(3)] + [make_staff(roles.COMPLIANCE_OFFICER)]


@pytest.fixture
def settled_round(open_draw, make_gambler, to_the_draw, people):
    """settled_round(lines_per_player, jackpot_cents=...) -> (draw, players): players' wagers placed
    through the channel service, the draw closed, its result entered and confirmed, settled."""

    def make(lines_per_player, retail_lines=(), **draw_fields):
        draw = open_draw(**draw_fields)
        for numbers in retail_lines:
            add_line(draw, numbers)
        players = []
        for i, numbers in enumerate(lines_per_player):
            player, session = make_gambler(100_00)
            wager_place(actor="channel:web", draw=draw, player=player, session=session, reference=f"W{i}",
                        lines=[{"numbers": numbers, "stake_cents": 100}])
            players.append(player)
        draw = to_the_draw(draw)
        draw_close_sales(actor="system:test", draw=draw)
        result_enter(actor=people[0], draw=draw, numbers=RESULT, draw_method="device", witnesses="W")
        result_confirm(actor=people[1], draw=draw)
        run_settlement(draw.settlement_runs.get().pk)
        return Draw.objects.get(pk=draw.pk), players

    return make


def _balance(player) -> int:
    player.account.refresh_from_db()
    return player.account.balance_cents


def test_the_result_confirmer_cannot_approve_the_payout(settled_round, people):
    draw, _ = settled_round([FOUR])
    with pytest.raises(FourEyesError, match="different user"):
        settlement_approve(actor=people[1], draw=draw)


def test_approval_moves_the_draw_to_approved(settled_round, people):
    draw, _ = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.APPROVED


def test_prizes_are_credited_to_the_game_accounts(settled_round, people):
    draw, (four, three) = settled_round([FOUR, THREE_PLUS])
    before = (_balance(four), _balance(three))
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    assert (_balance(four) - before[0], _balance(three) - before[1]) == (1000, 200)


def test_paying_twice_pays_once(settled_round, people):
    draw, (player,) = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    Payout.objects.filter(draw=draw).update(state=Payout.State.DUE)  # as if the first run died before recording
    pay_draw(draw)
    assert LedgerEntry.objects.filter(account=player.account, kind="prize").count() == 1


def test_each_winning_line_is_one_ledger_entry(settled_round, people):
    draw, players = settled_round([FOUR, FOUR, THREE_PLUS])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    assert LedgerEntry.objects.filter(kind="prize").count() == 3


def test_a_paid_draw_is_marked_paid(settled_round, people):
    draw, _ = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.PAID


def test_retail_winnings_are_left_for_the_point_of_sale(settled_round, people):
    draw, _ = settled_round([FOUR], retail_lines=[FOUR])
    settlement_approve(actor=people[2], draw=draw)
    assert sorted(Payout.objects.filter(draw=draw).values_list("state", flat=True)) == ["due", "retail"]


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_a_large_win_waits_for_its_own_approval(settled_round, people):
    draw, (player,) = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    assert (Payout.objects.get(draw=draw).state, Draw.objects.get(pk=draw.pk).state) == ("held", DrawState.APPROVED)


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_the_settlement_approver_cannot_approve_a_large_win(settled_round, people):
    draw, _ = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    with pytest.raises(FourEyesError):
        payout_approve_large(actor=people[2], payout=Payout.objects.get(draw=draw))


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_an_approved_large_win_is_paid(settled_round, people):
    draw, (player,) = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    before = _balance(player)
    payout_approve_large(actor=people[3], payout=Payout.objects.get(draw=draw))
    pay_draw(draw)
    assert _balance(player) - before == 1000


def test_a_prize_over_the_balance_cap_becomes_a_pending_bank_payout(settled_round, people):
    draw, (player,) = settled_round([SEVEN], jackpot_cents=5_000_000_00)
    settlement_approve(actor=people[2], draw=draw)
    payout_approve_large(actor=people[3], payout=Payout.objects.get(draw=draw))
    pay_draw(draw)
    payout = Payout.objects.get(draw=draw)
    assert (payout.credited_cents + payout.diverted_cents, PendingPayout.objects.get().amount_cents) == (
        5_000_000_00, payout.diverted_cents)


def test_cancelling_a_draw_refunds_the_players_stakes(open_draw, make_gambler, people):
    draw = open_draw()
    player, session = make_gambler(100_00)
    wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="C1",
                lines=[{"numbers": FOUR, "stake_cents": 100}])
    draw_cancel(actor=people[0], draw=draw, reason="no draw possible")
    pay_refunds(draw)
    assert (_balance(player), WagerRefund.objects.get(draw=draw).state) == (100_00, "paid")


def test_refunding_twice_refunds_once(open_draw, make_gambler, people):
    draw = open_draw()
    player, session = make_gambler(100_00)
    wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="C1",
                lines=[{"numbers": FOUR, "stake_cents": 100}])
    draw_cancel(actor=people[0], draw=draw, reason="no draw possible")
    pay_refunds(draw)
    WagerRefund.objects.update(state="due")
    pay_refunds(draw)
    assert LedgerEntry.objects.filter(kind="refund").count() == 1


def test_a_correction_after_payment_adjusts_through_the_ledger(settled_round, people):
    draw, (stays, loses, gains) = settled_round([[1, 2, 3, 4, 20, 21, 22], [1, 2, 3, 7, 20, 21, 22],
                                                 [1, 2, 3, 9, 20, 21, 22]])
    settlement_approve(actor=people[2], draw=draw)
    pay_draw(draw)
    before = [_balance(p) for p in (stays, loses, gains)]
    correction_request(actor=people[0], draw=draw, numbers={**RESULT, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    run_settlement(correction_confirm(actor=people[1], draw=draw).pk)
    settlement_approve(actor=people[2], draw=Draw.objects.get(pk=draw.pk))
    pay_draw(draw)
    after = [_balance(p) for p in (stays, loses, gains)]
    assert [a - b for a, b in zip(after, before)] == [0, -1000, 1000]


def test_a_correction_stops_payouts_not_yet_made(settled_round, people):
    draw, _ = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    correction_request(actor=people[0], draw=draw, numbers={**RESULT, "numbers": [1, 2, 3, 4, 5, 6, 9]}, reason="misread")
    correction_confirm(actor=people[1], draw=draw)
    assert Payout.objects.get(draw=draw).state == Payout.State.SUPERSEDED


def test_payouts_are_approved_and_listed_through_the_api(settled_round, people, api_client_for):
    from rest_framework.test import APIClient

    from tests.factories import api_token

    draw, _ = settled_round([FOUR])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(people[2])}")
    approved = api.post(f"/api/v1/draws/{draw.pk}/approve/")
    payouts = api.get(f"/api/v1/draws/{draw.pk}/payouts/").json()["results"]
    assert (approved.status_code, [p["amount_cents"] for p in payouts]) == (200, [1000])


def test_the_approvals_page_names_the_draw_and_its_result_not_ids(settled_round, people, client):
    """Issue 18: "Lotto #1002" with a link, the winners and the prizes in euros; no `draw=2` or `paid_cents`."""
    from django.urls import reverse

    draw, _players = settled_round([FOUR])
    client.force_login(people[3])
    page = client.get(reverse("compliance:approvals")).content.decode()
    row = page[page.index('data-kind="lottery.payout"'):]
    row = row[:row.index("</tr>")]
    assert (str(draw) in row, reverse("lottery:draw", args=[draw.pk]) in row, "10.00" in row, "paid_cents" not in row,
            "Settlement to approve for payout" in row) == (True, True, True, True, True)


@override_settings(LOTTERY_LARGE_WIN_CENTS=500)
def test_a_large_win_request_names_the_winner_and_what_bars_them(settled_round, people):
    from compliance.approvals import approval_subject
    from compliance.models import Approval
    from compliance.services import exclusion_entry_add
    from tests.factories import OperatorRegistryFactory

    draw, (player,) = settled_round([FOUR])
    settlement_approve(actor=people[2], draw=draw)
    person = player.person
    exclusion_entry_add(actor="system:test", registry=OperatorRegistryFactory(name="Operator bans"),
                        first_name=person.first_name, last_name=person.last_name, birth_date=person.birth_date,
                        reason="match fixing")
    approval = Approval.objects.get(kind="lottery.large_win", state="requested")
    facts = {str(f.label): f.value for f in approval_subject(approval).facts}
    assert (facts["Person"], "match fixing" in " ".join(facts["Registers and bans in force"])) == (
        f"{person.first_name} {person.last_name}", True)
