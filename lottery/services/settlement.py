"""Settlement of a draw (DESIGN §3): claimed, counted, written in chunks, checked, finished.

A `SettlementRun` row is the source of truth. A worker claims it with a compare-and-set UPDATE
(pending, failed, or running with a stale heartbeat); every later write checks it still holds the
claim (`lottery.pipeline.Claim`). Counting, writing and checking are the settlement strategy of the
draw's game (`lottery.games.registry`: `BitmaskSettlement` for the number games, `BucketSettlement`
for the others); this module claims, checks the preconditions, asks the strategy and finishes. The
run records what is done as it is done:

1. counting: tier counts, turnover and stakes in one set-based query (path A, `lottery.matching`);
   the prize engine turns them into prizes; tier results and the chunk plan (from the import
   records and the sequence-numbered lines) are stored.
2. writing: for each chunk of line ids, the winning lines are inserted with their prizes (path B)
   and the chunk is marked done, in one transaction: a chunk is written exactly once. On PostgreSQL,
   for a strategy with ``parallel_ok`` (`count_and_write`), worker connections read the chunks with
   path B while path A counts, hold the winners in a temporary table of their session, and write
   them once the prizes are known.
3. checking: winners per class, boosted winners and money per class, counted from the written rows,
   must equal path A and the engine; else the run halts with a significant audit event.
4. finishing: run settled, draw settled, rollovers handed to the next draw of the game.

A rerun (a repeated message, a retry after a crash or a kill at any point) continues from the last
committed step; the unique (run, line) constraint makes a double insert impossible.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import time
import uuid

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from compliance import jobs
from compliance.audit import audit_record
from compliance.errors import stored_message
from compliance.jobs import job_enqueue
from compliance.models import Job

from ..formats import UnsupportedGame
from ..games import registry
from ..games.messages import domain_message
from ..models import (
    Draw,
    DrawResult,
    DrawState,
    RunPhase,
    RunState,
    SettlementChunk,
    SettlementRun,
    TierResult,
    Winning,
)
from ..pipeline import Check, Claim, LostClaim, SettlementHalted, parallelism, winners_indexes
from ..rules.errors import RulesError
from .errors import DrawError, DrawStateError

log = logging.getLogger(__name__)


def _stale_seconds() -> int:
    return int(getattr(settings, "LOTTERY_SETTLEMENT_STALE_SECONDS", 30))


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# ------------------------------------------------------------------------------------------------
# runs
# ------------------------------------------------------------------------------------------------

def settled_run(draw: Draw) -> SettlementRun | None:
    """The run whose winners count now: the newest settled version."""
    return SettlementRun.objects.filter(draw=draw, state=RunState.SETTLED).order_by("-version").first()


def open_run(draw: Draw) -> SettlementRun | None:
    return (
        SettlementRun.objects.filter(draw=draw, state__in=[RunState.PENDING, RunState.RUNNING, RunState.FAILED,
                                                           RunState.HALTED])
        .order_by("-version")
        .first()
    )


def run_create(*, draw: Draw, result: DrawResult, actor, previous: SettlementRun | None = None) -> SettlementRun:
    """Queue a new settlement version of the draw (inside the caller's transaction)."""
    version = (SettlementRun.objects.filter(draw=draw).aggregate(m=Max("version"))["m"] or 0) + 1
    run = SettlementRun.objects.create(
        draw=draw,
        version=version,
        result=result,
        ruleset=draw.ruleset,
        previous=previous,
        created_by=actor if isinstance(actor, str) else actor.get_username(),
    )
    audit_record(actor=actor, action="lottery.settlement_queued", obj=run,
                 data={"draw": draw.pk, "version": version, "result_version": result.version,
                       "previous": previous.version if previous else None})
    return run


SETTLE_KIND = "lottery.tasks.settle_run"


def job_key(run_id: int) -> str:
    return f"lottery.settle_run:{int(run_id)}"


def enqueue(run: SettlementRun, *, actor=None):
    """Record the run's job in the caller's transaction (compliance.jobs); it is sent to a worker
    once that commits, or by the dispatcher when the broker is back."""
    return job_enqueue(kind=SETTLE_KIND, key=job_key(run.pk), args={"run_id": run.pk},
                       actor=actor or "system:settlement")


@transaction.atomic
def settlement_retry(*, actor, run: SettlementRun, restart: bool = False, request=None) -> SettlementRun:
    """Send a failed or halted run back to the queue. A halted run (or `restart=True`) starts again
    from nothing: its own winners, chunks and counts are deleted in this transaction first."""
    run = SettlementRun.objects.select_for_update().get(pk=run.pk)
    if run.state not in (RunState.FAILED, RunState.HALTED):
        raise DrawStateError(_("%(run)s is %(state)s; only a failed or halted run is retried."), run=str(run),
                             state=RunState(run.state).label)
    if restart or run.state == RunState.HALTED:
        _reset(run)
    before = run.state
    run.state = RunState.PENDING
    run.error, run.error_messages = "", []
    run.save(update_fields=["state", "error", "error_messages"])
    audit_record(actor=actor, action="lottery.settlement_retried", obj=run, request=request,
                 before={"state": before}, after={"state": RunState.PENDING}, data={"restart": restart})
    enqueue(run)
    return run


def _reset(run: SettlementRun) -> None:
    Winning.objects.filter(run=run).delete()
    SettlementChunk.objects.filter(run=run).delete()
    TierResult.objects.filter(run=run).delete()
    run.phase = RunPhase.NONE
    run.tier_counts = run.check_counts = run.engine_input = run.engine_result = None
    run.chunks_total = run.chunks_done = 0
    run.save(update_fields=["phase", "tier_counts", "check_counts", "engine_input", "engine_result",
                            "chunks_total", "chunks_done"])


def watchdog(*, now=None) -> list[int]:
    """A safety net behind the job dispatcher: a run whose worker died (stale heartbeat) or that has
    waited too long while pending, and that has no job queued, sent or running, gets a job again."""
    now = now or timezone.now()
    stale = now - dt.timedelta(seconds=_stale_seconds())
    ids = []
    for run in SettlementRun.objects.filter(
        Q(state=RunState.RUNNING, heartbeat_at__lt=stale) | Q(state=RunState.PENDING, created_at__lt=stale)
    ).order_by("pk"):
        if not Job.objects.filter(key=job_key(run.pk), state__in=Job.ACTIVE).exists():
            with transaction.atomic():
                enqueue(run, actor="system:settlement_watchdog")
            ids.append(run.pk)
    return ids


def settle_job(run_id: int) -> dict:
    """The body of the settlement job: settle under the job's worker name, keep the run's claim fresh
    from the job's heartbeat thread, and tell the job system how it ended. A run another live worker
    holds is left to it (the job waits and looks again); a failed run fails the job with its error."""
    running = jobs.current()
    worker = running.worker if running else worker_name()
    if running is not None:
        job_id = running.job_id

        def beat() -> None:
            now = timezone.now()
            SettlementRun.objects.filter(pk=run_id, claimed_by=worker, state=RunState.RUNNING).update(heartbeat_at=now)
            done_total = SettlementRun.objects.filter(pk=run_id).values_list("chunks_done", "chunks_total").first()
            if done_total:
                Job.objects.filter(pk=job_id, worker=worker, state=Job.State.RUNNING).update(
                    progress=done_total[0], progress_total=done_total[1])

        jobs.on_heartbeat(beat)
    run = run_settlement(run_id, worker=worker)
    outcome = {"run": run.pk, "state": run.state, "phase": run.phase, "chunks_done": run.chunks_done}
    if running is not None:
        if run.state in (RunState.PENDING, RunState.RUNNING) and run.claimed_by != worker:
            raise jobs.JobDeferred(_stale_seconds(), f"settlement run {run_id} is held by another worker")
        if run.state == RunState.FAILED:
            raise SettlementFailed(run.error or f"settlement run {run_id} failed")
    return outcome


class SettlementFailed(Exception):
    """The run failed (its error is on the run); the job fails with it, staff retry the run."""


def _shown_later(exc: Exception) -> list[dict]:
    """A refusal or engine error that stopped a run, as stored messages to show in the reader's language
    (its parameters in English where they are labels); [] for a crash, whose text is shown as it is."""
    if isinstance(exc, DrawError):
        with translation.override("en"):
            params = {k: str(v) if isinstance(v, Promise) else v for k, v in exc.params.items()}
        return [stored_message(exc.template, **params)]
    if isinstance(exc, RulesError):
        template, params = domain_message(exc)
        return [stored_message(template, **(dict(exc.params) if params else {}))]
    return []


# ------------------------------------------------------------------------------------------------
# the job
# ------------------------------------------------------------------------------------------------

def claim(run_id: int, worker: str, *, now=None) -> bool:
    """Compare-and-set: take the run if it is free (pending, failed) or its worker is presumed dead."""
    now = now or timezone.now()
    stale = now - dt.timedelta(seconds=_stale_seconds())
    with transaction.atomic():
        taken = (
            SettlementRun.objects.filter(pk=run_id)
            .filter(Q(state__in=[RunState.PENDING, RunState.FAILED]) | Q(state=RunState.RUNNING, heartbeat_at__lt=stale))
            .update(state=RunState.RUNNING, claimed_by=worker, claimed_at=now, heartbeat_at=now,
                    attempts=F("attempts") + 1, error="", error_messages=[])
        )
        if taken:
            SettlementRun.objects.filter(pk=run_id, started_at__isnull=True).update(started_at=now)
            audit_record(actor="system:settlement", action="lottery.settlement_claimed", object_type="lottery.settlementrun",
                         object_id=run_id, object_repr=f"settlement run {run_id}", data={"worker": worker})
    return bool(taken)


def after_chunk(run: SettlementRun, done: int) -> None:
    """Hook called after each committed chunk (tests inject a crash here)."""


def _after_chunk(run: SettlementRun, done: int) -> None:
    after_chunk(run, done)  # looked up when called, so that a test's replacement is the one called


def run_settlement(run_id: int, *, worker: str | None = None) -> SettlementRun:
    """Settle a run. Safe to call any number of times, concurrently or after a crash."""
    worker = worker or worker_name()
    if not claim(run_id, worker):
        return SettlementRun.objects.get(pk=run_id)
    run = SettlementRun.objects.select_related("draw__game", "result", "ruleset").get(pk=run_id)
    started = time.monotonic()
    laps = [("claim", started)]
    held = Claim(run, worker, on_chunk=_after_chunk)
    try:
        strategy = _preconditions(run)
        _winners_partition(run)
        laps.append(("preconditions", time.monotonic()))
        checked = None
        if strategy.parallel_ok and parallelism() > 1:
            # PostgreSQL outside a transaction, more than one worker connection: path B reads the
            # chunks on the worker connections while path A counts on this one.
            checked = strategy.count_and_write(held)
            laps.append(("counting (A) beside reading (B), engine, writing winners, check", time.monotonic()))
        else:
            if run.engine_result is None:
                strategy.count(held)
                laps.append(("counting and engine", time.monotonic()))
            strategy.write(held)
            laps.append(("writing winners", time.monotonic()))
        _check_and_finish(held, strategy, started, checked)
        laps.append(("check and finish", time.monotonic()))
        log.info("settlement run %s: %s", run_id,
                 ", ".join(f"{name} {end - begin:.3f} s" for (_, begin), (name, end) in zip(laps, laps[1:])))
    except LostClaim:
        log.warning("settlement run %s: claim lost, stopping", run_id)
    except SettlementHalted:
        pass
    except Exception as exc:  # noqa: BLE001 - recorded on the run and in the audit trail
        if not isinstance(exc, (DrawError, RulesError, UnsupportedGame)):
            log.exception("settlement run %s failed", run_id)
        _fail(run, worker, exc)
    run.refresh_from_db()
    return run


def _winners_partition(run: SettlementRun) -> None:
    """PostgreSQL: the run's own partition of lottery_winning (migration 0006), made and attached
    before any winner is written, with only the unique (run, line) index; the indexes the winners
    list reads are built once the run is settled (`_winners_indexes`)."""
    if connection.vendor != "postgresql":
        return
    name = f"lottery_winning_r{int(run.pk)}"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT relispartition FROM pg_class WHERE relname = %s"
                       " AND relnamespace = current_schema()::regnamespace", [name])
        row = cursor.fetchone()
        if row is not None and row[0]:
            return
        if row is None:
            cursor.execute(f"CREATE TABLE {name} (LIKE lottery_winning INCLUDING DEFAULTS)")
        cursor.execute(f"ALTER TABLE lottery_winning ATTACH PARTITION {name} FOR VALUES IN ({int(run.pk)})")


def _fail(run: SettlementRun, worker: str, exc: Exception) -> None:
    with translation.override("en"):
        message = str(exc) or type(exc).__name__
    with transaction.atomic():
        n = SettlementRun.objects.filter(pk=run.pk, claimed_by=worker, state=RunState.RUNNING).update(
            state=RunState.FAILED, error=message[:2000], error_messages=_shown_later(exc)
        )
        if n:
            audit_record(actor="system:settlement", action="lottery.settlement_failed", obj=run,
                         data={"error": message[:2000], "phase": run.phase, "worker": worker})


def _preconditions(run: SettlementRun):
    """The settlement strategy of the draw's game, once the draw may be settled now."""
    # draws imports this module at its top (it queues the runs); read here, when a run starts.
    from .draws import previous_draw

    draw = run.draw
    strategy = registry.get(draw.game.code).settlement
    if draw.state not in (DrawState.RESULT_CONFIRMED, DrawState.CORRECTED):
        raise DrawStateError(_("%(draw)s is %(state)s; it is not waiting for settlement."), draw=str(draw),
                             state=DrawState(draw.state).label)
    prev = previous_draw(draw)
    if prev is not None and prev.state not in (DrawState.SETTLED, DrawState.APPROVED, DrawState.PAID):
        raise DrawStateError(_("%(previous)s must be settled first: its rollovers pass to %(draw)s."),
                             previous=str(prev), draw=str(draw))
    return strategy


def _check_and_finish(held: Claim, strategy, started: float,
                      done: Check | None = None) -> None:
    """Check the written winners (the strategy's check; `done`: already checked, beside the index
    builds) and, when they agree, finish the run in one transaction."""
    # draws imports this module at its top (it queues the runs); read here, when a run finishes.
    from .draws import hand_over_rollover

    run = held.run
    if done is None:
        with transaction.atomic():
            held.own(phase=RunPhase.CHECKING)
        done = strategy.check(run)
    checked, problems = done
    if problems:
        held.halt(problems, checked)
    tiers = list(run.tiers.all())
    paid = sum(t.paid_cents for t in tiers)
    breakage = sum(t.breakage_cents for t in tiers)
    winners = sum(v["winners"] for v in checked.values())
    with transaction.atomic():
        winners_indexes(run)
        now = timezone.now()
        held.own(state=RunState.SETTLED, phase=RunPhase.DONE, check_counts=checked, finished_at=now,
             winners_count=winners, paid_cents=paid, breakage_cents=breakage,
             duration_ms=int((time.monotonic() - started) * 1000))
        SettlementRun.objects.filter(draw=run.draw, state=RunState.SETTLED).exclude(pk=run.pk).update(
            state=RunState.SUPERSEDED
        )
        draw = Draw.objects.select_for_update().get(pk=run.draw_id)
        before = draw.state
        draw.state = DrawState.SETTLED
        draw.save(update_fields=["state", "updated_at"])
        audit_record(
            actor="system:settlement", action="lottery.draw_settled", obj=draw,
            before={"state": before}, after={"state": DrawState.SETTLED},
            data={"run": run.pk, "version": run.version, "lines": run.lines_count, "winners": winners,
                  "paid_cents": paid, "breakage_cents": breakage, "turnover_cents": run.turnover_cents,
                  "previous_version": run.previous.version if run.previous_id else None},
        )
        # payouts imports this module at its top (settled_run); read here, when a run has settled.
        from .payouts import settlement_request_approval

        settlement_request_approval(run=run, draw=draw)  # four eyes: a person approves it for payout
        rollover = {t.class_key: t.rollover_out_cents for t in tiers if t.rollover_out_cents}
        if rollover or draw.rollover_to.exists():
            hand_over_rollover(actor="system:settlement", source=draw, rollover=rollover,
                               reason=f"settlement v{run.version}")

