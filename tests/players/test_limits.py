"""Limits: the operator's mandatory ones and the player's own; lowering at once, raising after the
cooling-off period; day, week and month windows in Helsinki time."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance.models import AuditEvent
from players import selectors, services
from players.errors import InvalidRequest, Refused
from players.models import PlayerLimit
from tests.factories import OperatorLimitFactory

from .conftest import ACTOR, helsinki, ref

DAY = dt.timedelta(days=1)


def _limit(player, kind="deposit", period="day", now=None, **value):
    return services.limit_set(actor=ACTOR, player=player, kind=kind, period=period, now=now, **value)


def _in_force(player, kind="deposit", period="day", now=None):
    now = now or helsinki("2026-01-15 12:00")
    row = selectors.current_player_limit(player, kind, period, now)
    return row.value if row else None


def test_first_limit_takes_effect_at_once(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now)
    assert _in_force(player, now=now) == 100_00


def test_lowering_takes_effect_at_once(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=50_00, now=now)
    assert _in_force(player, now=now) == 50_00


def test_raising_waits_for_the_cooling_off_period(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=300_00, now=now)
    assert _in_force(player, now=now + dt.timedelta(hours=23, minutes=59)) == 100_00


def test_raising_takes_effect_after_the_cooling_off_period(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=300_00, now=now)
    assert _in_force(player, now=now + DAY) == 300_00


def test_cooling_off_period_follows_the_setting(player, settings):
    settings.PLAYER_LIMIT_COOLING_OFF_HOURS = 72
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    row = _limit(player, amount_cents=300_00, now=now)
    assert row.effective_from == now + dt.timedelta(hours=72)


def test_removing_a_limit_waits_like_raising(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=None, now=now)
    assert (_in_force(player, now=now), _in_force(player, now=now + DAY)) == (100_00, None)


def test_lowering_replaces_a_raise_still_waiting(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=300_00, now=now)
    _limit(player, amount_cents=80_00, now=now + dt.timedelta(hours=1))
    assert _in_force(player, now=now + 2 * DAY) == 80_00


def test_limit_history_keeps_every_request(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - DAY)
    _limit(player, amount_cents=300_00, now=now)
    _limit(player, amount_cents=80_00, now=now + dt.timedelta(hours=1))
    assert list(player.limits.order_by("pk").values_list("amount_cents", "superseded_at")) == [
        (100_00, None),
        (300_00, now + dt.timedelta(hours=1)),
        (80_00, None),
    ]


def test_limit_change_is_audited(player):
    _limit(player, amount_cents=100_00)
    assert AuditEvent.objects.filter(action="players.limit_set", object_id=str(player.pk)).exists()


def test_time_limit_is_given_in_minutes(player):
    with pytest.raises(InvalidRequest):
        _limit(player, kind="time", amount_cents=100)


def test_daily_deposit_limit_refuses_with_what_remains(player):
    now = helsinki("2026-01-15 12:00")
    _limit(player, amount_cents=100_00, now=now - dt.timedelta(hours=1))
    services.account_deposit(
        actor=ACTOR, account=player.account, amount_cents=70_00, reference=ref(), now=now
    )
    with pytest.raises(Refused) as exc:
        services.account_deposit(
            actor=ACTOR, account=player.account, amount_cents=40_00, reference=ref(), now=now
        )
    assert (exc.value.code, exc.value.extra["remaining_cents"]) == ("deposit_limit", 30_00)


def test_deposit_window_restarts_at_helsinki_midnight(player):
    # 23:50 and 00:10 in Helsinki are both on 15 January in UTC: a UTC window would still refuse.
    _limit(player, amount_cents=100_00, now=helsinki("2026-01-14 12:00"))
    services.account_deposit(
        actor=ACTOR,
        account=player.account,
        amount_cents=90_00,
        reference=ref(),
        now=helsinki("2026-01-15 23:50"),
    )
    services.account_deposit(
        actor=ACTOR,
        account=player.account,
        amount_cents=90_00,
        reference=ref(),
        now=helsinki("2026-01-16 00:10"),
    )
    assert player.account.entries.filter(kind="deposit").count() == 3  # with the fixture's funding


def test_deposit_just_before_helsinki_midnight_counts_for_that_day(player):
    _limit(player, amount_cents=100_00, now=helsinki("2026-01-14 12:00"))
    services.account_deposit(
        actor=ACTOR,
        account=player.account,
        amount_cents=90_00,
        reference=ref(),
        now=helsinki("2026-01-15 00:05"),
    )
    with pytest.raises(Refused):
        services.account_deposit(
            actor=ACTOR,
            account=player.account,
            amount_cents=20_00,
            reference=ref(),
            now=helsinki("2026-01-15 23:55"),
        )


def test_weekly_limit_counts_the_whole_iso_week(player):
    _limit(player, period="week", amount_cents=100_00, now=helsinki("2026-01-11 12:00"))
    services.account_deposit(
        actor=ACTOR,
        account=player.account,
        amount_cents=60_00,
        reference=ref(),
        now=helsinki("2026-01-12 09:00"),
    )
    with pytest.raises(Refused):
        services.account_deposit(
            actor=ACTOR,
            account=player.account,
            amount_cents=60_00,
            reference=ref(),
            now=helsinki("2026-01-18 23:00"),
        )


def test_loss_is_stakes_minus_prizes(make_player):
    player = make_player(balance_cents=500_00)
    now = helsinki("2026-01-15 12:00")
    _limit(player, kind="loss", amount_cents=50_00, now=now - DAY)
    session = services.session_start(actor=ACTOR, player=player, now=now)
    stake = {"actor": ACTOR, "account": player.account, "session": session}
    services.account_stake(**stake, amount_cents=40_00, reference=ref(), now=now)
    services.account_prize(**stake, amount_cents=30_00, reference=ref(), now=now)
    services.account_stake(**stake, amount_cents=35_00, reference=ref(), now=now)  # loss now 45
    with pytest.raises(Refused) as exc:
        services.account_stake(**stake, amount_cents=10_00, reference=ref(), now=now)
    assert (exc.value.code, exc.value.extra["remaining_cents"]) == ("loss_limit", 5_00)


def test_operator_mandatory_limit_applies_without_a_limit_of_the_player(make_player):
    player = make_player(balance_cents=1_000_00)
    OperatorLimitFactory(kind="loss", period="day", amount_cents=500_00)
    now = helsinki("2026-01-15 12:00")
    session = services.session_start(actor=ACTOR, player=player, now=now)
    with pytest.raises(Refused) as exc:
        services.account_stake(
            actor=ACTOR,
            account=player.account,
            amount_cents=500_01,
            reference=ref(),
            session=session,
            now=now,
        )
    assert exc.value.code == "loss_limit"


def test_tighter_of_operator_and_player_limit_is_in_force(player):
    OperatorLimitFactory(kind="deposit", period="month", amount_cents=1_000_00)
    now = helsinki("2026-01-15 12:00")
    _limit(player, period="month", amount_cents=2_000_00, now=now)
    limit = next(
        x for x in selectors.effective_limits(player, now) if (x.kind, x.period) == ("deposit", "month")
    )
    assert limit.value == 1_000_00


def test_inactive_operator_limit_does_not_apply(player):
    OperatorLimitFactory(kind="deposit", period="day", amount_cents=1_00, active=False)
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=50_00, reference=ref())
    assert player.account.entries.count() == 2


def test_play_time_limit_refuses_login_when_used_up(player):
    start = helsinki("2026-01-15 10:00")
    _limit(player, kind="time", minutes=30, now=start - DAY)
    session = services.session_start(actor=ACTOR, player=player, now=start)
    services.session_end(actor=ACTOR, session=session, now=start + dt.timedelta(minutes=30))
    with pytest.raises(Refused) as exc:
        services.session_start(actor=ACTOR, player=player, now=start + dt.timedelta(minutes=40))
    assert exc.value.code == "time_limit"


def test_play_time_limit_refuses_stakes_in_the_session_that_uses_it_up(player):
    start = helsinki("2026-01-15 10:00")
    _limit(player, kind="time", minutes=10, now=start - DAY)
    session = services.session_start(actor=ACTOR, player=player, now=start)
    with pytest.raises(Refused) as exc:
        services.account_stake(
            actor=ACTOR,
            account=player.account,
            amount_cents=1_00,
            reference=ref(),
            session=session,
            now=start + dt.timedelta(minutes=11),
        )
    assert exc.value.code == "time_limit"


def test_session_across_midnight_counts_only_its_part_after_midnight(player, settings):
    settings.PLAYER_SESSION_IDLE_MINUTES = 240  # no activity in this test; keep the session open
    start = helsinki("2026-01-15 23:00")
    _limit(player, kind="time", minutes=30, now=start - DAY)
    session = services.session_start(actor=ACTOR, player=player, now=start)
    services.session_end(actor=ACTOR, session=session, now=helsinki("2026-01-16 00:20"))  # 60 + 20 minutes
    assert services.session_start(actor=ACTOR, player=player, now=helsinki("2026-01-16 00:30")).pk


def test_session_across_midnight_uses_up_the_new_day_too(player, settings):
    settings.PLAYER_SESSION_IDLE_MINUTES = 240
    start = helsinki("2026-01-15 23:00")
    _limit(player, kind="time", minutes=30, now=start - DAY)
    session = services.session_start(actor=ACTOR, player=player, now=start)
    services.session_end(actor=ACTOR, session=session, now=helsinki("2026-01-16 00:35"))
    with pytest.raises(Refused):
        services.session_start(actor=ACTOR, player=player, now=helsinki("2026-01-16 00:40"))


def test_limit_rows_are_history_not_updated(player):
    _limit(player, amount_cents=100_00)
    _limit(player, amount_cents=50_00)
    assert PlayerLimit.objects.filter(player=player).count() == 2
