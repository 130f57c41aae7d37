"""The set-based bitmask settlement strategy (DESIGN §3 steps 2-4): `BitmaskSettlement`, the strategy
of the number games (Lotto, Eurojackpot, Vikinglotto, Milli; their specs say so), asked by
`lottery.services.settlement` (which claims the run, checks its preconditions and finishes it).

1. counting: tier counts, turnover and stakes in one set-based query (path A, `lottery.matching`);
   the prize engine turns them into prizes; tier results and the chunk plan (from the import
   records and the sequence-numbered lines) are stored.
2. writing: for each chunk of line ids, the winning lines are inserted with their prizes (path B)
   and the chunk is marked done, in one transaction: a chunk is written exactly once. On PostgreSQL
   (`count_and_write`, ``parallel_ok``) worker connections read the chunks with path B while path A
   counts, hold the winners in a temporary table of their session, and write them once the prizes
   are known.
3. checking: winners per class, boosted winners and money per class, counted from the written rows,
   must equal path A and the engine (`lottery.pipeline.check_written`).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy

from compliance.money import plain_cents

from ..matching import (
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
from ..models import RunPhase, SettlementChunk, SettlementRun, TierResult
from ..pipeline import (
    PLAN_MISMATCH,
    WINNERS_INDEXES,
    Check,
    Claim,
    cents,
    check_written,
    chunk_lines,
    chunks_of,
    parallelism,
    plan_imports,
    problem,
    winners_indexes,
)
from ..rules.jsonio import calculate_round
from .numbers import NumberCodec


def count(game: NumberCodec, claim: Claim) -> None:
    run, result = claim.run, claim.run.result
    with transaction.atomic():
        claim.own(phase=RunPhase.COUNTING)
    drawn = Drawn(result.main_mask, result.additional_mask, result.secondary_mask, result.plus)
    ranges, planned = plan(run)
    store_engine(game, claim, path_a(game, run, drawn), planned, chunks_of(run, ranges))


def path_a(game: NumberCodec, run: SettlementRun, drawn: Drawn) -> list[tuple[Features, int, int, int]]:
    """Path A over the draw's lines: ((h, s, a, p) features, lines, stakes, add-on stakes) per group."""
    draw, params = run.draw, run.ruleset.params
    with connection.cursor() as cursor:
        cursor.execute(path_a_counts_sql(game, params, drawn, draw.pk))
        return path_a_groups(cursor.fetchall(), game, params, drawn)


def plan(run: SettlementRun) -> tuple[list[tuple[int, int]], int]:
    """The id ranges of the draw's lines and how many lines they hold: the range of the lines numbered
    by the table's own sequence (one small query) and the range each COPY retail import owns (from
    its record). Path A's count of the draw's lines must come to the same total."""
    draw = run.draw
    with connection.cursor() as cursor:
        cursor.execute(direct_lines_sql(draw.pk))
        direct, direct_lo, direct_hi = cursor.fetchone()
    ranges = [(direct_lo, direct_hi)] if direct else []
    planned = int(direct or 0) + plan_imports(run, ranges)
    return sorted(ranges), planned


def store_engine(game: NumberCodec, claim: Claim, groups, planned: int,
                 chunks: list[SettlementChunk] | None) -> None:
    """Path A's groups ((h, s, a, p) features, lines, stakes, add-on stakes) -> the tier counts by the
    engine-derived class table -> the engine; store its result and the tier results (and the chunks,
    when given) in one transaction."""
    run = claim.run
    table = engine_class_table(game, run.ruleset.params)
    counts: dict[str, dict[str, int]] = {}
    lines = turnover = addon = 0
    for (h, s, a, p), n, stake, addon_stake in groups:
        try:
            code = classify_group(table, h, s, a, p)
        except KeyError:
            claim.halt([problem(gettext_lazy("%(n)s lines have an impossible combination (hits %(hits)s, additional "
                                  "%(additional)s, secondary %(secondary)s, plus %(plus)s)"),
                                n=n, hits=h, additional=a, secondary=s, plus=p)], {})
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
        claim.halt([problem(PLAN_MISMATCH, planned=planned, lines=lines)], {})
    engine_input = _engine_input(game, run, counts, turnover, addon, lines)
    engine_result = calculate_round(engine_input, run.ruleset.params)
    tiers = _tiers(run, engine_result, counts)
    with transaction.atomic():
        claim.own()
        TierResult.objects.filter(run=run).delete()
        TierResult.objects.bulk_create(tiers)
        fields: dict[str, Any] = dict(
            tier_counts=counts, engine_input=engine_input, engine_result=engine_result, lines_count=lines,
            turnover_cents=turnover, addon_turnover_cents=addon, phase=RunPhase.WRITING,
        )
        if chunks is not None:
            SettlementChunk.objects.filter(run=run).delete()
            SettlementChunk.objects.bulk_create(chunks)
            fields.update(chunk_size=chunk_lines(), chunks_total=len(chunks), chunks_done=0)
        claim.own(**fields)
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


def write(game: NumberCodec, claim: Claim) -> None:
    run = claim.run
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
            sql = path_b_insert_sql(game, run.ruleset.params, drawn, draw.pk, run.pk, prizes, lo, hi,
                                    connection.vendor)
            with connection.cursor() as cursor:
                cursor.execute(sql)
                written = cursor.rowcount
            SettlementChunk.objects.filter(pk=pk).update(done_at=timezone.now(), winners=written)
            claim.own(chunks_done=F("chunks_done") + 1)
        claim.chunk_written()

    threads = min(parallelism(), len(pending))
    if threads <= 1:
        for chunk in pending:
            write_chunk(*chunk)
        return
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


def _engine_input(game: NumberCodec, run: SettlementRun, counts: dict[str, dict[str, int]], turnover: int, addon: int,
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
    if game.engine_wants_lines:
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


def count_and_write(game: NumberCodec, claim: Claim) -> Check:
    """Path A and path B side by side, on LOTTERY_SETTLEMENT_WORKERS + 1 connections; returns the
    check (`check`) of the written winners.

    The worker connections are opened first (each with its temporary table) while this connection
    plans the chunks (import records and the sequence-numbered lines, one small query). Each worker
    connection then takes every n-th pending chunk and keeps path B's winners of it in the temporary
    table of its session (`path_b_hold_sql`), while this connection counts with path A and runs the
    engine (tier results stored, as in `count`). With the prizes known, each worker writes its
    chunks' winners with their prizes and marks each chunk done, one transaction per chunk
    (`path_b_release_sql`); once every chunk is written the workers build the winners list's
    indexes, one each, while this connection checks the written winners against path A.

    A crash or kill at any point: nothing is written before the engine's result is stored, and the
    held winners go with their session; a rerun plans again if the engine's result is missing, else
    reads and writes the chunks not yet done. The unique (run, line) index forbids a double insert."""
    run = claim.run
    result = run.result
    drawn = Drawn(result.main_mask, result.additional_mask, result.secondary_mask, result.plus)
    crew = _Crew(game, claim, drawn, parallelism())  # connecting while the chunks are planned
    prizes = None
    checked: Check | None = None
    try:
        planned = None
        if run.engine_result is None:
            with transaction.atomic():
                claim.own(phase=RunPhase.COUNTING)
            ranges, planned = plan(run)
            chunks = chunks_of(run, ranges)
            with transaction.atomic():
                claim.own()
                SettlementChunk.objects.filter(run=run).delete()
                SettlementChunk.objects.bulk_create(chunks)
                claim.own(chunk_size=chunk_lines(), chunks_total=len(chunks), chunks_done=0)
            run.chunk_size, run.chunks_total, run.chunks_done = chunk_lines(), len(chunks), 0
        pending = list(SettlementChunk.objects.filter(run=run, done_at__isnull=True).order_by("lo")
                       .values_list("pk", "lo", "hi"))
        crew.assign(pending)  # each worker takes every n-th chunk and starts reading
        if planned is not None:
            store_engine(game, claim, path_a(game, run, drawn), planned, None)
        prizes = prize_map(run.engine_result)
        crew.release(prizes)
        if crew.wait_written():  # every chunk written: check them while the workers index them
            with transaction.atomic():
                claim.own(phase=RunPhase.CHECKING)
            checked = check(game, run)
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

    def __init__(self, game: NumberCodec, claim: Claim, drawn: Drawn, size: int):
        self.game, self.claim, self.drawn, self.size = game, claim, drawn, max(1, size)
        run = self.run = claim.run
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
                    cursor.execute(path_b_hold_sql(self.game, run.ruleset.params, self.drawn, draw.pk, pk, lo, hi))
            self.go.wait()
            if self.prizes is None:
                self.all_written.abort()
                return
            for pk, _lo, _hi in chunks:
                self._release(pk)
            self.all_written.wait()
            # Every chunk is written: the winners list's indexes of the run, one per worker (the first
            # also takes the statistics, once the other's index is built).
            winners_indexes(run, tuple(WINNERS_INDEXES)[index::self.size], analyze=index == 0)
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
        run = self.run
        with transaction.atomic():
            if not SettlementChunk.objects.select_for_update().filter(pk=pk, done_at__isnull=True).exists():
                return  # written meanwhile by the worker we took over from
            with connection.cursor() as cursor:
                cursor.execute(path_b_release_sql(run.pk, self.prizes, pk))
                written = cursor.rowcount
            SettlementChunk.objects.filter(pk=pk).update(done_at=timezone.now(), winners=written)
            self.claim.own(chunks_done=F("chunks_done") + 1)
        self.claim.chunk_written()


def check(game: NumberCodec, run: SettlementRun) -> Check:
    return check_written(run, str, "boosted", int)


class BitmaskSettlement:
    """The set-based strategy (`lottery.games.spec.SettlementStrategy`) of a number game: bitmask
    lines classified in SQL by bit_count (path A from a table derived from the engine, path B from the
    digest's tables written out by hand in the game's module)."""

    parallel_ok = True  # PostgreSQL: path B reads the chunks on worker connections while path A counts

    def __init__(self, codec: NumberCodec):
        self.codec = codec

    def count(self, claim: Claim) -> None:
        count(self.codec, claim)

    def write(self, claim: Claim) -> None:
        write(self.codec, claim)

    def count_and_write(self, claim: Claim) -> Check:
        return count_and_write(self.codec, claim)

    def check(self, run: SettlementRun) -> Check:
        return check(self.codec, run)
