"""Settlement of a draw (DESIGN §3): claimed, counted, written in chunks, checked, finished.

A `SettlementRun` row is the source of truth. A worker claims it with a compare-and-set UPDATE
(pending, failed, or running with a stale heartbeat); every later write checks it still holds the
claim. The run records what is done as it is done:

1. counting: tier counts, turnover and stakes in one set-based query (path A, `lottery.matching`);
   the prize engine turns them into prizes; tier results and the chunk plan (from the import
   records and the sequence-numbered lines) are stored.
2. writing: for each chunk of line ids, the winning lines are inserted with their prizes (path B)
   and the chunk is marked done, in one transaction: a chunk is written exactly once. On PostgreSQL
   (`_count_and_write`) worker connections read the chunks with path B while path A counts, hold
   the winners in a temporary table of their session, and write them once the prizes are known.
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
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from compliance.audit import audit_record
from compliance.money import format_cents, plain_cents

from ..formats import NUMBER_GAMES, UnsupportedGame, require_pipeline_game
from ..matching import (
    DIRECT_ID_LIMIT,
    Drawn,
    Features,
    classify_group,
    decode,
    direct_lines_sql,
    engine_class_table,
    held_winners_sql,
    path_a_counts_sql,
    path_a_groups,
    path_b_hold_sql,
    path_b_insert_sql,
    path_b_release_sql,
)
from ..models import (
    Draw,
    DrawResult,
    DrawState,
    RetailImport,
    RunPhase,
    RunState,
    SettlementChunk,
    SettlementRun,
    TierResult,
    Winning,
)
from ..rules.errors import RulesError
from .errors import DrawError, DrawStateError

log = logging.getLogger(__name__)


class LostClaim(Exception):
    """Another worker took the run over (ours was considered dead); stop without writing."""


class SettlementHalted(Exception):
    """The second computation disagrees with the first; the run is halted for staff."""


def _stale_seconds() -> int:
    return int(getattr(settings, "LOTTERY_SETTLEMENT_STALE_SECONDS", 30))


def _chunk_lines() -> int:
    return int(getattr(settings, "LOTTERY_SETTLEMENT_CHUNK_LINES", 500_000))


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def cents(amount: str | None) -> int | None:
    """Engine amount (a decimal string in euros, whole cents) -> integer cents."""
    if amount is None:
        return None
    value = Decimal(amount) * 100
    if value != value.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of cents")
    return int(value)


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
    from compliance.jobs import job_enqueue

    return job_enqueue(kind=SETTLE_KIND, key=job_key(run.pk), args={"run_id": run.pk},
                       actor=actor or "system:settlement")


@transaction.atomic
def settlement_retry(*, actor, run: SettlementRun, restart: bool = False, request=None) -> SettlementRun:
    """Send a failed or halted run back to the queue. A halted run (or `restart=True`) starts again
    from nothing: its own winners, chunks and counts are deleted in this transaction first."""
    run = SettlementRun.objects.select_for_update().get(pk=run.pk)
    if run.state not in (RunState.FAILED, RunState.HALTED):
        raise DrawStateError(f"{run} is {run.get_state_display()}; only a failed or halted run is retried.")
    if restart or run.state == RunState.HALTED:
        _reset(run)
    before = run.state
    run.state = RunState.PENDING
    run.error = ""
    run.save(update_fields=["state", "error"])
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
    from compliance.models import Job

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
    from compliance import jobs
    from compliance.models import Job

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
                    attempts=F("attempts") + 1, error="")
        )
        if taken:
            SettlementRun.objects.filter(pk=run_id, started_at__isnull=True).update(started_at=now)
            audit_record(actor="system:settlement", action="lottery.settlement_claimed", object_type="lottery.settlementrun",
                         object_id=run_id, object_repr=f"settlement run {run_id}", data={"worker": worker})
    return bool(taken)


def _own(run: SettlementRun, worker: str, **fields: Any) -> None:
    """Inside a transaction: prove we still hold the claim (and beat), or stop."""
    n = SettlementRun.objects.filter(pk=run.pk, claimed_by=worker, state=RunState.RUNNING).update(
        heartbeat_at=timezone.now(), **fields
    )
    if n != 1:
        raise LostClaim(f"{run} was taken over by another worker")


def after_chunk(run: SettlementRun, done: int) -> None:
    """Hook called after each committed chunk (tests inject a crash here)."""


def run_settlement(run_id: int, *, worker: str | None = None) -> SettlementRun:
    """Settle a run. Safe to call any number of times, concurrently or after a crash."""
    worker = worker or worker_name()
    if not claim(run_id, worker):
        return SettlementRun.objects.get(pk=run_id)
    run = SettlementRun.objects.select_related("draw__game", "result", "ruleset").get(pk=run_id)
    started = time.monotonic()
    laps = [("claim", started)]
    try:
        _preconditions(run)
        _winners_partition(run)
        laps.append(("preconditions", time.monotonic()))
        checked = None
        if _side_by_side(run):
            checked = _count_and_write(run, worker)
            laps.append(("counting (A) beside reading (B), engine, writing winners, check", time.monotonic()))
        else:
            if run.engine_result is None:
                _count(run, worker)
                laps.append(("counting and engine", time.monotonic()))
            _write(run, worker)
            laps.append(("writing winners", time.monotonic()))
        _check_and_finish(run, worker, started, checked)
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


WINNERS_INDEXES = {"class": "run_id, class_no, line_id", "prize": "run_id, prize_cents, line_id"}


def _winners_indexes(run: SettlementRun, which=tuple(WINNERS_INDEXES), analyze: bool = True) -> None:
    """PostgreSQL: index the run's winners once they are all written, for the winners list's keyset
    pages by class and by prize, and give the planner the partition's statistics (a small sample: the
    row count is what matters; autovacuum analyzes it fully later). No index on id: winners are read
    by run and line, class or prize."""
    if connection.vendor != "postgresql" or getattr(run, "winners_indexed", False):
        return
    name = f"lottery_winning_r{int(run.pk)}"
    with connection.cursor() as cursor:
        for key in which:
            cursor.execute(f"CREATE INDEX IF NOT EXISTS {name}_{key} ON {name} ({WINNERS_INDEXES[key]})")
        if analyze:
            with transaction.atomic():
                cursor.execute("SET LOCAL default_statistics_target = 10")
                cursor.execute(f"ANALYZE {name}")


def _fail(run: SettlementRun, worker: str, exc: Exception) -> None:
    message = str(exc) or type(exc).__name__
    with transaction.atomic():
        n = SettlementRun.objects.filter(pk=run.pk, claimed_by=worker, state=RunState.RUNNING).update(
            state=RunState.FAILED, error=message[:2000]
        )
        if n:
            audit_record(actor="system:settlement", action="lottery.settlement_failed", obj=run,
                         data={"error": message[:2000], "phase": run.phase, "worker": worker})


def _preconditions(run: SettlementRun) -> None:
    from .draws import previous_draw

    draw = run.draw
    require_pipeline_game(draw.game.code)
    if draw.state not in (DrawState.RESULT_CONFIRMED, DrawState.CORRECTED):
        raise DrawStateError(f"{draw} is {draw.get_state_display()}; it is not waiting for settlement.")
    prev = previous_draw(draw)
    if prev is not None and prev.state not in (DrawState.SETTLED, DrawState.APPROVED, DrawState.PAID):
        raise DrawStateError(
            f"{prev} must be settled first: its rollovers pass to {draw}."
        )


def _engine_input(run: SettlementRun, counts: dict[str, dict[str, int]], turnover: int, addon: int,
                  lines: int) -> dict[str, Any]:
    draw = run.draw
    params = run.ruleset.params
    classes = [c["class"] for c in params.get("classes", [])]
    data: dict[str, Any] = {
        "game": draw.game.code,
        "rules_version": run.ruleset.version,
        "turnover": plain_cents(turnover),
        "winners": {k: counts.get(k, {}).get("winners", 0) for k in classes},
    }
    if draw.jackpot_cents is not None:
        data["jackpot"] = plain_cents(draw.jackpot_cents)
    if draw.jackpot_to_highest_class:
        data["jackpot_to_highest_class"] = True
    if draw.rollover_in:
        data["rollover_in"] = {str(k): plain_cents(int(v)) for k, v in draw.rollover_in.items()}
    if params.get("plussa"):
        data["plussa"] = {
            "boosted": {k: v["boosted"] for k, v in counts.items() if v.get("boosted")},
            "turnover": plain_cents(addon),
        }
    if draw.game.code == "vikinglotto":
        data["lines_in_draw"] = lines
    data.update(draw.central_inputs or {})
    return data


def prize_map(engine_result: dict[str, Any]) -> dict[int, int]:
    """code (class * 2 + boosted) -> prize in cents per winning line."""
    out: dict[int, int] = {}
    for key, c in engine_result["classes"].items():
        if c.get("winners") and c.get("prize") is not None:
            out[int(key) * 2] = cents(c["prize"])
        if c.get("plussa") and c["plussa"].get("boosted"):
            out[int(key) * 2 + 1] = cents(c["plussa"]["prize"])
    return out


def _count(run: SettlementRun, worker: str) -> None:
    if run.draw.game.code not in NUMBER_GAMES:  # Keno, Jokeri, ...: lottery.games.settlement
        from ..games.settlement import count

        return count(run, worker)
    result = run.result
    with transaction.atomic():
        _own(run, worker, phase=RunPhase.COUNTING)
    drawn = Drawn(result.main_mask, result.additional_mask, result.secondary_mask, result.plus)
    ranges, planned = _plan(run)
    _store_engine(run, worker, _path_a(run, drawn), planned, _chunks(run, ranges))


def _path_a(run: SettlementRun, drawn: Drawn) -> list[tuple[Features, int, int, int]]:
    """Path A over the draw's lines: ((h, s, a, p) features, lines, stakes, add-on stakes) per group."""
    draw, params = run.draw, run.ruleset.params
    with connection.cursor() as cursor:
        cursor.execute(path_a_counts_sql(draw.game.code, params, drawn, draw.pk))
        return path_a_groups(cursor.fetchall(), draw.game.code, params, drawn)


def _plan(run: SettlementRun) -> tuple[list[tuple[int, int]], int]:
    """The id ranges of the draw's lines and how many lines they hold: the range of the lines numbered
    by the table's own sequence (one small query) and the range each COPY retail import owns (from
    its record). Path A's count of the draw's lines must come to the same total."""
    draw = run.draw
    with connection.cursor() as cursor:
        cursor.execute(direct_lines_sql(draw.pk))
        direct, direct_lo, direct_hi = cursor.fetchone()
    ranges = [(direct_lo, direct_hi)] if direct else []
    planned = int(direct or 0)
    for batch, rows in RetailImport.objects.filter(draw=draw, state=RetailImport.State.DONE,
                                                   batch__isnull=False).values_list("batch", "lines"):
        ranges.append((batch * DIRECT_ID_LIMIT + 1, batch * DIRECT_ID_LIMIT + rows))
        planned += rows
    return sorted(ranges), planned


def _chunks(run: SettlementRun, ranges: list[tuple[int, int]]) -> list[SettlementChunk]:
    """Chunks of at most LOTTERY_SETTLEMENT_CHUNK_LINES line ids over the ranges (inclusive)."""
    size = _chunk_lines()
    chunks = []
    for lo, hi in ranges:
        start = lo
        while start <= hi:
            chunks.append(SettlementChunk(run=run, lo=start, hi=min(start + size, hi + 1)))
            start += size
    return chunks


def _store_engine(run: SettlementRun, worker: str, groups, planned: int,
                  chunks: list[SettlementChunk] | None) -> None:
    """Path A's groups ((h, s, a, p) features, lines, stakes, add-on stakes) -> the tier counts by the
    engine-derived class table -> the engine; store its result and the tier results (and the chunks,
    when given) in one transaction."""
    from ..rules.jsonio import calculate_round

    draw = run.draw
    table = engine_class_table(draw.game.code, run.ruleset.params)
    counts: dict[str, dict[str, int]] = {}
    lines = turnover = addon = 0
    for (h, s, a, p), n, stake, addon_stake in groups:
        try:
            code = classify_group(table, h, s, a, p)
        except KeyError:
            _halt(run, worker, [f"{n} lines have an impossible combination (hits {h}, additional {a}, "
                                f"secondary {s}, plus {p})"], {})
        lines += n
        turnover += int(stake or 0)
        addon += int(addon_stake or 0)
        if code is not None:
            key, boosted = decode(int(code))
            slot = counts.setdefault(key, {"winners": 0, "boosted": 0})
            slot["winners"] += n
            if boosted:
                slot["boosted"] += n
    if planned != lines:
        _halt(run, worker, [f"the chunk plan covers {planned} lines, the draw has {lines}"], {})
    engine_input = _engine_input(run, counts, turnover, addon, lines)
    engine_result = calculate_round(engine_input, run.ruleset.params)
    tiers = _tiers(run, engine_result, counts)
    with transaction.atomic():
        _own(run, worker)
        TierResult.objects.filter(run=run).delete()
        TierResult.objects.bulk_create(tiers)
        fields: dict[str, Any] = dict(
            tier_counts=counts, engine_input=engine_input, engine_result=engine_result, lines_count=lines,
            turnover_cents=turnover, addon_turnover_cents=addon, phase=RunPhase.WRITING,
        )
        if chunks is not None:
            SettlementChunk.objects.filter(run=run).delete()
            SettlementChunk.objects.bulk_create(chunks)
            fields.update(chunk_size=_chunk_lines(), chunks_total=len(chunks), chunks_done=0)
        _own(run, worker, **fields)
    for name, value in fields.items():
        setattr(run, name, value)


def _tiers(run: SettlementRun, result: dict[str, Any], counts: dict[str, dict[str, int]]) -> list[TierResult]:
    kinds = {c["class"]: c.get("kind", "") for c in run.ruleset.params.get("classes", [])}
    out = []
    for position, (key, c) in enumerate(result["classes"].items(), start=1):
        plussa = c.get("plussa") or {}
        out.append(TierResult(
            run=run, class_key=key, position=position, label=c["label"], kind=kinds.get(key, ""),
            winners=c["winners"], boosted_winners=plussa.get("boosted", 0) or 0,
            rollover_in_cents=cents(c["rollover_in"]), pool_cents=cents(c["pool"]),
            allocated_cents=cents(c["allocated"]), topup_cents=cents(c["topup"]), extra_cents=cents(c["extra"]),
            prize_cents=cents(c["prize"]) if c["winners"] else None,
            boosted_prize_cents=cents(plussa["prize"]) if plussa.get("boosted") else None,
            paid_cents=cents(c["paid"]), breakage_cents=cents(c["breakage"]) + (cents(plussa.get("breakage")) or 0),
            rollover_out_cents=cents(c["rollover_out"]), capped=bool(c["capped"]),
            merged_with=list(c.get("merged_with") or []),
        ))
    return out


def _parallelism() -> int:
    """Chunks written at once, each by its own connection: only on PostgreSQL, and only outside a
    transaction (other connections could not see its rows)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, int(getattr(settings, "LOTTERY_SETTLEMENT_WORKERS", 1)))


def _write(run: SettlementRun, worker: str) -> None:
    if run.draw.game.code not in NUMBER_GAMES:
        from ..games.settlement import write

        return write(run, worker)
    draw, result = run.draw, run.result
    drawn = Drawn(result.main_mask, result.additional_mask, result.secondary_mask, result.plus)
    prizes = prize_map(run.engine_result)
    pending = list(SettlementChunk.objects.filter(run=run, done_at__isnull=True).order_by("lo").values_list("pk", "lo", "hi"))

    def write_chunk(pk: int, lo: int, hi: int) -> None:
        with transaction.atomic():
            # The claim is proved at the end (one UPDATE of the run row just before commit), so chunks
            # written side by side do not queue on the run row.
            if not SettlementChunk.objects.select_for_update().filter(pk=pk, done_at__isnull=True).exists():
                return  # written meanwhile by the worker we took over from
            sql = path_b_insert_sql(draw.game.code, run.ruleset.params, drawn, draw.pk, run.pk, prizes, lo, hi,
                                    connection.vendor)
            with connection.cursor() as cursor:
                cursor.execute(sql)
                written = cursor.rowcount
            SettlementChunk.objects.filter(pk=pk).update(done_at=timezone.now(), winners=written)
            _own(run, worker, chunks_done=F("chunks_done") + 1)
        done = SettlementChunk.objects.filter(run=run, done_at__isnull=False).count()
        run.chunks_done = done
        after_chunk(run, done)

    threads = min(_parallelism(), len(pending))
    if threads <= 1:
        for chunk in pending:
            write_chunk(*chunk)
        return
    from concurrent.futures import ThreadPoolExecutor

    def in_thread(chunks):
        try:
            for chunk in chunks:
                write_chunk(*chunk)
        finally:
            connection.close()  # this thread's own connection

    # Each connection writes every n-th chunk (the chunks are alike in size).
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"settle-{run.pk}") as pool:
        for future in [pool.submit(in_thread, pending[i::threads]) for i in range(threads)]:
            future.result()


def _side_by_side(run: SettlementRun) -> bool:
    """PostgreSQL outside a transaction, number games, more than one worker connection: path B reads
    the chunks on the worker connections while path A counts on this one (`_count_and_write`)."""
    return run.draw.game.code in NUMBER_GAMES and _parallelism() > 1


def _count_and_write(run: SettlementRun, worker: str) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Path A and path B side by side, on LOTTERY_SETTLEMENT_WORKERS + 1 connections; returns the
    check (`_check`) of the written winners.

    The worker connections are opened first (each with its temporary table) while this connection
    plans the chunks (import records and the sequence-numbered lines, one small query). Each worker
    connection then takes every n-th pending chunk and keeps path B's winners of it in the temporary
    table of its session (`path_b_hold_sql`), while this connection counts with path A and runs the
    engine (tier results stored, as in `_count`). With the prizes known, each worker writes its
    chunks' winners with their prizes and marks each chunk done, one transaction per chunk
    (`path_b_release_sql`); once every chunk is written the workers build the winners list's
    indexes, one each, while this connection checks the written winners against path A.

    A crash or kill at any point: nothing is written before the engine's result is stored, and the
    held winners go with their session; a rerun plans again if the engine's result is missing, else
    reads and writes the chunks not yet done. The unique (run, line) index forbids a double insert."""
    result = run.result
    drawn = Drawn(result.main_mask, result.additional_mask, result.secondary_mask, result.plus)
    crew = _Crew(run, worker, drawn, _parallelism())  # connecting while the chunks are planned
    prizes = None
    checked: tuple[dict[str, dict[str, int]], list[str]] | None = None
    try:
        planned = None
        if run.engine_result is None:
            with transaction.atomic():
                _own(run, worker, phase=RunPhase.COUNTING)
            ranges, planned = _plan(run)
            chunks = _chunks(run, ranges)
            with transaction.atomic():
                _own(run, worker)
                SettlementChunk.objects.filter(run=run).delete()
                SettlementChunk.objects.bulk_create(chunks)
                _own(run, worker, chunk_size=_chunk_lines(), chunks_total=len(chunks), chunks_done=0)
            run.chunk_size, run.chunks_total, run.chunks_done = _chunk_lines(), len(chunks), 0
        pending = list(SettlementChunk.objects.filter(run=run, done_at__isnull=True).order_by("lo")
                       .values_list("pk", "lo", "hi"))
        crew.assign(pending)  # each worker takes every n-th chunk and starts reading
        if planned is not None:
            _store_engine(run, worker, _path_a(run, drawn), planned, None)
        prizes = prize_map(run.engine_result)
        crew.release(prizes)
        if crew.wait_written():  # every chunk written: check them while the workers index them
            with transaction.atomic():
                _own(run, worker, phase=RunPhase.CHECKING)
            checked = _check(run)
    finally:
        crew.release(prizes)  # None: the workers stop without writing
        errors = crew.join()
    if errors:
        raise errors[0]
    if checked is None:  # pragma: no cover - a worker stopped without an error
        raise RuntimeError(f"{run}: the workers stopped before every chunk was written")
    return checked


class _Crew:
    """Worker threads with a database connection each (their own sessions and temporary tables).

    Each opens its connection and temporary table at once, waits for its chunks (`assign`: every
    n-th pending chunk), reads them with path B into its table, waits for the prizes (`release`;
    None stops it), writes its chunks, and, once every worker has written its chunks
    (`wait_written`), builds its share of the winners list's indexes."""

    def __init__(self, run: SettlementRun, worker: str, drawn: Drawn, size: int):
        import threading

        self.run, self.worker, self.drawn, self.size = run, worker, drawn, max(1, size)
        self.parts: list[list[tuple[int, int, int]]] = [[] for _ in range(self.size)]
        self.assigned = threading.Event()
        self.go = threading.Event()
        self.written = threading.Event()
        self.prizes: dict[int, int] | None = None
        self.errors: list[BaseException] = []
        self.all_written = threading.Barrier(self.size, action=self.written.set)
        self.all_indexed = threading.Barrier(self.size)
        self.threads = [threading.Thread(target=self._work, args=(i,), name=f"settle-{run.pk}-{i}", daemon=True)
                        for i in range(self.size)]
        for thread in self.threads:
            thread.start()

    def assign(self, pending: list[tuple[int, int, int]]) -> None:
        self.parts = [pending[i::self.size] for i in range(self.size)]
        self.assigned.set()

    def release(self, prizes: dict[int, int] | None) -> None:
        if not self.go.is_set():
            self.prizes = prizes
            self.assigned.set()
            self.go.set()

    def wait_written(self) -> bool:
        """Wait until every worker has written its chunks (True), or one failed (False)."""
        while not self.written.wait(0.05):
            if self.all_written.broken or not any(thread.is_alive() for thread in self.threads):
                return self.written.is_set()
        return True

    def join(self) -> list[BaseException]:
        for thread in self.threads:
            thread.join()
        return self.errors

    def _work(self, index: int) -> None:
        import threading

        run, draw = self.run, self.run.draw
        try:
            with connection.cursor() as cursor:
                for sql in held_winners_sql():
                    cursor.execute(sql)
                self.assigned.wait()
                chunks = self.parts[index]
                for pk, lo, hi in chunks:
                    if self.go.is_set() and self.prizes is None:
                        break  # stopped before the prizes: nothing more to read
                    cursor.execute(path_b_hold_sql(draw.game.code, run.ruleset.params, self.drawn, draw.pk, pk, lo, hi))
            self.go.wait()
            if self.prizes is None:
                self.all_written.abort()
                return
            for pk, _lo, _hi in chunks:
                self._release(pk)
            self.all_written.wait()
            # Every chunk is written: the winners list's indexes of the run, one per worker (the first
            # also takes the statistics, once the other's index is built).
            _winners_indexes(run, tuple(WINNERS_INDEXES)[index::self.size], analyze=index == 0)
            self.all_indexed.wait()
            if index == 0:
                run.winners_indexed = True
        except threading.BrokenBarrierError:
            pass  # another worker failed: its error is reported
        except BaseException as exc:  # noqa: BLE001 - handed to the coordinating thread
            self.errors.append(exc)
            self.all_written.abort()
            self.all_indexed.abort()
        finally:
            connection.close()  # this thread's own connection, and its temporary table with it

    def _release(self, pk: int) -> None:
        run, worker = self.run, self.worker
        with transaction.atomic():
            if not SettlementChunk.objects.select_for_update().filter(pk=pk, done_at__isnull=True).exists():
                return  # written meanwhile by the worker we took over from
            with connection.cursor() as cursor:
                cursor.execute(path_b_release_sql(run.pk, self.prizes, pk))
                written = cursor.rowcount
            SettlementChunk.objects.filter(pk=pk).update(done_at=timezone.now(), winners=written)
            _own(run, worker, chunks_done=F("chunks_done") + 1)
        done = SettlementChunk.objects.filter(run=run, done_at__isnull=False).count()
        run.chunks_done = done
        after_chunk(run, done)


def _check(run: SettlementRun) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Count the written winners per class (the second computation: winners, boosted or add-on winners
    and money per class, or per cell for the cell games) and compare them with path A's tier counts
    and the engine's paid totals."""
    number_game = run.draw.game.code in NUMBER_GAMES
    if number_game:
        def key_of(class_no: int) -> str:
            return str(class_no)
    else:
        from ..games import codec

        c = codec(run.draw.game.code)

        def key_of(class_no: int) -> str:
            try:
                return c.class_key(int(class_no))
            except ValueError:
                return str(class_no)
    checked: dict[str, dict[str, int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT class_no, boosted, COUNT(*), SUM(prize_cents), MIN(prize_cents) FROM lottery_winning "
            "WHERE run_id = %s GROUP BY class_no, boosted", [run.pk],
        )
        rows = cursor.fetchall()
    problems: list[str] = []
    for class_no, boosted, n, paid, lowest in rows:
        key = key_of(class_no)
        slot = checked.setdefault(key, {"winners": 0, "boosted": 0, "paid_cents": 0})
        slot["winners"] += n
        slot["paid_cents"] += int(paid or 0)
        if boosted:
            slot["boosted"] += n
        if lowest is not None and lowest < 0:
            problems.append(f"class {key}: winners found that the tier counts do not have")
    counted = run.tier_counts or {}
    extra = "boosted" if number_game else "with the add-on"
    for key in sorted(set(counted) | set(checked), key=int if number_game else str):
        a = counted.get(key, {"winners": 0, "boosted": 0})
        b = checked.get(key, {"winners": 0, "boosted": 0, "paid_cents": 0})
        if (a["winners"], a.get("boosted", 0)) != (b["winners"], b["boosted"]):
            problems.append(
                f"class {key}: counted {a['winners']} winners ({a.get('boosted', 0)} {extra}), "
                f"written {b['winners']} ({b['boosted']} {extra})"
            )
    for key, c_ in run.engine_result["classes"].items():
        expected = cents(c_["paid"])
        got = checked.get(key, {}).get("paid_cents", 0)
        # Imported or common classes pay per winner too; every class's paid total is per-winner prizes.
        if expected != got:
            problems.append(f"class {key}: the engine pays {format_cents(expected, language='en')}, "
                            f"the winners add up to {format_cents(got, language='en')}")
    if SettlementChunk.objects.filter(run=run, done_at__isnull=True).exists():
        problems.append("not every chunk of lines was written")
    return checked, problems


def _halt(run: SettlementRun, worker: str, problems: list[str], checked: dict) -> None:
    """Stop the run for staff: the two computations (or the plan and the lines) disagree."""
    with transaction.atomic():
        _own(run, worker, state=RunState.HALTED, check_counts=checked, error="; ".join(problems)[:2000])
        audit_record(actor="system:settlement", action="lottery.settlement_disagreement", obj=run,
                     significant=True,
                     data={"tier_counts": run.tier_counts, "check_counts": checked, "problems": problems})
    raise SettlementHalted("; ".join(problems))


def _check_and_finish(run: SettlementRun, worker: str, started: float,
                      done: tuple[dict[str, dict[str, int]], list[str]] | None = None) -> None:
    """Check the written winners (`_check`; `done`: already checked, beside the index builds) and, when
    they agree, finish the run in one transaction."""
    from .draws import hand_over_rollover

    if done is None:
        with transaction.atomic():
            _own(run, worker, phase=RunPhase.CHECKING)
        done = _check(run)
    checked, problems = done
    if problems:
        _halt(run, worker, problems, checked)
    tiers = list(run.tiers.all())
    paid = sum(t.paid_cents for t in tiers)
    breakage = sum(t.breakage_cents for t in tiers)
    winners = sum(v["winners"] for v in checked.values())
    with transaction.atomic():
        _winners_indexes(run)
        now = timezone.now()
        _own(run, worker, state=RunState.SETTLED, phase=RunPhase.DONE, check_counts=checked, finished_at=now,
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
        from .payouts import settlement_request_approval

        settlement_request_approval(run=run, draw=draw)  # four eyes: a person approves it for payout
        rollover = {t.class_key: t.rollover_out_cents for t in tiers if t.rollover_out_cents}
        if rollover or draw.rollover_to.exists():
            hand_over_rollover(actor="system:settlement", source=draw, rollover=rollover,
                               reason=f"settlement v{run.version}")

