"""Durable jobs (docs/architecture.md, "Jobs"): an outbox of work written in the same transaction as
the change that causes it, sent to the broker after commit, re-sent by the dispatcher until done.

Enqueue, inside the caller's transaction::

    job_enqueue(kind="lottery.tasks.pay_draw", key=f"lottery.pay_draw:{draw.pk}",
                args={"draw_id": draw.pk}, actor=user)

`kind` is a Celery task declared with `base=JobTask`; `args` are its keyword arguments. After commit
the job is published with a short timeout; if the broker is down the job stays queued and the request
answers as usual. The task runs through `JobTask`: it claims the job (compare-and-set), beats every
JOBS_HEARTBEAT_SECONDS from a thread with its own connection, calls the task body, and marks the job
done or failed. The body reports progress with `progress(done, total)`.

The dispatcher (`dispatch`, run in a loop by the beat process and by `manage.py job_dispatcher`)
publishes queued jobs, re-sends jobs that were sent but never started, and takes back jobs whose
heartbeat is older than JOBS_STALE_SECONDS (the worker died, or its connection was cut). It needs the
database only; several may run at once (every change is a conditional UPDATE).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from celery import Task, current_app
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .audit import audit_record
from .errors import StateConflict
from .models import Job, ProcessHeartbeat

log = logging.getLogger(__name__)
S = Job.State

LOST = "The previous attempt ended without a result (worker lost or connection cut)."


# ------------------------------------------------------------------------------------------------
# settings
# ------------------------------------------------------------------------------------------------

def heartbeat_seconds() -> float:
    return float(getattr(settings, "JOBS_HEARTBEAT_SECONDS", 5))


def stale_seconds() -> float:
    return float(getattr(settings, "JOBS_STALE_SECONDS", 30))


def resend_seconds() -> float:
    return float(getattr(settings, "JOBS_RESEND_SECONDS", 30))


def max_attempts() -> int:
    return int(getattr(settings, "JOBS_MAX_ATTEMPTS", 8))


def dispatch_seconds() -> float:
    return float(getattr(settings, "JOBS_DISPATCH_SECONDS", 2))


# ------------------------------------------------------------------------------------------------
# kinds
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class JobKind:
    name: str
    label: Any
    retry_permission: str


KINDS: dict[str, JobKind] = {}


def register_job_kind(name: str, *, label, retry_permission: str) -> None:
    """A capability app declares its job kinds (a Celery task name each) with the label staff see and
    the permission that lets a person send a stalled or failed job of the kind again."""
    KINDS[name] = JobKind(name, label, retry_permission)


def kind_label(name: str):
    kind = KINDS.get(name)
    return kind.label if kind else name


def may_retry(user, job: Job) -> bool:
    kind = KINDS.get(job.kind)
    permission = kind.retry_permission if kind else "compliance.retry_job"
    return bool(user and user.is_authenticated and (user.has_perm(permission) or user.has_perm("compliance.retry_job")))


# ------------------------------------------------------------------------------------------------
# enqueue and publish
# ------------------------------------------------------------------------------------------------

class JobError(StateConflict):
    """A job request that cannot be done (the message is for staff)."""

    code = "job_state"


def job_enqueue(*, kind: str, key: str, args: dict | None = None, actor=None) -> Job:
    """Record a job in the caller's transaction and publish it once that commits. While a job with
    the same key is queued, sent or running, it is returned instead (a running one is marked to run
    once more, since it may have read its work before this request's change)."""
    args = dict(args or {})
    with transaction.atomic():
        existing = Job.objects.select_for_update().filter(key=key, state__in=Job.ACTIVE).first()
        if existing is None:
            try:
                with transaction.atomic():
                    job = Job.objects.create(
                        kind=kind, key=key, args=args,
                        requested_by=None if actor is None or isinstance(actor, str) else actor,
                        requested_by_repr=_actor_repr(actor),
                    )
            except IntegrityError:  # another transaction created it meanwhile
                job = Job.objects.select_for_update().get(key=key, state__in=Job.ACTIVE)
        else:
            job = existing
            if job.state == S.RUNNING and not job.rerun:
                Job.objects.filter(pk=job.pk).update(rerun=True)
                job.rerun = True
    job_id = job.pk
    if job.state == S.QUEUED:
        transaction.on_commit(lambda: publish(job_id))
    return job


def _actor_repr(actor) -> str:
    if actor is None:
        return ""
    return actor if isinstance(actor, str) else actor.get_username()


def publish(job_id: int) -> str:
    """Hand a queued job to the broker: "sent", "skipped" (not queued, or not due yet) or "error"
    (the broker did not take it; the job stays queued for the dispatcher). Never raises, never waits
    longer than the broker's short connect and publish timeouts."""
    app = current_app  # the project's app: config.celery makes it the default of every thread
    now = timezone.now()
    job = Job.objects.filter(pk=job_id, state=S.QUEUED, not_before__lte=now).only("pk", "kind", "args").first()
    if job is None:
        return "skipped"
    task = _task(app, job.kind)
    if task is None and app.conf.task_always_eager:
        _finish(job.pk, None, state=S.FAILED, error=f"No task is registered under {job.kind!r}.")
        return "skipped"
    # Marked sent before the message goes out: a worker that takes it at once finds it sent (or
    # queued: both are claimable); a publish that fails puts it back.
    marked = Job.objects.filter(pk=job.pk, state=S.QUEUED).update(state=S.SENT, sent_at=now, sends=F("sends") + 1)
    if not marked:
        return "skipped"
    kwargs = {**job.args, "_job": job.pk}
    try:
        if task is not None:
            task.apply_async(kwargs=kwargs, **_publish_options())
        else:  # not imported in this process: by name (the workers know it)
            app.send_task(job.kind, kwargs=kwargs, **_publish_options())
    except Exception as exc:  # noqa: BLE001 - any broker failure: leave the job for the dispatcher
        log.warning("job %s: the broker did not take it (%s: %s); it stays queued", job.pk, type(exc).__name__, exc)
        Job.objects.filter(pk=job.pk, state=S.SENT).update(state=S.QUEUED, sent_at=None, sends=F("sends") - 1)
        return "error"
    return "sent"


def _task(app, name: str):
    """The registered task; the apps' tasks modules are imported on first need (a web process has
    not imported them: Celery's autodiscovery is lazy)."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks.get(name)


def _publish_options() -> dict:
    """One quick retry (a connection the broker dropped is re-opened once), then give up: the
    dispatcher sends it later. Bounds a publish to about the connect timeout twice. JOBS_QUEUE, when
    set, names the queue (the worker tests give each worker a queue of its own)."""
    options: dict[str, Any] = {"retry": True, "retry_policy": {"max_retries": 1, "interval_start": 0,
                                                               "interval_step": 0.2, "interval_max": 0.2}}
    queue = getattr(settings, "JOBS_QUEUE", "")
    if queue:
        options["queue"] = queue
    return options


@transaction.atomic
def job_retry(*, actor, job: Job, request=None) -> Job:
    """Send a failed, stalled or waiting job again now (staff action, audited). A failed job starts
    its attempts afresh; a running job is taken back only if its heartbeat is stale."""
    job = Job.objects.select_for_update().get(pk=job.pk)
    if not may_retry(actor, job):
        raise JobError(_("You may not send this job again."))
    now = timezone.now()
    before = job.state
    if job.state == S.DONE:
        raise JobError(_("This job is done; there is nothing to send again."))
    if job.state == S.RUNNING and not job_stalled(job, now=now):
        raise JobError(_("This job is running and its worker is alive; it is not sent again."))
    if job.state == S.FAILED and Job.objects.filter(key=job.key, state__in=Job.ACTIVE).exists():
        raise JobError(_("A newer job for the same work is already queued or running."))
    fields: dict[str, Any] = {"state": S.QUEUED, "not_before": now, "worker": "", "sent_at": None}
    if job.state == S.FAILED:
        fields.update(attempts=0, finished_at=None)
    if job.state == S.RUNNING:
        fields["error"] = LOST
    Job.objects.filter(pk=job.pk).update(**fields)
    audit_record(actor=actor, action="job.retried", obj=job, request=request,
                 before={"state": before}, after={"state": S.QUEUED},
                 data={"kind": job.kind, "key": job.key, "attempts": job.attempts})
    job_id = job.pk
    transaction.on_commit(lambda: publish(job_id))
    job.refresh_from_db()
    return job


# ------------------------------------------------------------------------------------------------
# reading
# ------------------------------------------------------------------------------------------------

def job_stalled(job: Job, *, now=None) -> bool:
    """Running, but its heartbeat is older than JOBS_STALE_SECONDS."""
    now = now or timezone.now()
    return job.state == S.RUNNING and (job.heartbeat_at is None
                                       or job.heartbeat_at < now - dt.timedelta(seconds=stale_seconds()))


def job_waiting(job: Job, *, now=None) -> bool:
    """Queued for a while and never taken by the broker (it is down): the work starts when it is back."""
    now = now or timezone.now()
    return job.state == S.QUEUED and job.not_before <= now - dt.timedelta(seconds=2 * dispatch_seconds() + 1)


def latest_jobs(keys) -> dict[str, Job]:
    """The newest job of each key."""
    out: dict[str, Job] = {}
    for job in Job.objects.filter(key__in=list(keys)).order_by("key", "-created_at", "-pk"):
        out.setdefault(job.key, job)
    return out


def job_status(job: Job | None, user=None, *, now=None) -> dict | None:
    """What a page shows of a job: state, progress, stalled since, waiting for the job system, error."""
    if job is None:
        return None
    now = now or timezone.now()
    stalled = job_stalled(job, now=now)
    return {
        "id": job.pk, "kind": job.kind, "label": str(kind_label(job.kind)), "state": job.state,
        "state_label": str(job.get_state_display()), "percent": job.percent, "progress": job.progress,
        "progress_total": job.progress_total, "attempts": job.attempts, "error": job.error,
        "stalled": stalled, "stalled_since": job.heartbeat_at if stalled else None,
        "waiting": job_waiting(job, now=now),
        "may_retry": bool(user is not None and (stalled or job.state in (S.FAILED, S.QUEUED))
                          and may_retry(user, job)),
    }


# ------------------------------------------------------------------------------------------------
# running (the task side)
# ------------------------------------------------------------------------------------------------

class JobDeferred(Exception):
    """Raised by a job's body: the work cannot be done now (e.g. another live worker holds it); the
    job goes back to the queue and is sent again after `seconds`, without counting an attempt."""

    def __init__(self, seconds: float, reason: str = ""):
        super().__init__(reason)
        self.seconds = seconds
        self.reason = reason


@dataclass
class Running:
    job_id: int
    worker: str
    attempts: int
    beats: list[Callable[[], Any]]


_current: contextvars.ContextVar[Running | None] = contextvars.ContextVar("valvoja_job", default=None)


def current() -> Running | None:
    """The job this code runs in, if any."""
    return _current.get()


def on_heartbeat(fn: Callable[[], Any]) -> None:
    """Call `fn` at each heartbeat of the current job (from the heartbeat thread, on its own database
    connection): e.g. settlement keeps its run's claim fresh with it."""
    running = current()
    if running is not None:
        running.beats.append(fn)


def progress(done: int, total: int | None = None) -> None:
    """Record the current job's progress (no-op outside a job); also counts as a heartbeat."""
    running = current()
    if running is None:
        return
    fields: dict[str, Any] = {"progress": int(done), "heartbeat_at": timezone.now()}
    if total is not None:
        fields["progress_total"] = int(total)
    Job.objects.filter(pk=running.job_id, worker=running.worker, state=S.RUNNING).update(**fields)


def is_transient(exc: BaseException) -> bool:
    """Errors of the connection rather than of the work: the job is tried again after a pause."""
    return isinstance(exc, (OperationalError, InterfaceError))


def worker_label() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class JobTask(Task):
    """Base of job tasks. Called with `_job=<id>` (as the dispatcher and `publish` do) the body runs
    under the job's claim and records its outcome on the job row; called without it (by hand, from
    a test), the body just runs."""

    ignore_result = True  # the job row is the result; nothing is written to a result backend
    acks_late = True
    typing = False  # the body's signature has no `_job`: not checked against the call
    def __call__(self, *args, _job: int | None = None, **kwargs):
        if _job is None:
            return super().__call__(*args, **kwargs)
        return run_job(_job, lambda: super(JobTask, self).__call__(*args, **kwargs),
                       eager=bool(getattr(self.request, "is_eager", False)))


def _claim(job_id: int, worker: str, now) -> bool:
    return bool(Job.objects.filter(pk=job_id, state__in=[S.QUEUED, S.SENT], not_before__lte=now).update(
        state=S.RUNNING, worker=worker, heartbeat_at=now, attempts=F("attempts") + 1, rerun=False,
        started_at=now, finished_at=None,
    ))


def run_job(job_id: int, body: Callable[[], Any], *, eager: bool = False) -> Any:
    """Claim the job, run the body with heartbeats, record the outcome. A lost claim writes nothing."""
    worker = worker_label()
    if not _claim(job_id, worker, timezone.now()):
        log.info("job %s: not claimable (done, running elsewhere or not due); message ignored", job_id)
        return None
    attempts = Job.objects.filter(pk=job_id).values_list("attempts", flat=True).first() or 1
    running = Running(job_id, worker, attempts, [])
    token = _current.set(running)
    beater = None if eager or connection.in_atomic_block else _Heartbeat(running)
    try:
        if beater:
            beater.start()
        try:
            outcome = body()
        finally:
            if beater:
                beater.stop()
    except JobDeferred as exc:
        _finish(job_id, worker, state=S.QUEUED, error=exc.reason, attempts=F("attempts") - 1,
                not_before=timezone.now() + dt.timedelta(seconds=exc.seconds))
        return None
    except Exception as exc:  # noqa: BLE001 - recorded on the job (and audited when final)
        _failed(job_id, worker, attempts, exc)
        return None
    finally:
        _current.reset(token)
    _done(job_id, worker, outcome)
    return outcome


def _failed(job_id: int, worker: str, attempts: int, exc: Exception) -> None:
    message = f"{type(exc).__name__}: {exc}"[:4000]
    transient = is_transient(exc)
    if transient:
        log.warning("job %s: attempt %s failed on the connection (%s); it is tried again", job_id, attempts, message)
        if not connection.in_atomic_block:
            connection.close()  # a cut connection: the next query opens a fresh one
    else:
        log.exception("job %s failed", job_id)
    try:
        if transient and attempts < max_attempts():
            pause = min(5 * 2 ** (attempts - 1), 300)
            _finish(job_id, worker, state=S.QUEUED, error=message,
                    not_before=timezone.now() + dt.timedelta(seconds=pause))
        else:
            _fail_final(job_id, worker, message)
    except Exception:  # noqa: BLE001 - the database is gone too: the dispatcher takes the job back
        log.exception("job %s: its failure could not be recorded; the dispatcher takes it back", job_id)


def _fail_final(job_id: int, worker: str | None, message: str) -> None:
    with transaction.atomic():
        if _finish(job_id, worker, state=S.FAILED, error=message, finished_at=timezone.now()):
            job = Job.objects.get(pk=job_id)
            audit_record(actor="system:jobs", action="job.failed", obj=job, significant=True,
                         data={"kind": job.kind, "key": job.key, "attempts": job.attempts, "error": message})


def _done(job_id: int, worker: str, outcome: Any) -> None:
    result = outcome if isinstance(outcome, (dict, list, str, int, float, bool)) or outcome is None else str(outcome)
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id, worker=worker, state=S.RUNNING).first()
        if job is None:
            log.warning("job %s: taken over by another worker; this attempt's outcome is not recorded", job_id)
            return
        if job.rerun:  # asked for again while running: once more
            Job.objects.filter(pk=job_id).update(state=S.QUEUED, rerun=False, worker="", result=result,
                                                 not_before=timezone.now(), sent_at=None)
            transaction.on_commit(lambda: publish(job_id))
            return
        Job.objects.filter(pk=job_id).update(state=S.DONE, result=result, finished_at=timezone.now(),
                                             heartbeat_at=timezone.now(), error="")


def _finish(job_id: int, worker: str | None, **fields) -> bool:
    """Conditional update of our own running job (any job when `worker` is None)."""
    qs = Job.objects.filter(pk=job_id)
    if worker is not None:
        qs = qs.filter(worker=worker, state=S.RUNNING)
    if fields.get("state") in (S.QUEUED, S.FAILED):
        fields.setdefault("worker", "")
        fields.setdefault("sent_at", None)
    return bool(qs.update(**fields))


class _Heartbeat:
    """A thread that refreshes the job's heartbeat (and the body's own claims, `on_heartbeat`) every
    JOBS_HEARTBEAT_SECONDS, on a database connection of its own."""

    def __init__(self, running: Running):
        self.running = running
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name=f"job-{running.job_id}-heartbeat", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=heartbeat_seconds() + 5)

    def _loop(self) -> None:
        try:
            while not self.stopped.wait(heartbeat_seconds()):
                try:
                    n = Job.objects.filter(pk=self.running.job_id, worker=self.running.worker,
                                           state=S.RUNNING).update(heartbeat_at=timezone.now())
                    if not n:
                        return  # taken over: no more beats
                    for beat in list(self.running.beats):
                        beat()
                except Exception:  # noqa: BLE001 - a missed beat; the next one tries a fresh connection
                    log.warning("job %s: heartbeat failed", self.running.job_id, exc_info=True)
                    connection.close()
        finally:
            connection.close()


# ------------------------------------------------------------------------------------------------
# the dispatcher
# ------------------------------------------------------------------------------------------------

def dispatch(*, now=None, limit: int = 200) -> dict[str, int]:
    """One pass: take back stalled jobs, re-send jobs sent long ago and never started, publish the
    queued jobs that are due. Stops publishing at the first broker error (it is down; next pass)."""
    now = now or timezone.now()
    counts = {"reclaimed": 0, "failed": 0, "resent": 0, "sent": 0, "errors": 0}
    stale = now - dt.timedelta(seconds=stale_seconds())
    for pk, attempts in Job.objects.filter(state=S.RUNNING, heartbeat_at__lt=stale).values_list("pk", "attempts")[:limit]:
        if attempts >= max_attempts():
            with transaction.atomic():
                if Job.objects.filter(pk=pk, state=S.RUNNING, heartbeat_at__lt=stale).exists():
                    _fail_final(pk, None, f"{LOST} Given up after {attempts} attempts.")
                    counts["failed"] += 1
            continue
        if Job.objects.filter(pk=pk, state=S.RUNNING, heartbeat_at__lt=stale).update(
                state=S.QUEUED, worker="", error=LOST, not_before=now, sent_at=None):
            log.warning("job %s: its worker stopped beating; sent again", pk)
            counts["reclaimed"] += 1
    for pk, sent_at, sends in Job.objects.filter(state=S.SENT).values_list("pk", "sent_at", "sends")[:limit]:
        wait = min(resend_seconds() * 2 ** max(0, sends - 1), 600)
        if sent_at is None or sent_at < now - dt.timedelta(seconds=wait):
            counts["resent"] += Job.objects.filter(pk=pk, state=S.SENT, sent_at=sent_at).update(state=S.QUEUED)
    due = Job.objects.filter(state=S.QUEUED, not_before__lte=now).order_by("not_before", "pk")
    for pk in due.values_list("pk", flat=True)[:limit]:
        outcome = publish(pk)
        if outcome == "sent":
            counts["sent"] += 1
        elif outcome == "error":
            counts["errors"] += 1
            break
    return counts


def beat_process(role: str, name: str) -> None:
    """Record that a job process is alive (one row per process, refreshed)."""
    now = timezone.now()
    if not ProcessHeartbeat.objects.filter(role=role, name=name).update(seen_at=now):
        try:
            with transaction.atomic():
                ProcessHeartbeat.objects.create(role=role, name=name, started_at=now, seen_at=now)
        except IntegrityError:
            ProcessHeartbeat.objects.filter(role=role, name=name).update(seen_at=now)


def process_gone(role: str, name: str) -> None:
    ProcessHeartbeat.objects.filter(role=role, name=name).delete()


def live_processes(*, now=None) -> dict[str, int]:
    """How many workers, beats and dispatchers beat within JOBS_STALE_SECONDS (one query)."""
    from django.db.models import Count

    now = now or timezone.now()
    rows = (ProcessHeartbeat.objects.filter(seen_at__gte=now - dt.timedelta(seconds=stale_seconds()))
            .values("role").annotate(n=Count("pk")).order_by())
    out = {role: 0 for role in ProcessHeartbeat.Role.values}
    out.update({r["role"]: r["n"] for r in rows})
    return out


def dispatcher_loop(stop: threading.Event, *, name: str | None = None, interval: float | None = None) -> None:
    """Run `dispatch` every JOBS_DISPATCH_SECONDS until `stop` is set; never dies of an error."""
    name = name or worker_label()
    interval = dispatch_seconds() if interval is None else interval
    try:
        while True:
            try:
                beat_process(ProcessHeartbeat.Role.DISPATCHER, name)
                counts = dispatch()
                if any(counts.values()):
                    log.info("job dispatcher: %s", counts)
            except Exception:  # noqa: BLE001 - the database may be away; try again next pass
                log.warning("job dispatcher: pass failed", exc_info=True)
                connection.close()
            if stop.wait(interval):
                break
        process_gone(ProcessHeartbeat.Role.DISPATCHER, name)
    except Exception:  # noqa: BLE001
        log.warning("job dispatcher: could not deregister", exc_info=True)
    finally:
        connection.close()


def start_dispatcher_thread(name: str | None = None) -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=dispatcher_loop, args=(stop,), kwargs={"name": name}, name="job-dispatcher",
                     daemon=True).start()
    return stop


def process_heartbeat_loop(stop: threading.Event, role: str, name: str) -> None:
    """Keep one process's heartbeat row fresh until `stop` is set, then remove it."""
    try:
        while True:
            try:
                beat_process(role, name)
            except Exception:  # noqa: BLE001
                log.warning("%s heartbeat failed", role, exc_info=True)
                connection.close()
            if stop.wait(heartbeat_seconds()):
                break
        process_gone(role, name)
    except Exception:  # noqa: BLE001
        log.warning("%s heartbeat: could not deregister", role, exc_info=True)
    finally:
        connection.close()


def start_heartbeat_thread(role: str, name: str) -> threading.Event:
    stop = threading.Event()
    threading.Thread(target=process_heartbeat_loop, args=(stop, role, name), name=f"{role}-heartbeat",
                     daemon=True).start()
    return stop
