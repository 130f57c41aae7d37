"""Durable jobs (compliance.jobs): the outbox, publishing after commit, the dispatcher, heartbeats,
reclaiming, retries by staff, and /healthz. Tasks run in-process here (no broker), exactly as a worker
runs them: through JobTask with the job's id."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import OperationalError, transaction
from django.utils import timezone

from compliance import jobs, roles
from compliance.models import AuditEvent, Job, ProcessHeartbeat
from compliance.tasks import report_generate

KIND = "compliance.tasks.report_generate"


@pytest.fixture
def calls(monkeypatch):
    """The report task's body replaced by a recorder: calls.append(report_id); `calls.fail` (an
    exception) is raised instead while set."""

    class Calls(list):
        fail: Exception | None = None

    recorded = Calls()

    def body(report_id):
        if recorded.fail is not None:
            raise recorded.fail
        recorded.append(report_id)
        return {"report": report_id}

    monkeypatch.setattr(report_generate, "run", body)
    return recorded


def _enqueue(key="compliance.report:1", report_id=1, actor="system:test"):
    return jobs.job_enqueue(kind=KIND, key=key, args={"report_id": report_id}, actor=actor)


def _age(job, **fields):
    """Move the job's times into the past (what the clock would do)."""
    Job.objects.filter(pk=job.pk).update(**fields)


def test_a_job_enqueued_in_a_transaction_that_rolls_back_is_neither_recorded_nor_sent(
        db, calls, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            _enqueue()
            raise RuntimeError("the change fails")
    assert (Job.objects.count(), callbacks, calls) == (0, [], [])


def test_a_job_runs_once_its_transaction_commits_and_is_marked_done(db, calls, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue(report_id=7)
    job.refresh_from_db()
    assert (calls, job.state, job.attempts, job.result) == ([7], Job.State.DONE, 1, {"report": 7})


def test_asking_again_for_an_unfinished_job_attaches_to_it(db, calls):
    first, second = _enqueue(), _enqueue()
    assert (first.pk == second.pk, Job.objects.count()) == (True, 1)


def test_asking_again_while_it_runs_runs_it_once_more(db, calls, django_capture_on_commit_callbacks):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="w1", heartbeat_at=timezone.now())
    _enqueue()
    with django_capture_on_commit_callbacks(execute=True):
        jobs._done(job.pk, "w1", {"first": True})  # the first run ends after the second request
    job.refresh_from_db()
    assert (job.state, calls) == (Job.State.DONE, [1])


def test_a_finished_job_does_not_stop_new_work_under_its_key(db, calls, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _enqueue()
    with django_capture_on_commit_callbacks(execute=True):
        _enqueue()
    assert (Job.objects.filter(state=Job.State.DONE).count(), len(calls)) == (2, 2)


def test_the_broker_being_down_leaves_the_job_queued_and_the_caller_unharmed(
        db, calls, broker_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue()
    job.refresh_from_db()
    assert (job.state, job.sends, broker_down.tries, calls) == (Job.State.QUEUED, 0, 1, [])


def test_the_dispatcher_sends_a_queued_job_once_the_broker_is_back(db, calls, broker_down,
                                                                    django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue()
    assert jobs.dispatch()["errors"] == 1  # still down: it stops at the first refusal
    broker_down.up()
    counts = jobs.dispatch()
    job.refresh_from_db()
    assert (counts["sent"], job.state, calls) == (1, Job.State.DONE, [1])


def test_a_running_job_whose_heartbeat_is_stale_is_taken_back_and_run_again(db, calls, settings):
    job = _enqueue()
    stale = timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1)
    _age(job, state=Job.State.RUNNING, worker="dead-worker", heartbeat_at=stale, attempts=1)
    counts = jobs.dispatch()
    job.refresh_from_db()
    assert (counts["reclaimed"], job.state, job.attempts, calls) == (1, Job.State.DONE, 2, [1])


def test_a_running_job_with_a_fresh_heartbeat_is_left_alone(db, calls):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="live-worker", heartbeat_at=timezone.now() - dt.timedelta(seconds=3))
    jobs.dispatch()
    job.refresh_from_db()
    assert (job.state, job.worker, calls) == (Job.State.RUNNING, "live-worker", [])


def test_a_taken_back_job_records_that_the_previous_attempt_ended_without_a_result(db, calls, settings,
                                                                                   broker_down):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="dead", attempts=1,
         heartbeat_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1))
    jobs.dispatch()  # taken back; the broker is down, so it waits queued with the reason
    job.refresh_from_db()
    assert (job.state, job.error) == (Job.State.QUEUED, jobs.LOST)


def test_a_job_that_keeps_losing_its_worker_is_given_up_and_audited(db, calls, settings):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="dead", attempts=settings.JOBS_MAX_ATTEMPTS,
         heartbeat_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1))
    jobs.dispatch()
    job.refresh_from_db()
    event = AuditEvent.objects.filter(action="job.failed").get()
    assert (job.state, jobs.LOST in job.error, event.significant, calls) == (Job.State.FAILED, True, True, [])


def test_a_job_sent_but_never_started_is_sent_again(db, calls, settings):
    job = _enqueue()
    _age(job, state=Job.State.SENT, sends=1,
         sent_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_RESEND_SECONDS + 1))
    counts = jobs.dispatch()
    job.refresh_from_db()
    assert (counts["resent"], job.state, calls) == (1, Job.State.DONE, [1])


def test_a_job_sent_recently_is_not_sent_again(db, calls):
    job = _enqueue()
    _age(job, state=Job.State.SENT, sends=1, sent_at=timezone.now() - dt.timedelta(seconds=2))
    jobs.dispatch()
    assert (Job.objects.get(pk=job.pk).state, calls) == (Job.State.SENT, [])


def test_a_cut_connection_is_recorded_and_the_job_tried_again_after_a_pause(db, calls, django_capture_on_commit_callbacks):
    calls.fail = OperationalError("terminating connection due to administrator command")
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue()
    job.refresh_from_db()
    first = (job.state, job.error, job.not_before > timezone.now())
    calls.fail = None
    _age(job, not_before=timezone.now())
    jobs.dispatch()
    job.refresh_from_db()
    assert first == (Job.State.QUEUED, "OperationalError: terminating connection due to administrator command", True)
    assert (job.state, job.attempts, calls) == (Job.State.DONE, 2, [1])


def test_an_error_of_the_work_itself_fails_the_job_with_its_message(db, calls, django_capture_on_commit_callbacks):
    calls.fail = ValueError("no such report")
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue()
    job.refresh_from_db()
    assert (job.state, job.error, AuditEvent.objects.filter(action="job.failed").count()) == (
        Job.State.FAILED, "ValueError: no such report", 1)


def test_a_second_message_for_a_running_job_does_nothing(db, calls):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="w1", heartbeat_at=timezone.now())
    report_generate.apply(kwargs={"report_id": 1, "_job": job.pk})
    assert (Job.objects.get(pk=job.pk).worker, calls) == ("w1", [])


def test_a_job_task_called_by_hand_runs_its_body_without_a_job(db, calls):
    report_generate.apply(args=[5])
    assert (calls, Job.objects.count()) == ([5], 0)


def test_progress_is_recorded_on_the_running_job(db, monkeypatch, django_capture_on_commit_callbacks):
    seen = []

    def body(report_id):
        jobs.progress(3, 4)
        seen.append(Job.objects.values_list("progress", "progress_total").get())

    monkeypatch.setattr(report_generate, "run", body)
    with django_capture_on_commit_callbacks(execute=True):
        _enqueue()
    assert seen == [(3, 4)]


def test_a_deferred_job_waits_without_using_up_an_attempt(db, monkeypatch, django_capture_on_commit_callbacks):
    def body(report_id):
        raise jobs.JobDeferred(20, "held elsewhere")

    monkeypatch.setattr(report_generate, "run", body)
    with django_capture_on_commit_callbacks(execute=True):
        job = _enqueue()
    job.refresh_from_db()
    assert (job.state, job.attempts, job.not_before > timezone.now() + dt.timedelta(seconds=15)) == (
        Job.State.QUEUED, 0, True)


# ------------------------------------------------------------------------------------------------
# staff: retry and the jobs page
# ------------------------------------------------------------------------------------------------

def _stalled(settings):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="dead", attempts=1,
         heartbeat_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 5))
    return Job.objects.get(pk=job.pk)


def test_a_person_allowed_for_the_kind_sends_a_stalled_job_again(db, calls, make_staff, settings,
                                                                 django_capture_on_commit_callbacks):
    job = _stalled(settings)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.job_retry(actor=make_staff(roles.COMPLIANCE_OFFICER), job=job)  # compliance.add_report
    assert (Job.objects.get(pk=job.pk).state, calls, AuditEvent.objects.filter(action="job.retried").count()) == (
        Job.State.DONE, [1], 1)


def test_a_person_without_the_kinds_permission_cannot_send_a_job_again(db, make_staff, settings):
    job = _stalled(settings)
    with pytest.raises(jobs.JobError):
        jobs.job_retry(actor=make_staff(roles.OPERATOR), job=job)
    assert Job.objects.get(pk=job.pk).state == Job.State.RUNNING


def test_a_running_job_with_a_live_worker_is_not_sent_again(db, make_staff):
    job = _enqueue()
    _age(job, state=Job.State.RUNNING, worker="live", heartbeat_at=timezone.now())
    with pytest.raises(jobs.JobError, match="alive"):
        jobs.job_retry(actor=make_staff(roles.COMPLIANCE_OFFICER), job=job)


def test_the_jobs_page_shows_a_stalled_job_with_its_retry_button(staff_client, settings):
    job = _stalled(settings)
    html = staff_client(roles.COMPLIANCE_OFFICER).get("/compliance/jobs/").content.decode()
    assert "stalled since" in html and f'action="/compliance/jobs/{job.pk}/retry/"' in html


def test_the_jobs_page_offers_no_retry_to_a_role_that_may_not(staff_client, settings):
    job = _stalled(settings)
    html = staff_client(roles.DRAW_SUPERVISOR).get("/compliance/jobs/").content.decode()
    assert "stalled since" in html and f"/compliance/jobs/{job.pk}/retry/" not in html


def test_the_retry_button_sends_the_job_again(staff_client, calls, settings, django_capture_on_commit_callbacks):
    job = _stalled(settings)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/compliance/jobs/{job.pk}/retry/", {"next": "/compliance/jobs/"})
    assert (response.status_code, Job.objects.get(pk=job.pk).state) == (302, Job.State.DONE)


def test_the_jobs_page_is_refused_without_its_permission(staff_client):
    assert staff_client(roles.OPERATOR).get("/compliance/jobs/").status_code == 403


# ------------------------------------------------------------------------------------------------
# /healthz
# ------------------------------------------------------------------------------------------------

def _health(client):
    response = client.get("/healthz")
    return response.status_code, json.loads(response.content)


def _alive(*roles_):
    for role in roles_:
        jobs.beat_process(role, f"{role}-1")


def test_healthz_without_a_broker_needs_only_the_database(client, db, settings):
    settings.HEALTHZ_REQUIRE = ["database"]
    status, body = _health(client)
    assert (status, body["missing"], body["workers"]["live"]) == (200, [], 0)


def test_healthz_is_503_naming_each_missing_job_process(client, db, settings):
    settings.HEALTHZ_REQUIRE = ["database", "workers", "beat", "dispatcher"]
    _alive("dispatcher")
    status, body = _health(client)
    assert (status, body["missing"]) == (503, ["workers", "beat"])


def test_healthz_is_ok_when_every_required_process_beats(client, db, settings):
    settings.HEALTHZ_REQUIRE = ["database", "workers", "beat", "dispatcher"]
    _alive("worker", "beat", "dispatcher")
    status, body = _health(client)
    assert (status, body["status"], body["workers"]) == (200, "ok", {"status": "ok", "live": 1})


def test_healthz_does_not_count_a_worker_that_stopped_beating(client, db, settings):
    settings.HEALTHZ_REQUIRE = ["database", "workers"]
    _alive("worker")
    ProcessHeartbeat.objects.update(seen_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1))
    status, body = _health(client)
    assert (status, body["missing"]) == (503, ["workers"])


def test_healthz_reveals_no_process_names(client, db, settings):
    _alive("worker")
    _, body = _health(client)
    assert "worker-1" not in json.dumps(body)


@pytest.mark.parametrize("lang,words", [("fi", "pysähtynyt"), ("sv", "har stannat sedan")])
def test_the_jobs_page_speaks_finnish_and_swedish(staff_client, settings, lang, words):
    _stalled(settings)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    assert words in client.get("/compliance/jobs/").content.decode()
