"""The draw pipeline's jobs (compliance.jobs): settlement, payment and refunds survive a broker that is
down, a worker that dies and a connection that is cut, with no step by hand; "Retry payouts" pays
every due payout; the draw page shows a stalled job with its retry button for the roles that may."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import OperationalError
from django.utils import timezone

from compliance import jobs, roles
from compliance.models import Job
from lottery.models import Draw, DrawState, Payout, RunState, SettlementRun
from lottery.services import payouts_retry, settlement_approve
from lottery.services import settlement as settlement_service
from players.models import LedgerEntry
from tests.lottery.test_payouts import FOUR, THREE_PLUS, people, settled_round  # noqa: F401  (fixtures)


def _pay_job(draw):
    return Job.objects.filter(key=f"lottery.pay_draw:{draw.pk}").order_by("-pk").first()


def _paid_entries(draw) -> list[str]:
    refs = [f"lottery:{draw.pk}:{line}:v1" for line in Payout.objects.filter(draw=draw).values_list("line_id", flat=True)]
    return sorted(LedgerEntry.objects.filter(reference__in=refs).values_list("reference", flat=True))


def test_approving_while_the_broker_is_down_answers_at_once_and_pays_once_it_is_back(
        settled_round, people, staff_client, broker_down, django_capture_on_commit_callbacks):  # noqa: F811
    draw, _ = settled_round([FOUR, THREE_PLUS])
    client = staff_client(roles.DRAW_SUPERVISOR)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/lottery/draws/{draw.pk}/approve/", {"confirmed": "yes"})
    elapsed = time.monotonic() - started
    waiting = (Draw.objects.get(pk=draw.pk).state, _pay_job(draw).state,
               Payout.objects.filter(draw=draw, state=Payout.State.DUE).count())
    broker_down.up()
    jobs.dispatch()
    assert (response.status_code, elapsed < 5, waiting) == (302, True, (DrawState.APPROVED, Job.State.QUEUED, 2))
    assert (Draw.objects.get(pk=draw.pk).state, _pay_job(draw).state) == (DrawState.PAID, Job.State.DONE)


def test_the_draw_page_says_the_payment_waits_for_the_job_system(settled_round, people, staff_client,  # noqa: F811
                                                                  broker_down, django_capture_on_commit_callbacks):
    draw, _ = settled_round([FOUR])
    with django_capture_on_commit_callbacks(execute=True):
        settlement_approve(actor=people[2], draw=draw)
    Job.objects.update(not_before=timezone.now() - dt.timedelta(minutes=1))
    html = staff_client(roles.DRAW_SUPERVISOR).get(f"/lottery/draws/{draw.pk}/").content.decode()
    assert "the work starts when it is back" in html


def test_confirming_while_the_broker_is_down_answers_and_settles_once_it_is_back(
        open_draw, make_gambler, to_the_draw, people, staff_client, broker_down,  # noqa: F811
        django_capture_on_commit_callbacks):
    from lottery.services import draw_close_sales, result_enter, wager_place

    draw = open_draw()
    player, session = make_gambler(100_00)
    wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="W1",
                lines=[{"numbers": FOUR, "stake_cents": 100}])
    draw = to_the_draw(draw)
    draw_close_sales(actor="system:test", draw=draw)
    result_enter(actor=people[0], draw=draw, numbers={"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3},
                 draw_method="device", witnesses="W")
    client = staff_client(roles.DRAW_SUPERVISOR)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/lottery/draws/{draw.pk}/result/confirm/", {"confirmed": "yes"})
    run = SettlementRun.objects.get(draw=draw)
    waiting = (response.status_code, run.state, Job.objects.get(key=settlement_service.job_key(run.pk)).state)
    broker_down.up()
    jobs.dispatch()
    assert waiting == (302, RunState.PENDING, Job.State.QUEUED)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SETTLED


def test_a_payment_cut_half_way_pays_the_rest_exactly_once(settled_round, people, monkeypatch,  # noqa: F811
                                                           django_capture_on_commit_callbacks):
    import players.services as player_services

    draw, _ = settled_round([FOUR, FOUR, THREE_PLUS])
    real = player_services.account_prize
    calls = {"n": 0}

    def cut_on_the_second(**kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OperationalError("server closed the connection unexpectedly")
        return real(**kwargs)

    monkeypatch.setattr(player_services, "account_prize", cut_on_the_second)
    with django_capture_on_commit_callbacks(execute=True):
        settlement_approve(actor=people[2], draw=draw)
    job = _pay_job(draw)
    half = (job.state, Payout.objects.filter(draw=draw, state=Payout.State.PAID).count(), "OperationalError" in job.error)
    Job.objects.filter(pk=job.pk).update(not_before=timezone.now())  # the pause after a cut connection is over
    jobs.dispatch()
    assert half == (Job.State.QUEUED, 1, True)
    assert (_paid_entries(draw), Payout.objects.filter(draw=draw, state=Payout.State.PAID).count()) == (
        sorted(f"lottery:{draw.pk}:{line}:v1" for line in Payout.objects.filter(draw=draw).values_list("line_id", flat=True)),
        3)


def test_retry_payouts_pays_every_payout_left_due(settled_round, people, django_capture_on_commit_callbacks):  # noqa: F811
    draw, _ = settled_round([FOUR, THREE_PLUS])
    settlement_approve(actor=people[2], draw=draw)  # not committed: its payment job never ran
    Job.objects.filter(key=f"lottery.pay_draw:{draw.pk}").update(state=Job.State.FAILED)  # and is gone
    with django_capture_on_commit_callbacks(execute=True):
        sent = payouts_retry(actor=people[2], draw=draw)
    assert (sent, Payout.objects.filter(draw=draw, state=Payout.State.PAID).count(),
            Draw.objects.get(pk=draw.pk).state) == (2, 2, DrawState.PAID)


def test_retry_payouts_sends_the_failed_ones_with_the_due_ones(settled_round, people):  # noqa: F811
    draw, _ = settled_round([FOUR, THREE_PLUS, FOUR])
    settlement_approve(actor=people[2], draw=draw)
    first = Payout.objects.filter(draw=draw).order_by("pk").first()
    Payout.objects.filter(pk=first.pk).update(state=Payout.State.FAILED, error="no account")
    assert payouts_retry(actor=people[2], draw=draw) == 3


def _queued_run(confirm_result, open_draw, to_the_draw):
    """A draw with one winning line, its result confirmed: its settlement run and job are queued (the
    confirming transaction is the test's, so the job was not sent)."""
    from tests.lottery.support import add_line

    draw = open_draw()
    add_line(draw, FOUR)
    draw = to_the_draw(draw)
    return draw, confirm_result(draw, {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3})


def test_a_dead_workers_settlement_is_taken_back_and_finished(confirm_result, open_draw, to_the_draw, settings):
    draw, run = _queued_run(confirm_result, open_draw, to_the_draw)
    long_ago = timezone.now() - dt.timedelta(seconds=max(settings.JOBS_STALE_SECONDS,
                                                         settings.LOTTERY_SETTLEMENT_STALE_SECONDS) + 1)
    SettlementRun.objects.filter(pk=run.pk).update(state=RunState.RUNNING, claimed_by="dead", heartbeat_at=long_ago)
    Job.objects.filter(key=settlement_service.job_key(run.pk)).update(
        state=Job.State.RUNNING, worker="dead", attempts=1, heartbeat_at=long_ago)
    jobs.dispatch()
    assert (SettlementRun.objects.get(pk=run.pk).state, Draw.objects.get(pk=draw.pk).state) == (
        RunState.SETTLED, DrawState.SETTLED)


def test_a_settlement_another_live_worker_holds_makes_the_job_wait(confirm_result, open_draw, to_the_draw):
    draw, run = _queued_run(confirm_result, open_draw, to_the_draw)
    SettlementRun.objects.filter(pk=run.pk).update(state=RunState.RUNNING, claimed_by="alive",
                                                   heartbeat_at=timezone.now())
    jobs.dispatch()
    job = Job.objects.get(key=settlement_service.job_key(run.pk))
    assert (job.state, job.not_before > timezone.now(), SettlementRun.objects.get(pk=run.pk).claimed_by) == (
        Job.State.QUEUED, True, "alive")


def test_the_watchdog_gives_an_orphaned_run_a_job(confirm_result, open_draw, to_the_draw, settings):
    draw, run = _queued_run(confirm_result, open_draw, to_the_draw)
    Job.objects.all().delete()  # e.g. a run queued before jobs existed
    SettlementRun.objects.filter(pk=run.pk).update(
        created_at=timezone.now() - dt.timedelta(seconds=settings.LOTTERY_SETTLEMENT_STALE_SECONDS + 1))
    assert (settlement_service.watchdog(), Job.objects.filter(key=settlement_service.job_key(run.pk)).count()) == (
        [run.pk], 1)


@pytest.fixture
def stalled_settlement(confirm_result, open_draw, to_the_draw, settings):
    draw, run = _queued_run(confirm_result, open_draw, to_the_draw)
    long_ago = timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 10)
    SettlementRun.objects.filter(pk=run.pk).update(state=RunState.RUNNING, claimed_by="dead", heartbeat_at=long_ago)
    job = Job.objects.get(key=settlement_service.job_key(run.pk))
    Job.objects.filter(pk=job.pk).update(state=Job.State.RUNNING, worker="dead", attempts=1, heartbeat_at=long_ago)
    return draw, job


def test_the_draw_page_shows_a_stalled_settlement_with_a_retry_button(stalled_settlement, staff_client):
    draw, job = stalled_settlement
    html = staff_client(roles.DRAW_SUPERVISOR).get(f"/lottery/draws/{draw.pk}/").content.decode()
    assert "stalled since" in html and f'action="/compliance/jobs/{job.pk}/retry/"' in html


def test_the_draw_page_offers_no_settlement_retry_to_an_operator(stalled_settlement, staff_client):
    draw, job = stalled_settlement
    html = staff_client(roles.OPERATOR).get(f"/lottery/draws/{draw.pk}/").content.decode()
    assert "stalled since" in html and f"/compliance/jobs/{job.pk}/retry/" not in html


def test_the_progress_poll_reports_the_stall(stalled_settlement, staff_client):
    draw, _ = stalled_settlement
    data = staff_client(roles.OPERATOR).get(f"/lottery/draws/{draw.pk}/progress/").json()
    assert (data["job"]["stalled"], data["job"]["stalled_since"] is not None) == (True, True)


def test_the_retry_button_on_the_draw_page_finishes_the_settlement(stalled_settlement, staff_client, settings,
                                                                   django_capture_on_commit_callbacks):
    draw, job = stalled_settlement
    client = staff_client(roles.DRAW_SUPERVISOR)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/compliance/jobs/{job.pk}/retry/", {"next": f"/lottery/draws/{draw.pk}/"})
    assert (response.status_code, response.url, Draw.objects.get(pk=draw.pk).state) == (
        302, f"/lottery/draws/{draw.pk}/", DrawState.SETTLED)


def test_cancelling_while_the_broker_is_down_refunds_once_it_is_back(open_draw, make_gambler, people,  # noqa: F811
                                                                     broker_down, django_capture_on_commit_callbacks):
    from lottery.models import WagerRefund
    from lottery.services import draw_cancel, wager_place

    draw = open_draw()
    player, session = make_gambler(100_00)
    wager_place(actor="channel:web", draw=draw, player=player, session=session, reference="W1",
                lines=[{"numbers": FOUR, "stake_cents": 100}])
    with django_capture_on_commit_callbacks(execute=True):
        draw_cancel(actor=people[0], draw=draw, reason="device failure")
    waiting = WagerRefund.objects.get(draw=draw).state
    broker_down.up()
    jobs.dispatch()
    assert (waiting, WagerRefund.objects.get(draw=draw).state) == (WagerRefund.State.DUE, WagerRefund.State.PAID)
