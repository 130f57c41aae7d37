"""The channel API: register, verify, fund, play, be reminded, limit, self-exclude, be refused.
Every refusal is a 4xx with a code and a message, and changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from compliance import roles
from compliance.idcodes import finnish_id
from players.models import GameAccount, LedgerEntry, PlaySession

BIRTH = dt.date(1991, 7, 3)
REGISTRATION = {
    "first_name": "Ville",
    "last_name": "Virtanen",
    "birth_date": "1991-07-03",
    "national_id": finnish_id(BIRTH, 931),
    "email": "ville@example.invalid",
    "city": "Tampere",
}


@pytest.fixture
def channel(api_client_for):
    return api_client_for(roles.SALES_CHANNEL)


@pytest.fixture
def registered(channel):
    return channel.post("/api/v1/players/", REGISTRATION, format="json").json()["id"]


@pytest.fixture
def verified(channel, registered):
    channel.post(
        f"/api/v1/players/{registered}/verification/",
        {"result": "verified", "method": "bank_id"},
        format="json",
    )
    return registered


@pytest.fixture
def funded(channel, verified):
    channel.post(
        f"/api/v1/players/{verified}/deposits/", {"amount_cents": 100_00, "reference": "dep-0"}, format="json"
    )
    return verified


@pytest.fixture
def session_id(channel, funded):
    return channel.post(f"/api/v1/players/{funded}/sessions/", format="json").json()["id"]


def _post(api, url, data=None):
    return api.post(url, data or {}, format="json")


def _stake(api, player_id, session, reference, amount=1_00):
    return _post(
        api,
        f"/api/v1/players/{player_id}/stakes/",
        {"amount_cents": amount, "reference": reference, "session": session},
    )


def _let_15_minutes_pass(session: int) -> None:
    earlier = timezone.now() - dt.timedelta(minutes=16)
    PlaySession.objects.filter(pk=session).update(started_at=earlier, interval_started_at=earlier)


def test_registration_returns_the_new_player(channel):
    response = _post(channel, "/api/v1/players/", REGISTRATION)
    assert (response.status_code, response.json()["kyc_status"], response.json()["balance_cents"]) == (
        201,
        "unverified",
        0,
    )


def test_registration_never_echoes_the_identifier(channel):
    assert (
        REGISTRATION["national_id"] not in _post(channel, "/api/v1/players/", REGISTRATION).content.decode()
    )


def test_invalid_input_is_a_400_naming_the_fields(channel):
    body = _post(channel, "/api/v1/players/", {**REGISTRATION, "birth_date": "someday", "email": "x"}).json()
    assert (body["code"], sorted(body["fields"])) == ("invalid", ["birth_date", "email"])


def test_under_age_registration_is_a_422_with_code_and_message(channel):
    young = timezone.localdate().replace(year=timezone.localdate().year - 17)
    response = _post(
        channel,
        "/api/v1/players/",
        {**REGISTRATION, "birth_date": young.isoformat(), "national_id": finnish_id(young, 931)},
    )
    assert (response.status_code, response.json()["code"], bool(response.json()["detail"])) == (
        422,
        "under_age",
        True,
    )


def test_the_same_channel_registering_the_person_again_gets_its_player_back(channel, registered):
    response = _post(channel, "/api/v1/players/", REGISTRATION)
    assert (response.status_code, response.json()["id"]) == (200, registered)


def test_unverified_player_deposit_is_refused_and_changes_nothing(channel, registered):
    response = _post(
        channel, f"/api/v1/players/{registered}/deposits/", {"amount_cents": 10_00, "reference": "d1"}
    )
    assert (response.status_code, response.json()["code"], LedgerEntry.objects.count()) == (
        422,
        "not_verified",
        0,
    )


def test_verification_makes_the_player_verified(channel, registered):
    body = _post(
        channel, f"/api/v1/players/{registered}/verification/", {"result": "verified", "method": "bank_id"}
    ).json()
    assert body["kyc_status"] == "verified"


def test_deposit_returns_the_entry_and_the_balance(channel, verified):
    body = _post(
        channel, f"/api/v1/players/{verified}/deposits/", {"amount_cents": 12_34, "reference": "d1"}
    ).json()
    assert (body["entry"]["amount_cents"], body["balance_cents"], body["replayed"]) == (12_34, 12_34, False)


def test_retried_deposit_is_a_200_replay_and_credits_once(channel, verified):
    url = f"/api/v1/players/{verified}/deposits/"
    _post(channel, url, {"amount_cents": 12_34, "reference": "d1"})
    response = _post(channel, url, {"amount_cents": 12_34, "reference": "d1"})
    assert (response.status_code, response.json()["replayed"], response.json()["balance_cents"]) == (
        200,
        True,
        12_34,
    )


def test_reused_reference_with_another_amount_is_a_409(channel, verified):
    url = f"/api/v1/players/{verified}/deposits/"
    _post(channel, url, {"amount_cents": 12_34, "reference": "d1"})
    response = _post(channel, url, {"amount_cents": 99_99, "reference": "d1"})
    assert (response.status_code, response.json()["code"]) == (409, "reference_conflict")


def test_deposit_over_the_cap_says_how_much_is_still_allowed(channel, funded):
    response = _post(
        channel, f"/api/v1/players/{funded}/deposits/", {"amount_cents": 20_000_00, "reference": "big"}
    )
    assert (response.status_code, response.json()["code"], response.json()["allowed_cents"]) == (
        422,
        "balance_cap",
        19_900_00,
    )


def test_status_shows_balance_and_room_under_the_cap(channel, funded):
    body = channel.get(f"/api/v1/players/{funded}/").json()
    assert (body["balance_cents"], body["deposit_room_cents"], body["cap_cents"]) == (
        100_00,
        19_900_00,
        20_000_00,
    )


def test_stake_in_a_session_debits_the_account(channel, funded, session_id):
    assert _stake(channel, funded, session_id, "s1", 2_50).json()["balance_cents"] == 97_50


def test_stake_is_refused_until_the_reminder_is_answered(channel, funded, session_id):
    _let_15_minutes_pass(session_id)
    response = _stake(channel, funded, session_id, "s1")
    assert (response.status_code, response.json()["code"]) == (422, "reminder_due")


def test_session_status_presents_the_due_reminder(channel, funded, session_id):
    _let_15_minutes_pass(session_id)
    body = channel.get(f"/api/v1/play-sessions/{session_id}/").json()
    assert (body["reminder_due"], body["reminder"]["played_seconds"], body["reminders_shown"]) == (
        True,
        900,
        1,
    )


def test_answering_continue_with_a_shorter_interval_unblocks_play(channel, funded, session_id):
    _let_15_minutes_pass(session_id)
    body = _post(
        channel,
        f"/api/v1/play-sessions/{session_id}/reminder/",
        {"choice": "continue", "interval_minutes": 10},
    ).json()
    assert (body["reminder_interval_seconds"], _stake(channel, funded, session_id, "s1").status_code) == (
        600,
        201,
    )


def test_interval_of_20_minutes_is_a_400_with_its_code(channel, funded, session_id):
    _let_15_minutes_pass(session_id)
    response = _post(
        channel,
        f"/api/v1/play-sessions/{session_id}/reminder/",
        {"choice": "continue", "interval_minutes": 20},
    )
    assert (response.status_code, response.json()["code"]) == (400, "interval_too_long")


def test_interval_change_before_the_first_reminder_is_refused(channel, session_id):
    response = _post(channel, f"/api/v1/play-sessions/{session_id}/interval/", {"minutes": 10})
    assert response.json()["code"] == "interval_before_first_reminder"


def test_logout_ends_the_session(channel, session_id):
    assert _post(channel, f"/api/v1/play-sessions/{session_id}/end/").json()["end_reason"] == "logout"


def test_lowered_deposit_limit_applies_at_once(channel, funded):
    limit = _post(
        channel,
        f"/api/v1/players/{funded}/limits/",
        {"kind": "deposit", "period": "day", "amount_cents": 120_00},
    )
    response = _post(
        channel, f"/api/v1/players/{funded}/deposits/", {"amount_cents": 30_00, "reference": "d2"}
    )
    assert (limit.status_code, response.json()["code"], response.json()["remaining_cents"]) == (
        201,
        "deposit_limit",
        20_00,
    )


def test_raised_limit_reports_when_it_takes_effect(channel, funded):
    url = f"/api/v1/players/{funded}/limits/"
    _post(channel, url, {"kind": "loss", "period": "week", "amount_cents": 50_00})
    body = _post(channel, url, {"kind": "loss", "period": "week", "amount_cents": 500_00}).json()
    waits = dt.datetime.fromisoformat(body["effective_from"]) - timezone.now()
    assert dt.timedelta(hours=23) < waits <= dt.timedelta(hours=24)


def test_time_limit_in_cents_is_a_400(channel, funded):
    response = _post(
        channel, f"/api/v1/players/{funded}/limits/", {"kind": "time", "period": "day", "amount_cents": 5}
    )
    assert (response.status_code, list(response.json()["fields"])) == (400, ["amount_cents"])


def test_self_exclusion_ends_the_session_and_refuses_stakes(channel, funded, session_id):
    _post(channel, f"/api/v1/players/{funded}/self-exclusion/", {"days": 30})
    response = _stake(channel, funded, session_id, "s1")
    assert (response.status_code, {r["code"] for r in response.json()["reasons"]} >= {"self_excluded"}) == (
        422,
        True,
    )


def test_self_excluded_player_may_withdraw_through_the_api(channel, funded):
    _post(channel, f"/api/v1/players/{funded}/self-exclusion/", {"permanent": True})
    response = _post(
        channel, f"/api/v1/players/{funded}/withdrawals/", {"amount_cents": 100_00, "reference": "w1"}
    )
    assert (response.status_code, response.json()["balance_cents"]) == (201, 0)


def test_shortening_a_self_exclusion_is_a_409(channel, funded):
    _post(channel, f"/api/v1/players/{funded}/self-exclusion/", {"days": 90})
    response = _post(channel, f"/api/v1/players/{funded}/self-exclusion/", {"days": 7})
    assert (response.status_code, response.json()["code"]) == (409, "self_exclusion_cannot_shorten")


def test_self_exclusion_needs_days_or_permanent(channel, funded):
    assert _post(channel, f"/api/v1/players/{funded}/self-exclusion/", {}).status_code == 400


def test_prize_over_the_cap_reports_the_pending_bank_payout(channel, funded):
    from players.models import Channel

    Channel.objects.filter(code="test").update(prize_limit_cents=20_000_00)  # within the channel's limit
    body = _post(
        channel, f"/api/v1/players/{funded}/prizes/", {"amount_cents": 20_000_00, "reference": "win"}
    ).json()
    assert (body["balance_cents"], body["pending_payout"]["amount_cents"]) == (20_000_00, 100_00)


def test_ledger_lists_the_entries_newest_first(channel, funded):
    _post(channel, f"/api/v1/players/{funded}/withdrawals/", {"amount_cents": 1_00, "reference": "w1"})
    body = channel.get(f"/api/v1/players/{funded}/ledger/").json()
    assert [e["reference"] for e in body["results"]] == ["w1", "dep-0"]


def test_unknown_player_is_a_404_with_a_code(channel, db):
    response = channel.get("/api/v1/players/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_staff_role_without_the_channel_permission_cannot_deposit(api_client_for, funded):
    response = _post(
        api_client_for(roles.OPERATOR),
        f"/api/v1/players/{funded}/deposits/",
        {"amount_cents": 1_00, "reference": "x"},
    )
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")


def test_auditor_can_read_a_players_status(api_client_for, funded):
    assert api_client_for(roles.AUDITOR).get(f"/api/v1/players/{funded}/").status_code == 200


def test_a_player_goes_from_registration_to_refusal_through_the_api(channel):
    """The issue's "done when": registered, verified, funded, plays, reminded, self-excludes, refused."""
    steps = []
    player = _post(channel, "/api/v1/players/", REGISTRATION)
    pid = player.json()["id"]
    steps.append(player.status_code)
    steps.append(
        _post(
            channel, f"/api/v1/players/{pid}/verification/", {"result": "verified", "method": "bank_id"}
        ).status_code
    )
    steps.append(
        _post(
            channel, f"/api/v1/players/{pid}/deposits/", {"amount_cents": 50_00, "reference": "d1"}
        ).status_code
    )
    steps.append(
        _post(
            channel,
            f"/api/v1/players/{pid}/limits/",
            {"kind": "loss", "period": "day", "amount_cents": 20_00},
        ).status_code
    )
    session = _post(channel, f"/api/v1/players/{pid}/sessions/")
    sid = session.json()["id"]
    steps.append(session.status_code)
    steps.append(_stake(channel, pid, sid, "s1", 15_00).status_code)
    steps.append(_stake(channel, pid, sid, "s2", 10_00).json()["code"])  # loss limit
    _let_15_minutes_pass(sid)
    steps.append(_stake(channel, pid, sid, "s3", 1_00).json()["code"])
    steps.append(_post(channel, f"/api/v1/play-sessions/{sid}/reminder/", {"choice": "continue"}).status_code)
    steps.append(_stake(channel, pid, sid, "s4", 1_00).status_code)
    steps.append(_post(channel, f"/api/v1/players/{pid}/self-exclusion/", {"days": 180}).status_code)
    steps.append(_post(channel, f"/api/v1/players/{pid}/sessions/").json()["code"])
    steps.append(
        _post(channel, f"/api/v1/players/{pid}/deposits/", {"amount_cents": 5_00, "reference": "d2"}).json()[
            "code"
        ]
    )
    steps.append(GameAccount.objects.get(player_id=pid).balance_cents)
    assert steps == [
        201,
        200,
        201,
        201,
        201,
        201,
        "loss_limit",
        "reminder_due",
        200,
        201,
        201,
        "self_excluded",
        "self_excluded",
        34_00,
    ]


def test_player_status_shows_a_reminder_due_before_the_session_was_read(channel, funded, session_id):
    _let_15_minutes_pass(session_id)
    assert channel.get(f"/api/v1/players/{funded}/").json()["open_session"]["reminder_due"] is True
