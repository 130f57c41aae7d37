"""The draw lifecycle: every transition, its audit event, the four-eyes rules and the refusals."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from compliance.models import AuditEvent
from lottery.models import (
    Draw,
    DrawResult,
    DrawState,
    Game,
    ResultStatus,
    RunState,
    SettlementRun,
    WagerRefund,
)
from lottery.services import (
    DrawInputError,
    DrawStateError,
    FourEyesError,
    close_due_draws,
    draw_cancel,
    draw_close_sales,
    draw_open_sales,
    draw_schedule,
    draw_set_jackpot,
    result_confirm,
    result_enter,
    result_reject,
)
from tests.factories import DrawFactory
from tests.lottery.support import add_line

LOTTO = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


def _times(hours_from_now: float = 24):
    close = timezone.now() + dt.timedelta(hours=hours_from_now)
    return {"sales_open_at": close - dt.timedelta(days=6), "sales_close_at": close, "draw_at": close + dt.timedelta(minutes=30)}


def _entered(draw, user):
    draw_close_sales(actor="system:test", draw=draw)
    return result_enter(actor=user, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W. Itness")


# -- scheduling ----------------------------------------------------------------------------------

def test_a_scheduled_draw_is_planned_with_the_rule_version_in_force(db, enterer):
    draw = draw_schedule(actor=enterer, game="lotto", number=1, **_times())
    assert (draw.state, draw.ruleset.game) == (DrawState.PLANNED, "lotto")


def test_scheduling_is_audited(db, enterer):
    draw = draw_schedule(actor=enterer, game="lotto", number=1, **_times())
    assert AuditEvent.objects.filter(action="lottery.draw_scheduled", object_id=str(draw.pk)).exists()


def test_a_game_without_a_jackpot_class_refuses_a_jackpot_when_scheduled(db, enterer):
    with pytest.raises(DrawInputError, match="Keno has no jackpot"):
        draw_schedule(actor=enterer, game="keno", number=1, jackpot_cents=100_000_00, **_times())


def test_a_game_without_a_jackpot_class_refuses_a_jackpot_later(db, enterer):
    draw = draw_schedule(actor=enterer, game="keno", number=1, **_times())
    with pytest.raises(DrawInputError, match="Keno has no jackpot"):
        draw_set_jackpot(actor=enterer, draw=draw, jackpot_cents=100_000_00)


def test_the_draw_page_offers_the_jackpot_only_to_games_that_have_one(db, staff_client):
    client = staff_client("Operator")
    keno = draw_schedule(actor=client.user, game="keno", number=1, **_times())
    lotto = draw_schedule(actor=client.user, game="lotto", number=1, **_times())
    pages = [client.get(f"/lottery/draws/{d.pk}/").content.decode() for d in (keno, lotto)]
    assert ["Record the jackpot" in page for page in pages] == [False, True]


def test_a_draw_number_is_unique_per_game(db, enterer):
    draw_schedule(actor=enterer, game="lotto", number=1, **_times())
    with pytest.raises(DrawInputError, match="already exists"):
        draw_schedule(actor=enterer, game="lotto", number=1, **_times(48))


def test_sales_must_close_before_the_draw(db, enterer):
    times = _times()
    times["draw_at"] = times["sales_close_at"] - dt.timedelta(minutes=1)
    with pytest.raises(DrawInputError, match="close no later than the draw"):
        draw_schedule(actor=enterer, game="lotto", number=1, **times)


def test_an_addon_draw_is_linked_to_the_main_draw_closing_at_the_same_time(db, enterer):
    times = _times()
    lotto = draw_schedule(actor=enterer, game="lotto", number=1, **times)
    jokeri = draw_schedule(actor=enterer, game="jokeri", number=1, **times)
    assert jokeri.main_draw == lotto


def test_a_main_draw_scheduled_later_adopts_the_addon_draw_closing_with_it(db, enterer):
    times = _times()
    jokeri = draw_schedule(actor=enterer, game="jokeri", number=1, **times)
    lotto = draw_schedule(actor=enterer, game="lotto", number=1, **times)
    assert Draw.objects.get(pk=jokeri.pk).main_draw == lotto


def test_an_addon_draw_cannot_close_at_another_time_than_its_main_draw(db, enterer):
    lotto = draw_schedule(actor=enterer, game="lotto", number=1, **_times())
    with pytest.raises(DrawInputError, match="same time"):
        draw_schedule(actor=enterer, game="jokeri", number=1, main_draw=lotto, **_times(30))


def test_games_know_their_addons(db):
    assert set(Game.objects.get(code="lotto").addons.values_list("code", flat=True)) == {"jokeri", "lomatonni"}


# -- sales ---------------------------------------------------------------------------------------

def test_sales_open_once_their_time_has_come(db, enterer):
    draw = DrawFactory(state="planned", sales_close_at=timezone.now() + dt.timedelta(hours=1),
                       draw_at=timezone.now() + dt.timedelta(hours=2))
    assert draw_open_sales(actor=enterer, draw=draw).state == DrawState.OPEN


def test_sales_do_not_open_early(db, enterer):
    draw = draw_schedule(actor=enterer, game="lotto", number=1, **_times(24 * 10))
    with pytest.raises(DrawStateError, match="not before"):
        draw_open_sales(actor=enterer, draw=draw)


def test_sales_do_not_close_before_the_close_time(db, enterer):
    draw = DrawFactory(sales_close_at=timezone.now() + dt.timedelta(hours=1), draw_at=timezone.now() + dt.timedelta(hours=2))
    with pytest.raises(DrawStateError, match="not before"):
        draw_close_sales(actor=enterer, draw=draw)


def test_the_clock_closes_draws_whose_sales_have_ended(db):
    draw = DrawFactory()
    close_due_draws(actor="system:test")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED


def test_the_clock_opens_draws_whose_sales_have_started(db):
    draw = DrawFactory(state="planned", sales_close_at=timezone.now() + dt.timedelta(hours=1),
                       draw_at=timezone.now() + dt.timedelta(hours=2))
    close_due_draws(actor="system:test")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.OPEN


def test_the_clock_running_twice_closes_once(db):
    DrawFactory()
    close_due_draws(actor="system:test")
    close_due_draws(actor="system:test")
    assert AuditEvent.objects.filter(action="lottery.sales_closed").count() == 1


def test_closing_sales_is_audited_with_the_state_change(db):
    draw = DrawFactory()
    draw_close_sales(actor="system:test", draw=draw)
    event = AuditEvent.objects.get(action="lottery.sales_closed")
    assert (event.before, event.after) == ({"state": "open"}, {"state": "closed"})


def test_the_sales_clock_is_a_beat_schedule(db):
    from django_celery_beat.models import PeriodicTask

    from compliance.schedules import sync_schedules

    sync_schedules()
    assert PeriodicTask.objects.filter(task="lottery.tasks.close_due_draws", crontab__minute="*").exists()


# -- results, four eyes --------------------------------------------------------------------------

def test_a_result_cannot_be_entered_while_sales_are_open(db, enterer):
    draw = DrawFactory(jackpot_cents=1)
    with pytest.raises(DrawStateError, match="is open"):
        result_enter(actor=enterer, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W")


def test_a_result_cannot_be_entered_before_the_draw_time(db, enterer):
    draw = DrawFactory(state="closed", draw_at=timezone.now() + dt.timedelta(hours=1))
    with pytest.raises(DrawStateError, match="enter its result after that"):
        result_enter(actor=enterer, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W")


def test_an_invalid_result_is_refused_with_the_engines_reason(db, enterer):
    draw = DrawFactory(state="closed")
    with pytest.raises(DrawInputError, match="duplicated"):
        result_enter(actor=enterer, draw=draw, numbers={**LOTTO, "additional": 7}, draw_method="device", witnesses="W")


def test_the_draw_method_and_witnesses_are_recorded(db, enterer):
    draw = DrawFactory()
    _entered(draw, enterer)
    draw.refresh_from_db()
    assert (draw.draw_method, draw.witnesses) == ("device", "W. Itness")


def test_witnesses_are_required(db, enterer):
    draw = DrawFactory(state="closed")
    with pytest.raises(DrawInputError, match="witnesses"):
        result_enter(actor=enterer, draw=draw, numbers=LOTTO, draw_method="manual", witnesses=" ")


def test_entering_a_result_moves_the_draw_to_result_entered(db, enterer):
    draw = DrawFactory()
    _entered(draw, enterer)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.RESULT_ENTERED


def test_the_same_user_cannot_confirm_the_result_they_entered(db, enterer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    with pytest.raises(FourEyesError, match="different user"):
        result_confirm(actor=enterer, draw=draw)


def test_a_job_cannot_confirm_a_result(db, enterer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    with pytest.raises(FourEyesError, match="signed-in staff member"):
        result_confirm(actor="system:test", draw=draw)


def test_a_second_user_confirms_the_result(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    result = result_confirm(actor=confirmer, draw=draw)
    assert (result.status, result.confirmed_by, Draw.objects.get(pk=draw.pk).state) == (
        ResultStatus.CONFIRMED, confirmer, DrawState.RESULT_CONFIRMED)


def test_confirming_queues_settlement_version_one(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    result_confirm(actor=confirmer, draw=draw)
    assert list(SettlementRun.objects.filter(draw=draw).values_list("version", "state")) == [(1, RunState.PENDING)]


def test_confirming_sends_the_run_to_a_worker_after_commit(db, enterer, confirmer, django_capture_on_commit_callbacks, eager_tasks):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(actor=confirmer, draw=draw)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SETTLED


def test_the_confirmation_names_the_confirmer_as_approver(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    result_confirm(actor=confirmer, draw=draw)
    assert AuditEvent.objects.get(action="lottery.result_confirmed").approver == confirmer


def test_a_jackpot_game_needs_its_jackpot_before_confirmation(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    with pytest.raises(DrawStateError, match="jackpot"):
        result_confirm(actor=confirmer, draw=draw)


def test_the_jackpot_can_be_set_until_the_result_is_confirmed(db, enterer):
    draw = DrawFactory()
    _entered(draw, enterer)
    assert draw_set_jackpot(actor=enterer, draw=draw, jackpot_cents=2_000_000_00).jackpot_cents == 2_000_000_00


def test_a_result_cannot_be_confirmed_twice(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    result_confirm(actor=confirmer, draw=draw)
    with pytest.raises(DrawStateError, match="result confirmed"):
        result_confirm(actor=confirmer, draw=draw)


def test_a_rejected_result_sends_the_draw_back_to_closed(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    result_reject(actor=confirmer, draw=draw, reason="typo")
    assert (Draw.objects.get(pk=draw.pk).state, DrawResult.objects.get(draw=draw).status) == (
        DrawState.CLOSED, ResultStatus.REJECTED)


def test_a_new_entry_after_a_rejection_is_the_next_version(db, enterer, confirmer):
    draw = DrawFactory()
    _entered(draw, enterer)
    result_reject(actor=confirmer, draw=draw)
    again = result_enter(actor=confirmer, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W")
    assert again.version == 2


def test_the_database_refuses_a_result_confirmed_by_its_enterer(db, enterer):
    from django.db import IntegrityError, transaction

    draw = DrawFactory()
    result = _entered(draw, enterer)
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawResult.objects.filter(pk=result.pk).update(status="confirmed", confirmed_by=enterer)


def test_a_keno_result_without_its_kunkku_number_is_refused(db, enterer):
    draw = DrawFactory(game_code="keno", state="closed")
    with pytest.raises(DrawInputError, match="the Kunkku number is required"):
        result_enter(actor=enterer, draw=draw, numbers={"numbers": list(range(1, 21))}, draw_method="system", witnesses="W")


# -- cancellation --------------------------------------------------------------------------------

def test_a_cancelled_draw_owes_back_every_stake(db, enterer):
    draw = DrawFactory()
    add_line(draw, [1, 2, 3, 4, 5, 6, 7], plus=3)
    add_line(draw, [1, 2, 3, 4, 5, 6, 8])
    draw_cancel(actor=enterer, draw=draw, reason="draw device broken")
    assert sorted(WagerRefund.objects.filter(draw=draw).values_list("amount_cents", flat=True)) == [100, 150]


def test_cancelling_is_a_significant_event(db, enterer):
    draw = DrawFactory()
    draw_cancel(actor=enterer, draw=draw, reason="draw device broken")
    assert AuditEvent.objects.get(action="lottery.draw_cancelled").significant is True


def test_cancelling_needs_a_reason(db, enterer):
    with pytest.raises(DrawInputError, match="reason"):
        draw_cancel(actor=enterer, draw=DrawFactory(), reason="")


def test_a_confirmed_draw_cannot_be_cancelled(db, enterer, confirmer):
    draw = DrawFactory(jackpot_cents=1)
    _entered(draw, enterer)
    result_confirm(actor=confirmer, draw=draw)
    with pytest.raises(DrawStateError, match="cancelling"):
        draw_cancel(actor=enterer, draw=draw, reason="too late")


def test_a_cancelled_draw_passes_its_rollovers_on(db, enterer):
    draw = DrawFactory(rollover_in={"2": 12345})
    following = DrawFactory(state="planned", draw_at=draw.draw_at + dt.timedelta(days=7),
                            sales_open_at=draw.draw_at, sales_close_at=draw.draw_at + dt.timedelta(days=6))
    draw_cancel(actor=enterer, draw=draw, reason="no draw possible")
    assert Draw.objects.get(pk=following.pk).rollover_in == {"2": 12345}


def test_a_jackpot_above_the_approval_amount_waits_for_a_second_person(make_staff, settings):
    from compliance import roles
    from compliance.approvals import approval_decide
    from compliance.models import Approval
    from lottery import services
    from tests.factories import DrawFactory

    settings.LOTTERY_JACKPOT_APPROVAL_CENTS = 1_000_000_00
    draw = DrawFactory(state="open")
    services.draw_set_jackpot(actor=make_staff(roles.OPERATOR), draw=draw, jackpot_cents=5_000_000_00)
    draw.refresh_from_db()
    pending = Approval.objects.get(kind="lottery.jackpot")
    assert draw.jackpot_cents != 5_000_000_00
    approval_decide(actor=make_staff(roles.DRAW_SUPERVISOR), approval=pending, approve=True)
    draw.refresh_from_db()
    assert draw.jackpot_cents == 5_000_000_00
