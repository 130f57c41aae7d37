"""Tasks go through a real Celery worker process when a broker is configured (CI: Redis)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.worker


def test_without_a_broker_tasks_run_in_process():
    if settings.CELERY_BROKER_URL:
        pytest.skip("a broker is configured: tasks go to workers (see the worker test)")
    from config.celery import app

    assert app.conf.task_always_eager is True


@pytest.fixture
def celery_worker_process(transactional_db, settings):
    """A worker on a queue of its own, using this test's database; jobs this test enqueues are
    published to that queue (JOBS_QUEUE)."""
    if not settings.CELERY_BROKER_URL:
        if os.environ.get("VALVOJA_REQUIRE_WORKER"):
            pytest.fail("VALVOJA_REQUIRE_WORKER is set but CELERY_BROKER_URL is not")
        pytest.skip("no CELERY_BROKER_URL: tasks run in-process; CI runs this with Redis")
    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    settings.JOBS_QUEUE = queue
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": _database_url(db)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--loglevel=WARNING", "--without-gossip", "--without-mingle", "-n", f"{queue}@%h"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail("worker exited: " + proc.stdout.read())
            if app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=1):
                break
        else:
            pytest.fail("worker did not answer a ping within 60 s")
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _database_url(db: dict) -> str:
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or "5432"
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


def test_real_worker_verifies_the_audit_chain_written_by_this_process(celery_worker_process):
    from compliance.audit import audit_record
    from compliance.models import AuditEvent
    from compliance.tasks import audit_verify_chain

    for i in range(3):
        audit_record(actor="system:test", action="test.worker", data={"i": i})
    result = audit_verify_chain.apply_async(queue=celery_worker_process).get(timeout=60)
    assert (result["ok"], result["checked"], result["bad_seq"], result["reason"]) == (
        True, AuditEvent.objects.count(), None, "")


def _wait_for(predicate, timeout: float = 120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.25)
    return False


def test_a_real_worker_reports_its_heartbeat_for_healthz(celery_worker_process, client, settings):
    from compliance.models import ProcessHeartbeat

    settings.HEALTHZ_REQUIRE = ["database", "broker", "workers"]
    assert _wait_for(lambda: ProcessHeartbeat.objects.filter(role="worker").exists(), timeout=30)
    response = client.get("/healthz")
    assert (response.status_code, response.json()["workers"]["live"] >= 1) == (200, True)


def test_a_real_worker_runs_an_enqueued_job_to_done(celery_worker_process):
    from compliance.jobs import job_enqueue
    from compliance.models import Job, Report

    report = Report.objects.create(kind="exclusion_hits", params={"since": "2001-01-01", "until": "2001-01-31"},
                                   version="1", created_by_repr="system:test")
    job = job_enqueue(kind="compliance.tasks.report_generate", key=f"compliance.report:{report.pk}",
                      args={"report_id": report.pk}, actor="system:test")  # autocommit: sent at once
    assert _wait_for(lambda: Job.objects.get(pk=job.pk).state in ("done", "failed"))
    job.refresh_from_db()
    assert (job.state, job.attempts, Report.objects.get(pk=report.pk).status) == ("done", 1, "done")


def test_a_real_workers_stale_job_is_taken_back_by_the_dispatcher_and_finished(celery_worker_process, settings):
    import datetime as dt

    from django.utils import timezone

    from compliance.jobs import dispatch
    from compliance.models import Job, Report

    report = Report.objects.create(kind="exclusion_hits", params={"since": "2001-01-01", "until": "2001-01-31"},
                                   version="1", created_by_repr="system:test", status="running", progress=20)
    # As a worker killed mid-render leaves it: the report running, the job running with an old heartbeat.
    job = Job.objects.create(kind="compliance.tasks.report_generate", key=f"compliance.report:{report.pk}",
                             args={"report_id": report.pk}, state="running", attempts=1, worker="killed",
                             heartbeat_at=timezone.now() - dt.timedelta(seconds=settings.JOBS_STALE_SECONDS + 1))
    assert dispatch()["reclaimed"] == 1
    assert _wait_for(lambda: Job.objects.get(pk=job.pk).state in ("done", "failed"))
    job.refresh_from_db()
    assert (job.state, job.attempts, Report.objects.get(pk=report.pk).status) == ("done", 2, "done")
