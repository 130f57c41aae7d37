"""Play sessions and the time reminder of PR §1 (worked example W22)."""

from __future__ import annotations

import datetime as dt

import pytest

from players import services
from players.errors import Conflict, InvalidRequest, Refused
from players.models import PlaySession, SessionReminder

from .conftest import ACTOR, helsinki, ref

MIN = dt.timedelta(minutes=1)
START = helsinki("2026-01-15 18:00")


def _at(hhmm: str) -> dt.datetime:
    return helsinki(f"2026-01-15 {hhmm}")


@pytest.fixture
def session(player):
    return services.session_start(actor=ACTOR, player=player, now=START)


def _stake(session, now, amount=1_00):
    return services.account_stake(
        actor=ACTOR,
        account=session.player.account,
        amount_cents=amount,
        reference=ref(),
        session=session,
        now=now,
    )


def _continue(session, now, **kw):
    return services.session_answer_reminder(actor=ACTOR, session=session, choice="continue", now=now, **kw)


def test_first_reminder_is_due_15_minutes_after_the_start(session):
    assert session.next_reminder_at == _at("18:15")


def test_stake_before_the_reminder_is_allowed(session):
    assert _stake(session, _at("18:14")).entry.amount_cents == -1_00


def test_stake_is_refused_while_a_reminder_waits_for_an_answer(session):
    with pytest.raises(Refused) as exc:
        _stake(session, _at("18:15"))
    assert exc.value.code == "reminder_due"


def test_refused_stake_changes_no_balance(session):
    balance = session.player.account.balance_cents
    with pytest.raises(Refused):
        _stake(session, _at("18:16"))
    session.player.account.refresh_from_db()
    assert session.player.account.balance_cents == balance


def test_reminder_states_the_time_played(session):
    with pytest.raises(Refused):
        _stake(session, _at("18:16"))
    assert SessionReminder.objects.get(session=session).played_seconds == 15 * 60


def test_reminder_is_recorded_once_however_often_it_is_seen(session):
    for minute in ("18:15", "18:16", "18:17"):
        services.session_refresh(actor=ACTOR, session=session, now=_at(minute))
    assert SessionReminder.objects.filter(session=session).count() == 1


def test_continuing_unblocks_play(session):
    _continue(session, _at("18:15"))
    assert _stake(session, _at("18:16")).entry.pk


def test_next_reminder_is_measured_from_the_answer(session):
    services.session_refresh(actor=ACTOR, session=session, now=_at("18:15"))
    assert _continue(session, _at("18:17")).next_reminder_at == _at("18:32")


def test_reminders_answered_at_once_come_every_15_minutes(session):
    due = []
    for minute in ("18:15", "18:30", "18:45"):
        services.session_refresh(actor=ACTOR, session=session, now=_at(minute))
        due.append(_continue(session, _at(minute)).next_reminder_at)
    assert due == [_at("18:30"), _at("18:45"), _at("19:00")]


def test_choice_is_recorded(session):
    _continue(session, _at("18:20"))
    reminder = SessionReminder.objects.get(session=session)
    assert (reminder.choice, reminder.answered_at, reminder.due_at) == (
        "continue",
        _at("18:20"),
        _at("18:15"),
    )


def test_logging_out_at_a_reminder_ends_the_session(session):
    services.session_answer_reminder(actor=ACTOR, session=session, choice="logout", now=_at("18:16"))
    session.refresh_from_db()
    assert (session.ended_at, session.end_reason) == (_at("18:16"), "reminder_logout")


def test_no_stake_after_logging_out_at_a_reminder(session):
    services.session_answer_reminder(actor=ACTOR, session=session, choice="logout", now=_at("18:16"))
    with pytest.raises(Refused) as exc:
        _stake(session, _at("18:17"))
    assert exc.value.code == "session_closed"


def test_answering_when_no_reminder_is_due_is_a_conflict(session):
    with pytest.raises(Conflict) as exc:
        _continue(session, _at("18:10"))
    assert exc.value.code == "no_reminder_due"


def test_interval_cannot_be_changed_before_the_first_reminder(session):
    with pytest.raises(InvalidRequest) as exc:
        services.session_set_interval(actor=ACTOR, session=session, minutes=10, now=_at("18:05"))
    assert exc.value.code == "interval_before_first_reminder"


def test_interval_can_be_shortened_when_answering_the_first_reminder(session):
    assert _continue(session, _at("18:15"), interval_minutes=10).next_reminder_at == _at("18:25")


def test_interval_cannot_be_lengthened_past_15_minutes(session):
    with pytest.raises(InvalidRequest) as exc:
        _continue(session, _at("18:15"), interval_minutes=20)
    assert exc.value.code == "interval_too_long"


def test_refused_interval_leaves_the_reminder_unanswered(session):
    with pytest.raises(InvalidRequest):
        _continue(session, _at("18:15"), interval_minutes=20)
    assert SessionReminder.objects.get(session=session).answered_at is None


def test_shortened_interval_can_be_restored_up_to_15_minutes(session):
    _continue(session, _at("18:15"), interval_minutes=5)
    assert (
        services.session_set_interval(
            actor=ACTOR, session=session, minutes=15, now=_at("18:16")
        ).reminder_interval_seconds
        == 900
    )


def test_shortening_during_play_may_make_the_reminder_due_at_once(session):
    _continue(session, _at("18:15"))
    session = services.session_set_interval(actor=ACTOR, session=session, minutes=5, now=_at("18:21"))
    assert session.reminders.filter(answered_at__isnull=True).exists()


def test_database_refuses_an_interval_above_15_minutes(session):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        PlaySession.objects.filter(pk=session.pk).update(reminder_interval_seconds=901)


def test_new_interval_lasts_only_for_its_session(session):
    _continue(session, _at("18:15"), interval_minutes=5)
    services.session_end(actor=ACTOR, session=session, now=_at("18:16"))
    assert (
        services.session_start(actor=ACTOR, player=session.player, now=_at("18:17")).reminder_interval_seconds
        == 900
    )


def test_starting_a_session_ends_the_open_one(session):
    services.session_start(actor=ACTOR, player=session.player, now=_at("18:05"))
    session.refresh_from_db()
    assert session.end_reason == "replaced"


def test_idle_session_ends_and_refuses_stakes(session):
    with pytest.raises(Refused) as exc:
        _stake(session, _at("18:00") + 31 * MIN)
    session.refresh_from_db()
    assert (exc.value.code, session.end_reason, session.ended_at) == ("session_closed", "idle", _at("18:30"))


def test_stakes_keep_the_session_alive(session):
    for minute in ("18:10", "18:14"):
        _stake(session, _at(minute))
    _continue(session, _at("18:20"))
    assert _stake(session, _at("18:34")).entry.pk
