"""The verification job of a batch of recorded rounds (DESIGN §3b; docs/casino-operations.md).

Each round is recomputed by its family's verification strategy (casino.games) with the rule version
in force at the round's time (or the table's pinned version) and the table's limits; identified
players are screened (age, exclusion registers, self-exclusion: compliance.screening) at the round's
time.

Work goes in chunks of round ids. A chunk's verifications, its discrepancies with their significant
audit events and the batch's counters are written in one transaction; a round's verification is its
own record of being done (one row per round, its primary key the round's), so a chunk reads only
rounds without one: a second run changes nothing and a killed run resumes with the chunks not yet
written. On PostgreSQL, outside a transaction, several processes share the chunks
(`CASINO_VERIFY_PROCESSES`): the job's own and processes it forks, each with its own connection,
taking the next chunk from a shared counter; a chunk written by another process meanwhile (a
process of a run presumed dead) is refused by that primary key and rolled back whole. Memory stays
bounded by the chunk and the per-process caches of the engines' answers.
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import F, Max, Min, TextField, Value
from django.db.models.functions import Cast, Greatest
from django.utils import timezone

from casino.games import spec as game_spec
from casino.games.registry import family_of
from compliance.audit import audit_record
from compliance.jobs import progress
from compliance.models import ScreeningDecision
from compliance.screening import screen
from players.models import Person

from . import jackpot_accrual
from .models import (
    CasinoRuleVersion,
    Discrepancy,
    RecordedRound,
    RoundBatch,
    RoundVerification,
    TableVersion,
    Venue,
)
from .operations import engine_venue

CHUNK = 2_000
ACTOR = "system:casino_verification"
#: A process that has written no chunk for this long while others wait for it is stopped and its
#: chunks are taken over (a chunk takes a second or two).
STALL_SECONDS = 300


class _Table:
    """What the rounds of one table version share: its venue, frame and the versions of its rules."""

    __slots__ = ("version", "venue", "frame", "frame_key", "rule_versions")

    def __init__(self, version: TableVersion, venue: Venue, rule_versions: list[CasinoRuleVersion]) -> None:
        self.version = version
        self.venue = venue
        self.frame = engine_venue(venue, version)
        self.frame_key = game_spec.canonical(self.frame)
        self.rule_versions = rule_versions  # newest first


class _Context:
    """What a batch's rounds share, loaded once per process: tables, rule versions, families, players."""

    def __init__(self) -> None:
        self.tables: dict[int, _Table] = {}
        self.versions: dict[tuple[str, str, str], list[CasinoRuleVersion]] = {}
        self.venues: dict[int, Venue] = {}
        self.families: dict[str, Any] = {}
        self.screened: dict[tuple[int, dt.date], tuple[bool, str]] = {}

    def table(self, table_version_id: int, venue_id: int, game: str) -> _Table:
        table = self.tables.get(table_version_id)
        if table is None:
            version = TableVersion.objects.get(pk=table_version_id)
            if venue_id not in self.venues:
                self.venues[venue_id] = Venue.objects.get(pk=venue_id)
            venue = self.venues[venue_id]
            key = (venue.rulebook, game, version.variant)
            if key not in self.versions:
                self.versions[key] = list(CasinoRuleVersion.objects.filter(
                    rulebook=key[0], game=key[1], variant=key[2]).order_by("-effective_from"))
            table = self.tables[table_version_id] = _Table(version, venue, self.versions[key])
        return table

    def table_version(self, pk: int) -> TableVersion:
        """A table version by its id (casino.jackpot_accrual asks; the round's table is loaded by then)."""
        table = self.tables.get(pk)
        return table.version if table is not None else TableVersion.objects.get(pk=pk)

    def venue(self, pk: int) -> Venue:
        if pk not in self.venues:
            self.venues[pk] = Venue.objects.get(pk=pk)
        return self.venues[pk]

    def rule_version(self, table: _Table, when: dt.datetime) -> CasinoRuleVersion | None:
        pinned = table.version.rule_version_id
        if pinned is not None:
            return next((v for v in table.rule_versions if v.pk == pinned), None)
        return next((v for v in table.rule_versions if v.effective_from <= when), None)

    def family(self, game: str):
        family = self.families.get(game)
        if family is None:
            family = self.families[game] = family_of(game)
        return family

    def screen(self, person: Person, when: dt.datetime) -> tuple[bool, str]:
        key = (person.pk, timezone.localtime(when).date())
        if key not in self.screened:
            decision = screen(person, ScreeningDecision.Action.REGISTER, now=when, actor=ACTOR)
            self.screened[key] = (decision.allowed, ", ".join(decision.codes))
        return self.screened[key]


def _age(birth: dt.date, on: dt.date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def _json(text: str) -> Any:
    """A JSON column read as text (orjson; the standard library for what orjson does not read, e.g.
    an integer beyond 64 bits)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _when(text: str) -> dt.datetime:
    """A timestamp column read as text (the database's ISO form, in UTC on the job's connection)."""
    value = dt.datetime.fromisoformat(text)
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)  # SQLite keeps UTC without a zone


#: What the job reads of a round: tuples, not model instances (a chunk's rows are many), and the JSON
#: columns and the time as text, decoded here (several times faster than the database driver's and
#: Django's decoding, which turns each timestamp in Python).
FIELDS = ("pk", "venue_id", "table_version_id", "game", "played_at", "day", "bets", "outcome", "paid_cents")
_AS_TEXT = {name: Cast(name, TextField()) for name in ("played_at", "bets", "outcome", "paid_cents")}


class _Row:
    __slots__ = FIELDS

    def __init__(self, values) -> None:
        (self.pk, self.venue_id, self.table_version_id, self.game, played_at, self.day, bets, outcome,
         paid) = values
        self.played_at = _when(played_at)
        self.bets, self.outcome, self.paid_cents = _json(bets), _json(outcome), _json(paid)


def _compute(r, ctx: _Context, persons: dict[int, Person], *, screen_players: bool = True, answer: bool = False):
    """(rule version, verdict, findings) of one round: the family's verification with the table's frame
    and the rule version in force at the round's time; identified players screened at that time."""
    table = ctx.table(r.table_version_id, r.venue_id, r.game)
    version = ctx.rule_version(table, r.played_at)
    findings: list[game_spec.Finding] = []
    bets = r.bets
    identified = False
    for bet in bets:
        if "person" in bet:
            identified = True
            break
    if identified:
        bets = []
        day = timezone.localtime(r.played_at).date()
        for index, bet in enumerate(r.bets):
            person_id = bet.get("person")
            clean = {k: v for k, v in bet.items() if k != "person"}
            if person_id is not None and person_id in persons:
                person = persons[person_id]
                clean["player"] = f"person-{person_id}"
                clean["player_age"] = _age(person.birth_date, day)
                if screen_players:
                    allowed, codes = ctx.screen(person, r.played_at)
                    if not allowed:
                        findings.append(game_spec.Finding(game_spec.PLAYER_REFUSED, index, None, codes))
            bets.append(clean)
    paid = [int(c) for c in r.paid_cents]
    if version is None:
        verdict = game_spec.Verdict(None, None, [game_spec.Finding(
            game_spec.UNVERIFIABLE, None, None, "no rule version in force at the round's time")])
    else:
        verdict = ctx.family(r.game).verification.verify(
            rulebook=table.venue.rulebook, game=r.game, variant=table.version.variant, rules=version.rules,
            venue=table.frame, bets=bets, outcome=r.outcome, paid_cents=paid, rules_key=version.rules_sha256,
            venue_key=table.frame_key, answer=answer)
    findings.extend(verdict.findings)
    return version, verdict, findings


def _verify_chunk(rounds: list[_Row], ctx: _Context, persons: dict[int, Person],
                  pots: jackpot_accrual.Pots | None = None):
    """The chunk's verifications as (round, rule version, due total, difference, ok, voided excess,
    capped excess), its discrepancies (unsaved) and its jackpots' share (None without jackpots).

    A round at a table linked to a jackpot is computed whole, with the engine's answer, whose bets the
    jackpot's accrual reads (stakes taking part, jackpot wins); every other round as cheaply as the
    verification strategy can (casino.games.spec)."""
    verifications, discrepancies, verdicts = [], [], []
    for r in rounds:
        linked = pots is not None and pots.version_for(
            ctx.table(r.table_version_id, r.venue_id, r.game).version.table_id, r.played_at) is not None
        version, verdict, findings = _compute(r, ctx, persons, answer=linked)
        verdicts.append(verdict)
        verifications.append([r.pk, None if version is None else version.pk, verdict.due_total_cents,
                              verdict.difference_cents, not findings, verdict.voided_excess_cents,
                              verdict.capped_excess_cents])
        for f in findings:
            discrepancies.append(Discrepancy(round_id=r.pk, venue_id=r.venue_id, day=r.day, kind=f.kind,
                                             bet_index=f.bet_index, amount_cents=f.amount_cents, detail=f.detail[:2000]))
    accrued = pots.accrue(rounds, verdicts, ctx) if pots is not None else None
    if accrued:
        discrepancies += accrued.discrepancies
        found = {d.round_id for d in accrued.discrepancies}
        for v in verifications:
            v[4] = v[4] and v[0] not in found
    return verifications, discrepancies, accrued


def round_result(r: RecordedRound) -> dict[str, Any]:
    """What the round page shows: the engine's answer, the due payout per bet and the rule version,
    recomputed as the job computed them (the engines are pure; players are not screened again here:
    the job's findings are the discrepancies)."""
    wanted = {b["person"] for b in r.bets if b.get("person") is not None}
    version, verdict, _findings = _compute(r, _Context(), Person.objects.in_bulk(wanted) if wanted else {},
                                           screen_players=False, answer=True)
    return {"rule_version": version, "due": verdict.due_cents, "answer": verdict.answer,
            "difference": verdict.difference_cents}


# -------------------------------------------------------------------------------------------- chunks


def _pending(batch: RoundBatch) -> list[tuple[int, int]]:
    """The id ranges (first, last) of the chunks holding rounds of the batch not yet verified."""
    base = batch.first_round_id or 0
    return list(RecordedRound.objects.filter(batch_id=batch.pk, verification__isnull=True)
                .annotate(chunk=(F("id") - Value(base)) / Value(CHUNK)).values("chunk")
                .annotate(first=Min("id"), last=Max("id")).order_by("chunk").values_list("first", "last"))


def _read(batch_id: int, first: int, last: int) -> list[_Row]:
    return [_Row(v) for v in RecordedRound.objects.filter(
        batch_id=batch_id, id__gte=first, id__lte=last, verification__isnull=True).order_by("id")
        .values_list(*(_AS_TEXT.get(name, name) for name in FIELDS))]


def read_only(batch_id: int) -> int:
    """Read and decode every round of a batch as the job reads them, computing nothing: the floor the
    benchmark compares the job with (`bench_rounds`, read_s). The number of rounds read."""
    count = 0
    for values in (RecordedRound.objects.filter(batch_id=batch_id).order_by("id")
                   .values_list(*(_AS_TEXT.get(name, name) for name in FIELDS)).iterator(chunk_size=CHUNK)):
        _Row(values)
        count += 1
    return count


def _write(batch_id: int, rounds: list[_Row], verifications: list[list], discrepancies: list[Discrepancy],
           accrued: jackpot_accrual.Accrued | None = None) -> bool:
    """A chunk's results, in one transaction; False when another process wrote one of its rounds
    meanwhile (nothing of this chunk is then written)."""
    now = timezone.now()
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor, connection.wrap_database_errors, cursor.cursor.copy(
                        f"COPY {RoundVerification._meta.db_table} (round_id, rule_version_id, due_total_cents, "
                        "difference_cents, ok, voided_excess_cents, capped_excess_cents, verified_at) "
                        "FROM STDIN") as copy:
                    for v in verifications:
                        copy.write_row((*v, now))
            else:
                RoundVerification.objects.bulk_create([
                    RoundVerification(round_id=pk, rule_version_id=version, due_total_cents=due, difference_cents=diff,
                                      ok=ok, voided_excess_cents=voided, capped_excess_cents=capped, verified_at=now)
                    for pk, version, due, diff, ok, voided, capped in verifications])
            for d in Discrepancy.objects.bulk_create(discrepancies):
                audit_record(actor=ACTOR, action="casino.discrepancy_found", obj=d, significant=True,
                             object_repr=f"round {d.round_id}: {d.kind}",
                             data={"round": d.round_id, "venue": d.venue_id, "day": d.day.isoformat(), "kind": d.kind,
                                   "bet": d.bet_index, "amount_cents": d.amount_cents, "detail": d.detail})
            if accrued:  # the jackpots' share of the chunk, in its transaction (casino.jackpot_accrual)
                jackpot_accrual.write(accrued, actor=ACTOR)
            RoundBatch.objects.filter(pk=batch_id).update(  # last: the batch's row is locked until the commit
                verified=F("verified") + len(rounds), discrepancies=F("discrepancies") + len(discrepancies),
                verified_upto=Greatest(F("verified_upto"), Value(rounds[-1].pk)))
    except IntegrityError:
        return False
    return True


def _work(batch: RoundBatch, chunks: list[tuple[int, int]], take: Callable[[], int | None],
          done: Callable[[], None] | None = None, report: bool = True) -> None:
    """Verify the chunks `take()` hands out (their index; None: no more), one transaction each."""
    ctx = _Context()
    pots = jackpot_accrual.Pots.load()  # None without jackpots: nothing more to do per chunk
    while (index := take()) is not None:
        rounds = _read(batch.pk, *chunks[index])
        if rounds:
            wanted = {b["person"] for r in rounds for b in r.bets if b.get("person") is not None}
            persons = Person.objects.in_bulk(wanted) if wanted else {}
            verifications, discrepancies, accrued = _verify_chunk(rounds, ctx, persons, pots)
            _write(batch.pk, rounds, verifications, discrepancies, accrued)
        if done is not None:
            done()
        if report:
            progress(RoundBatch.objects.filter(pk=batch.pk).values_list("verified", flat=True).first() or 0,
                     batch.rounds)


def processes(chunks: int) -> int:
    """How many processes verify a batch: several only on PostgreSQL and outside a transaction (the
    other connections could not see its rows), never more than there are chunks."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, min(int(getattr(settings, "CASINO_VERIFY_PROCESSES", 1)), chunks))


def verify_batch(batch_id: int, *, workers: int | None = None) -> dict:
    """Verify the rounds of a batch not yet verified (safe to run again, and after a crash: it goes on
    with the chunks not yet written). `workers`: the number of processes (default: `processes`)."""
    batch = RoundBatch.objects.get(pk=batch_id)
    if batch.state == RoundBatch.State.VERIFIED:
        return {"batch": batch.pk, "verified": batch.verified, "discrepancies": batch.discrepancies}
    RoundBatch.objects.filter(pk=batch.pk, state=RoundBatch.State.PENDING).update(state=RoundBatch.State.VERIFYING)
    chunks = _pending(batch)
    n = processes(len(chunks)) if workers is None else max(1, min(workers, processes(len(chunks))))
    if n > 1 and chunks:
        _side_by_side(batch, chunks, n)
        chunks = _pending(batch)  # what a process that failed left (none when all went well)
    while chunks:  # in this process; again for a chunk another process wrote part of meanwhile
        taken = iter(range(len(chunks)))
        _work(batch, chunks, lambda: next(taken, None))
        left = _pending(batch)
        if left == chunks:
            raise RuntimeError(f"{batch}: no chunk could be written (rounds {chunks[0][0]}-{chunks[-1][1]})")
        chunks = left
    RoundBatch.objects.filter(pk=batch.pk, state=RoundBatch.State.VERIFYING).update(
        state=RoundBatch.State.VERIFIED, verified_at=timezone.now())
    batch.refresh_from_db()
    return {"batch": batch.pk, "verified": batch.verified, "discrepancies": batch.discrepancies}


# ---------------------------------------------------------------------------------------- processes


def _side_by_side(batch: RoundBatch, chunks: list[tuple[int, int]], n: int) -> None:
    """Verify the chunks in this process and n - 1 forked ones, each taking the next chunk from a
    shared counter. A forked process works on a connection of its own: this process closes its
    connections before forking (no socket is shared) and opens a new one after. A process that
    failed, or that wrote nothing for STALL_SECONDS while this one waits, leaves its chunks to the
    caller (`verify_batch` reads what is still pending and does it)."""
    shared = multiprocessing.get_context("fork")
    handed, written = shared.Value("q", 0), shared.Value("q", 0)

    def take() -> int | None:
        with handed.get_lock():
            index = handed.value
            if index >= len(chunks):
                return None
            handed.value = index + 1
            return index

    def done() -> None:
        with written.get_lock():
            written.value += 1

    connections.close_all()
    parent = os.getpid()
    children = []
    for _i in range(n - 1):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the forked process (its work is checked by what it writes)
            _child(lambda: _work(batch, chunks, lambda: take() if os.getppid() == parent else None, done,
                                 report=False))
        children.append(pid)
    try:
        _work(batch, chunks, take, done)
    finally:
        _wait(children, written)


def _child(work: Callable[[], None]) -> None:  # pragma: no cover - runs in the forked process
    """The forked process: default signal handlers (not the job worker's), its own connection, and
    an exit that runs nothing of the parent's (no atexit, no finalizers of inherited objects)."""
    code = 1
    try:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_DFL)
        work()
        code = 0
    except BaseException:  # noqa: BLE001 - reported, and the parent takes the chunk over
        traceback.print_exc(file=sys.stderr)
    finally:
        try:
            connections.close_all()
        finally:
            os._exit(code)


def _wait(children: list[int], written) -> None:
    """Wait for the forked processes; one that writes nothing for STALL_SECONDS is stopped."""
    alive = set(children)
    seen, since = written.value, time.monotonic()
    while alive:
        for pid in list(alive):
            if os.waitpid(pid, os.WNOHANG)[0]:
                alive.discard(pid)
        if not alive:
            break
        if written.value != seen:
            seen, since = written.value, time.monotonic()
        elif time.monotonic() - since > STALL_SECONDS:
            for pid in alive:
                os.kill(pid, signal.SIGKILL)
            for pid in alive:
                os.waitpid(pid, 0)
            break
        time.sleep(0.05)
