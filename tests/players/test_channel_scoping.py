"""Issue 14, finding 1: a sales channel sees and changes only the players it registered, and cannot
credit an arbitrary prize; a bank payout needs a second person."""

from __future__ import annotations

import pytest

from compliance import roles
from compliance.approvals import FourEyesError, approval_decide
from compliance.models import Approval, AuditEvent
from players import services
from players.models import LedgerEntry, PendingPayout
from tests.factories import PersonFactory, PlayerFactory, sales_channel

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_players(db):
    """A funded player of the channel "test", seen from the channel "other"."""
    player = PlayerFactory(person=PersonFactory())
    services.account_deposit(actor="channel:test", account=player.account, amount_cents=100_00, reference="fund-1")
    return player


@pytest.mark.parametrize("path", ["", "ledger/"])
def test_another_channel_cannot_read_a_player_it_did_not_register(api_client_for, other_players, path):
    api = api_client_for(roles.SALES_CHANNEL, channel="other")
    assert api.get(f"/api/v1/players/{other_players.pk}/{path}").status_code == 404


def test_the_registering_channel_reads_its_player(api_client_for, other_players):
    assert api_client_for(roles.SALES_CHANNEL).get(f"/api/v1/players/{other_players.pk}/").status_code == 200


@pytest.mark.parametrize(
    "path, body",
    [
        ("prizes/", {"amount_cents": 5_000_000, "reference": "steal"}),
        ("withdrawals/", {"amount_cents": 50_00, "reference": "steal"}),
        ("deposits/", {"amount_cents": 50_00, "reference": "steal"}),
    ],
)
def test_another_channel_moves_no_money_of_a_player_it_did_not_register(api_client_for, other_players, path, body):
    api = api_client_for(roles.SALES_CHANNEL, channel="other")
    response = api.post(f"/api/v1/players/{other_players.pk}/{path}", body, format="json")
    assert (response.status_code, LedgerEntry.objects.filter(reference="steal").count()) == (404, 0)


def test_another_channel_cannot_end_a_play_session_of_a_player_it_did_not_register(api_client_for, other_players):
    session = services.session_start(actor="channel:test", player=other_players)
    api = api_client_for(roles.SALES_CHANNEL, channel="other")
    response = api.post(f"/api/v1/play-sessions/{session.pk}/end/", format="json")
    session.refresh_from_db()
    assert (response.status_code, session.ended_at) == (404, None)


def test_a_prize_above_the_channels_limit_waits_for_approval_and_credits_nothing(api_client_for, other_players):
    api = api_client_for(roles.SALES_CHANNEL)
    response = api.post(f"/api/v1/players/{other_players.pk}/prizes/",
                        {"amount_cents": 5_000_000, "reference": "big-1"}, format="json")
    assert (response.status_code, response.json()["code"], LedgerEntry.objects.filter(reference="big-1").count()) \
        == (202, "approval_required", 0)


def test_the_same_prize_reference_again_answers_with_the_same_pending_request(api_client_for, other_players):
    api = api_client_for(roles.SALES_CHANNEL)
    body = {"amount_cents": 5_000_000, "reference": "big-2"}
    first = api.post(f"/api/v1/players/{other_players.pk}/prizes/", body, format="json").json()
    second = api.post(f"/api/v1/players/{other_players.pk}/prizes/", body, format="json").json()
    assert (first["approval"], Approval.objects.filter(kind=services.CHANNEL_PRIZE_KIND).count()) \
        == (second["approval"], 1)


def test_a_compliance_officer_approving_the_prize_credits_it_under_its_reference(api_client_for, make_staff,
                                                                               other_players):
    api = api_client_for(roles.SALES_CHANNEL)
    approval_id = api.post(f"/api/v1/players/{other_players.pk}/prizes/",
                           {"amount_cents": 300_00, "reference": "big-3"}, format="json").json()["approval"]
    approval_decide(actor=make_staff(roles.COMPLIANCE_OFFICER), approval=Approval.objects.get(pk=approval_id),
                    approve=True)
    assert LedgerEntry.objects.get(reference="big-3").amount_cents == 300_00


def test_a_prize_within_the_channels_limit_is_credited_at_once(api_client_for, other_players):
    channel = sales_channel()
    channel.prize_limit_cents = 500_00
    channel.save()
    api = api_client_for(roles.SALES_CHANNEL)
    response = api.post(f"/api/v1/players/{other_players.pk}/prizes/",
                        {"amount_cents": 500_00, "reference": "small-1"}, format="json")
    assert (response.status_code, LedgerEntry.objects.filter(reference="small-1").count()) == (201, 1)


def test_registering_a_person_of_another_channel_is_refused_without_saying_why(api_client_for, other_players):
    person = other_players.person
    from compliance.identity import decrypt_identifier

    body = {"first_name": person.first_name, "last_name": person.last_name,
            "birth_date": person.birth_date.isoformat(), "national_id": decrypt_identifier(person.national_id_encrypted),
            "id_country": "FI"}
    response = api_client_for(roles.SALES_CHANNEL, channel="other").post("/api/v1/players/", body, format="json")
    body = response.json()
    assert (response.status_code, body["code"], "registered" in body["detail"]) == (409, "registration_refused", False)


def test_a_refused_registration_is_a_significant_audit_event(api_client_for, other_players):
    from compliance.identity import decrypt_identifier

    person = other_players.person
    api_client_for(roles.SALES_CHANNEL, channel="other").post("/api/v1/players/", {
        "first_name": person.first_name, "last_name": person.last_name, "birth_date": person.birth_date.isoformat(),
        "national_id": decrypt_identifier(person.national_id_encrypted), "id_country": "FI"}, format="json")
    assert AuditEvent.objects.filter(action="players.registration_refused", significant=True).count() == 1


def test_a_wager_of_a_player_of_another_channel_is_not_placed(api_client_for, other_players):
    from tests.factories import DrawFactory
    from tests.lottery.game_support import place

    draw = DrawFactory()
    session = services.session_start(actor="channel:test", player=other_players)
    response = place(api_client_for(roles.SALES_CHANNEL, channel="other"), draw, other_players, session, "W-x",
                     [{"numbers": [1, 2, 3, 4, 5, 6, 7], "stake_cents": 100}])
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def _pending_payout(player) -> PendingPayout:
    services.account_prize(actor="system:tests", account=player.account, amount_cents=2_500_000, reference="cap-1")
    return PendingPayout.objects.get(account=player.account)


def test_an_operator_alone_cannot_mark_a_bank_payout_paid(staff_client, other_players):
    payout = _pending_payout(other_players)
    client = staff_client(roles.OPERATOR)
    client.post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "BANK-1"})
    payout.refresh_from_db()
    assert (payout.status, Approval.objects.filter(kind=services.PAYOUT_RELEASE_KIND).count()) == ("pending", 1)


def test_a_second_person_confirming_the_bank_payout_marks_it_paid(staff_client, make_staff, other_players):
    payout = _pending_payout(other_players)
    staff_client(roles.OPERATOR).post(f"/players/payouts/{payout.pk}/paid/", {"bank_reference": "BANK-2"})
    approval_decide(actor=make_staff(roles.COMPLIANCE_OFFICER),
                    approval=Approval.objects.get(kind=services.PAYOUT_RELEASE_KIND), approve=True)
    payout.refresh_from_db()
    assert (payout.status, payout.bank_reference) == ("paid", "BANK-2")


def test_the_recorder_of_a_bank_payout_cannot_confirm_it_themselves(make_staff, other_players):
    payout = _pending_payout(other_players)
    officer = make_staff(roles.COMPLIANCE_OFFICER)
    approval = services.payout_release_request(actor=officer, payout=payout, bank_reference="BANK-3")
    with pytest.raises(FourEyesError):
        approval_decide(actor=officer, approval=approval, approve=True)


def test_a_channel_user_cannot_take_a_reserved_channel_code(make_staff):
    from players.errors import InvalidRequest

    with pytest.raises(InvalidRequest):
        services.channel_create(actor="system:tests", user=make_staff(roles.SALES_CHANNEL), code="retail")


def test_a_user_without_a_channel_places_no_wagers(make_staff):
    from lottery.services import DrawError
    from lottery.services.wagers import wager_place

    player = PlayerFactory(person=PersonFactory())
    with pytest.raises(DrawError):
        wager_place(actor=make_staff(roles.ADMINISTRATOR), draw=0, player=player, session=None, reference="R",
                    lines=[])
