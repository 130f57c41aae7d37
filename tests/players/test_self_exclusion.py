"""Self-exclusion: at once, for a period or permanently, never shortened; withdrawals stay open."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance.models import AuditEvent
from players import services
from players.errors import Conflict, InvalidRequest, Refused
from players.models import SelfExclusion

from .conftest import ACTOR, helsinki, ref

NOW = helsinki("2026-01-15 12:00")
DAY = dt.timedelta(days=1)


def _exclude(person, now=NOW, **period):
    return services.self_exclusion_start(actor=ACTOR, person=person, now=now, **period)


def test_self_exclusion_ends_the_open_session_at_once(player):
    session = services.session_start(actor=ACTOR, player=player, now=NOW)
    _exclude(player.person, days=30, now=NOW + dt.timedelta(minutes=3))
    session.refresh_from_db()
    assert (session.ended_at, session.end_reason) == (NOW + dt.timedelta(minutes=3), "self_exclusion")


def test_self_excluded_player_cannot_deposit(player):
    _exclude(player.person, days=30)
    with pytest.raises(Refused) as exc:
        services.account_deposit(
            actor=ACTOR, account=player.account, amount_cents=10_00, reference=ref(), now=NOW
        )
    assert exc.value.code == "self_excluded"


def test_self_excluded_player_cannot_log_in(player):
    _exclude(player.person, days=30)
    with pytest.raises(Refused) as exc:
        services.session_start(actor=ACTOR, player=player, now=NOW + DAY)
    assert exc.value.code == "self_excluded"


def test_self_excluded_player_cannot_stake_in_a_session_opened_before(player):
    session = services.session_start(actor=ACTOR, player=player, now=NOW - dt.timedelta(minutes=1))
    _exclude(player.person, days=30)
    with pytest.raises(Refused) as exc:
        services.account_stake(
            actor=ACTOR, account=player.account, amount_cents=1_00, reference=ref(), session=session, now=NOW
        )
    assert "self_excluded" in [r["code"] for r in exc.value.extra["reasons"]]


def test_self_excluded_player_can_still_withdraw(player):
    _exclude(player.person, days=30)
    services.account_withdraw(
        actor=ACTOR, account=player.account, amount_cents=100_00, reference=ref(), now=NOW
    )
    player.account.refresh_from_db()
    assert player.account.balance_cents == 0


def test_self_excluded_player_still_receives_a_prize_won_before(player):
    _exclude(player.person, days=30)
    services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=5_00, reference=ref(), now=NOW
    )
    player.account.refresh_from_db()
    assert player.account.balance_cents == 105_00


def test_self_exclusion_cannot_be_shortened(player):
    _exclude(player.person, days=90)
    with pytest.raises(Conflict) as exc:
        _exclude(player.person, days=30, now=NOW + DAY)
    assert exc.value.code == "self_exclusion_cannot_shorten"


def test_permanent_self_exclusion_cannot_become_a_period(player):
    _exclude(player.person, permanent=True)
    with pytest.raises(Conflict):
        _exclude(player.person, days=3650, now=NOW + DAY)


def test_self_exclusion_can_be_extended(player):
    _exclude(player.person, days=30)
    _exclude(player.person, days=90, now=NOW + DAY)
    with pytest.raises(Refused):
        services.session_start(actor=ACTOR, player=player, now=NOW + 60 * DAY)


def test_self_exclusion_can_be_made_permanent(player):
    _exclude(player.person, days=30)
    _exclude(player.person, permanent=True, now=NOW + DAY)
    with pytest.raises(Refused):
        services.session_start(actor=ACTOR, player=player, now=NOW + 400 * DAY)


def test_play_is_possible_again_after_the_period(player):
    _exclude(player.person, days=30)
    assert services.session_start(actor=ACTOR, player=player, now=NOW + 30 * DAY).pk


def test_self_exclusion_is_audited(player):
    exclusion = _exclude(player.person, days=30)
    assert AuditEvent.objects.filter(action="players.self_excluded", object_id=str(exclusion.pk)).exists()


def test_blocked_attempt_of_a_self_excluded_player_is_a_significant_event(player):
    _exclude(player.person, days=30)
    with pytest.raises(Refused):
        services.account_deposit(
            actor=ACTOR, account=player.account, amount_cents=10_00, reference=ref(), now=NOW
        )
    assert AuditEvent.objects.filter(
        action="screening.excluded_attempt", significant=True, object_id=str(player.person.pk)
    ).exists()


def test_refused_shortening_leaves_one_exclusion(player):
    _exclude(player.person, days=90)
    with pytest.raises(Conflict):
        _exclude(player.person, days=30, now=NOW + DAY)
    assert SelfExclusion.objects.count() == 1


@pytest.mark.parametrize("period", [{}, {"days": 0}, {"days": 5, "permanent": True}])
def test_period_must_be_days_or_permanent(player, period):
    with pytest.raises(InvalidRequest):
        _exclude(player.person, **period)
