"""Casino operations (issue 19): venues, versioned tables, recorded rounds and their discrepancies.

Every write takes `actor=`, runs in one transaction and records its audit event in it (DESIGN §8).
Rounds arrive over the API, from a file or from an inspector, all through `rounds_record` (all or
nothing, a row-numbered report of what is wrong); each batch is verified by the job
`casino.tasks.verify_batch` (`casino.verification`). docs/casino-operations.md describes it all.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import IO, Any

import orjson
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from casino.games.registry import engine_games, family_of
from casino.rules import registry
from casino.rules.base import EngineError
from casino.rules.venues import LEGAL, WIN_CAP_REQUIRED, venue_from_json
from compliance.audit import audit_record
from compliance.errors import InvalidInput, NotPermitted, StateConflict
from compliance.jobs import job_enqueue
from players.models import Person

from .models import Discrepancy, RecordedRound, RoundBatch, RoundPlayer, Table, TableVersion, Venue

#: Venue type -> (rulebook, legal frame of casino.rules.venues).
VENUE_KINDS: dict[str, tuple[str, str]] = {
    Venue.Kind.GAME_HALL: ("000", "game_hall"),
    Venue.Kind.GAMING_POINT: ("002", "ray"),
    Venue.Kind.CASINO: ("000", "casino"),
    Venue.Kind.FOREIGN_CASINO: ("004", "billionaire"),
}
MAX_ROUNDS_PER_BATCH = 2_000_000
INSERT_CHUNK = 5_000
VERIFY_KIND = "casino.tasks.verify_batch"


def _name(actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def _user(actor):
    return None if isinstance(actor, str) else actor


# ------------------------------------------------------------------------------------------- venues


@transaction.atomic
def venue_create(*, actor, code: str, name: str, kind: str, jurisdiction: str, currency: str = "EUR",
                 min_age: int | None = None, request=None) -> Venue:
    """A venue of a type; its rulebook and legal frame follow from the type, its minimum age may
    only be raised above the frame's (004 S2 §2.9)."""
    if kind not in VENUE_KINDS:
        raise InvalidInput(_("Choose a venue type."), fields={"kind": [_("Choose a venue type.")]})
    rulebook, frame = VENUE_KINDS[kind]
    legal_age = LEGAL[(rulebook, frame)].min_age
    min_age = legal_age if min_age is None else min_age
    if min_age < legal_age:
        raise InvalidInput(_("The minimum age is at least %(age)s at this type of venue."),
                           fields={"min_age": [_("At least %(age)s.") % {"age": legal_age}]}, age=legal_age)
    if Venue.objects.filter(code=code).exists():
        raise StateConflict(_("A venue with this code exists."), fields={"code": [_("This code is taken.")]})
    venue = Venue.objects.create(code=code, name=name, kind=kind, rulebook=rulebook, frame=frame,
                                 jurisdiction=jurisdiction.upper(), currency=currency.upper(), min_age=min_age,
                                 created_by_name=_name(actor))
    audit_record(actor=actor, action="casino.venue_created", obj=venue, request=request,
                 after={"code": code, "name": name, "kind": kind, "rulebook": rulebook, "jurisdiction": venue.jurisdiction,
                        "currency": venue.currency, "min_age": min_age})
    return venue


# ------------------------------------------------------------------------------------------- tables


def engine_venue(venue: Venue, version: TableVersion) -> dict[str, Any]:
    """The table's frame as the engines read it (docs/casino.md, "venue" as an object)."""
    doc: dict[str, Any] = {"kind": venue.frame, "min_age": venue.min_age,
                           "max_stake": {cls: _euros(c) for cls, c in version.max_stake_cents.items()}}
    if version.win_cap_cents is not None:
        doc["win_cap"] = _euros(version.win_cap_cents)
    elif (venue.rulebook, venue.frame) in WIN_CAP_REQUIRED:
        doc["win_cap"] = None  # the rulebook's figure is lost (RAY): the table has none
    return doc


def _euros(amount_cents: int) -> str:
    return f"{amount_cents // 100}.{amount_cents % 100:02d}"


def _check_table(venue: Venue, game: str, variant: str, min_stake_cents: int, max_stake_cents: Mapping[str, int],
                 win_cap_cents: int | None) -> None:
    """Refuse a table whose game, variant or limits the venue's rulebook does not allow, beside the field."""
    try:
        engine = registry.get(venue.rulebook, game)
    except EngineError:
        raise InvalidInput(_("This game is not played under the venue's rulebook."),
                           fields={"game": [_("Not a game of rulebook %(rulebook)s.") % {"rulebook": venue.rulebook}]}) from None
    if variant not in engine.variants:
        raise InvalidInput(_("Choose a variant of the game."), fields={"variant": [_("Not a variant of this game.")]})
    if min_stake_cents <= 0:
        raise InvalidInput(_("The minimum stake must be positive."), fields={"min_stake": [_("Must be positive.")]})
    for cls, amount in max_stake_cents.items():
        if amount < min_stake_cents:
            raise InvalidInput(_("A maximum stake is below the minimum stake."),
                               fields={"max_stake": [_("%(cls)s is below the minimum stake.") % {"cls": cls}]})
    probe = {"kind": venue.frame, "max_stake": {c: _euros(a) for c, a in max_stake_cents.items()}}
    if win_cap_cents is not None:
        probe["win_cap"] = _euros(win_cap_cents)
    elif (venue.rulebook, venue.frame) in WIN_CAP_REQUIRED:
        probe["win_cap"] = None
    try:
        venue_from_json(venue.rulebook, probe)
    except EngineError as exc:
        legal = LEGAL[(venue.rulebook, venue.frame)]
        field = "win_cap" if exc.field.endswith("win_cap") else "max_stake"
        cls = exc.field.rsplit(".", 1)[-1]
        if field == "max_stake" and cls in legal.max_stake:
            message = _("%(cls)s: above the legal maximum %(max)s (%(rule)s).") % {
                "cls": cls, "max": legal.max_stake[cls], "rule": legal.rule}
        elif field == "max_stake":
            message = _("%(cls)s is not a limit class of this venue.") % {"cls": cls}
        else:
            message = _("Above the legal cap (%(rule)s).") % {"rule": legal.rule}
        raise InvalidInput(_("The table's limits exceed what the venue may allow."),
                           fields={field: [message]}, code="table_limits") from None
    leaves_to_table = any(amount is None for amount in LEGAL[(venue.rulebook, venue.frame)].max_stake.values())
    if leaves_to_table and not max_stake_cents:
        raise InvalidInput(_("This venue's rulebook leaves the maxima to the table: give them."),
                           fields={"max_stake": [_("Give the table's maximum for each limit class it uses.")]})


def _version_fields(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: spec.get(k, d) for k, d in (
        ("variant", ""), ("min_stake_cents", 0), ("max_stake_cents", {}), ("win_cap_cents", None),
        ("side_games", []), ("opening_hours", ""), ("payout_sign", ""), ("zero_rule", ""), ("records", ""),
        ("note", ""), ("rule_version", None))}


@transaction.atomic
def table_create(*, actor, venue: Venue, code: str, game: str, effective_from: dt.datetime | None = None,
                 request=None, **config: Any) -> Table:
    """A table with its first version (the configuration fields of `table_version_create`)."""
    fields = _version_fields(config)
    _check_table(venue, game, fields["variant"], fields["min_stake_cents"], fields["max_stake_cents"],
                 fields["win_cap_cents"])
    if Table.objects.filter(venue=venue, code=code).exists():
        raise StateConflict(_("The venue has a table with this code."), fields={"code": [_("This code is taken.")]})
    table = Table.objects.create(venue=venue, code=code, game=game)
    version = TableVersion.objects.create(table=table, version=1, effective_from=effective_from or timezone.now(),
                                          created_by_name=_name(actor), **fields)
    audit_record(actor=actor, action="casino.table_created", obj=table, request=request,
                 after=_version_audit(version))
    return table


@transaction.atomic
def table_version_create(*, actor, table: Table, effective_from: dt.datetime | None = None, request=None,
                         **config: Any) -> TableVersion:
    """A new version of a table's configuration, in force from `effective_from` (now by default, never
    before the version it follows): the old version stays as it was, for the rounds played under it."""
    table = Table.objects.select_for_update().select_related("venue").get(pk=table.pk)
    latest = table.versions.order_by("-version").first()
    fields = _version_fields(config)
    _check_table(table.venue, table.game, fields["variant"], fields["min_stake_cents"], fields["max_stake_cents"],
                 fields["win_cap_cents"])
    effective_from = effective_from or timezone.now()
    if latest is not None and effective_from <= latest.effective_from:
        raise StateConflict(_("A new version takes effect after the version it follows."),
                            fields={"effective_from": [_("Later than the version in force.")]})
    version = TableVersion.objects.create(table=table, version=latest.version + 1 if latest else 1,
                                          effective_from=effective_from, created_by_name=_name(actor), **fields)
    audit_record(actor=actor, action="casino.table_version_created", obj=table, request=request,
                 before=_version_audit(latest) if latest else None, after=_version_audit(version))
    return version


def _version_audit(v: TableVersion) -> dict[str, Any]:
    return {"version": v.version, "effective_from": v.effective_from.isoformat(), "variant": v.variant,
            "rule_version": v.rule_version_id, "min_stake_cents": v.min_stake_cents,
            "max_stake_cents": v.max_stake_cents, "win_cap_cents": v.win_cap_cents, "side_games": v.side_games,
            "opening_hours": v.opening_hours, "payout_sign": v.payout_sign, "zero_rule": v.zero_rule,
            "records": v.records}


@transaction.atomic
def table_assign_system(*, actor, table: Table, user, assigned: bool = True, request=None) -> None:
    """Let a table system's API user post and read this table's rounds (or no longer)."""
    (table.systems.add if assigned else table.systems.remove)(user)
    audit_record(actor=actor, action="casino.table_system_assigned" if assigned else "casino.table_system_removed",
                 obj=table, request=request, data={"user": user.get_username()})


# ------------------------------------------------------------------------------------------- rounds


class RoundProblems:
    """The row-numbered report of a refused batch: (row, field, message), messages translatable."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, Any]] = []

    def add(self, row: int, field: str, message: Any) -> None:
        self.rows.append((row, field, message))

    def refusal(self) -> InvalidInput:
        self.rows.sort(key=lambda problem: problem[0])  # by row (a file's unreadable lines are found first)
        shown = self.rows[:200]
        return InvalidInput(
            _("Nothing was recorded: %(count)s problem(s) in the rounds, the first in row %(row)s."),
            code="rounds_refused",
            fields={f"rounds[{row - 1}].{field}" if field else f"rounds[{row - 1}]": [str(message)]
                    for row, field, message in shown},
            extra={"rows": [{"row": row, "field": field, "message": str(message)} for row, field, message in shown]},
            count=len(self.rows), row=self.rows[0][0])


def _cents(value: Any) -> int | None:
    if type(value) is str:
        return _cents_text(value)
    if isinstance(value, bool) or isinstance(value, float) or not isinstance(value, (str, int)):
        return None
    return _cents_text(str(value))


@lru_cache(maxsize=4096)
def _cents_text(value: str) -> int | None:
    """An amount as text in cents (None: not an amount): once per distinct text (stakes repeat)."""
    try:
        amount = Decimal(value.strip())
    except InvalidOperation:
        return None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")) or amount > 10**9:
        return None
    return int(amount * 100)


class _Tables:
    """Tables and their versions by `venue/table` code or id, loaded once per batch."""

    def __init__(self, allowed: Iterable[int] | None):
        self.allowed = None if allowed is None else set(allowed)
        self.by_key: dict[Any, Table | None] = {}
        self.versions: dict[int, list[TableVersion]] = {}

    def get(self, key: Any) -> Table | None:
        if key not in self.by_key:
            table = None
            if isinstance(key, int) and not isinstance(key, bool):
                table = Table.objects.select_related("venue").filter(pk=key).first()
            elif isinstance(key, str) and key.count("/") == 1:
                venue, code = key.split("/")
                table = Table.objects.select_related("venue").filter(venue__code=venue, code=code).first()
            if table is not None and self.allowed is not None and table.pk not in self.allowed:
                table = None  # a table not assigned to the caller is as unknown to it as one that does not exist
            self.by_key[key] = table
            if table is not None:
                self.versions[table.pk] = list(table.versions.order_by("-effective_from"))
        return self.by_key[key]

    def version_at(self, table: Table, when: dt.datetime) -> TableVersion | None:
        return next((v for v in self.versions[table.pk] if v.effective_from <= when), None)


def _parse_round(row: int, raw: Any, tables: _Tables, problems: RoundProblems, refs: set) -> dict | None:
    if not isinstance(raw, Mapping):
        problems.add(row, "", _("a round is an object with table, ref, played_at, bets, outcome and paid"))
        return None
    before = len(problems.rows)
    table = tables.get(raw.get("table"))
    if table is None:
        problems.add(row, "table", _("no such table (venue/table, or an id of a table assigned to you)"))
    ref = raw.get("ref")
    if not isinstance(ref, str) or not 0 < len(ref) <= 64:
        problems.add(row, "ref", _("the table system's round reference: 1-64 characters"))
    played_at = raw.get("played_at")
    if isinstance(played_at, str):
        try:  # what parse_datetime tries first
            played_at = dt.datetime.fromisoformat(played_at)
        except ValueError:
            played_at = parse_datetime(played_at)
    if not isinstance(played_at, dt.datetime) or timezone.is_naive(played_at):
        problems.add(row, "played_at", _("a date and time with its zone, such as 2026-12-01T20:15:00+02:00"))
        played_at = None
    version = tables.version_at(table, played_at) if table is not None and played_at is not None else None
    if table is not None and played_at is not None and version is None:
        problems.add(row, "played_at", _("the table had no configuration in force at this time"))
    bets = raw.get("bets")
    stake_total = 0
    if not isinstance(bets, list) or not bets or len(bets) > 500:
        problems.add(row, "bets", _("a list of 1-500 bets"))
        bets = None
    else:
        for i, bet in enumerate(bets):
            if not isinstance(bet, Mapping) or not isinstance(bet.get("type"), str):
                problems.add(row, f"bets[{i}]", _("a bet is an object with type and stake"))
                continue
            stake = _cents(bet.get("stake"))
            if not stake:
                problems.add(row, f"bets[{i}].stake", _("an amount such as \"25.00\""))
            else:
                stake_total += stake
            person = bet.get("person")
            if person is not None and (isinstance(person, bool) or not isinstance(person, int)):
                problems.add(row, f"bets[{i}].person", _("the id of an identified player"))
    outcome = raw.get("outcome")
    if not isinstance(outcome, Mapping):
        problems.add(row, "outcome", _("what the table produced: an object"))
    paid = raw.get("paid")
    paid_cents: list[int] = []
    if not isinstance(paid, list) or (bets is not None and len(paid) != len(bets)):
        problems.add(row, "paid", _("what was paid: one amount per bet"))
    else:
        for i, amount in enumerate(paid):
            cents = _cents(amount)
            if cents is None:
                problems.add(row, f"paid[{i}]", _("an amount such as \"25.00\" (0.00 for nothing)"))
            paid_cents.append(cents or 0)
    if table is not None and isinstance(ref, str):
        key = hash((table.pk, ref))  # a hash, not the pair: a batch of millions keeps only integers
        if key in refs:
            problems.add(row, "ref", _("this round reference appears twice"))
        refs.add(key)
    if len(problems.rows) > before:
        return None
    return {"table": table, "version": version, "ref": ref, "played_at": played_at, "bets": bets,
            "outcome": outcome if type(outcome) is dict else dict(outcome), "paid_cents": paid_cents,
            "stake_total_cents": stake_total, "corrects": raw.get("corrects")}


def _chunks(rows: Iterable[Any], size: int):
    chunk: list = []
    for item in rows:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _check_against_database(chunk: list[tuple[int, dict]], problems: RoundProblems, corrects: dict,
                            batch: RoundBatch) -> None:
    """References already recorded (by another batch: this batch's own are checked as it is read),
    corrected rounds that do not exist (before this batch) and unknown players, for one chunk of
    parsed rounds."""
    wanted: dict[int, set[str]] = {}
    persons: set[int] = set()
    for _row, r in chunk:
        if r["corrects"] is not None:
            wanted.setdefault(r["table"].pk, set()).add(r["corrects"])
        for b in r["bets"]:
            if b.get("person") is not None:
                persons.add(b["person"])
    existing = _recorded(batch, [(r["table"].pk, r["ref"]) for _row, r in chunk])
    earlier = RecordedRound.objects.exclude(batch_id=batch.pk)
    for t, refs in wanted.items():
        for pk, ref in earlier.filter(table_id=t, ref__in=refs).values_list("pk", "ref"):
            corrects[(t, ref)] = pk
    known = set(Person.objects.filter(pk__in=persons).values_list("pk", flat=True)) if persons else set()
    for row, r in chunk:
        if (r["table"].pk, r["ref"]) in existing:
            problems.add(row, "ref", _("a round with this reference is already recorded for the table"))
        if r["corrects"] is not None and (r["table"].pk, r["corrects"]) not in corrects:
            problems.add(row, "corrects", _("no recorded round of this table has this reference"))
        for i, bet in enumerate(r["bets"]):
            if bet.get("person") is not None and bet["person"] not in known:
                problems.add(row, f"bets[{i}].person", _("no such player"))


def _recorded(batch: RoundBatch, keys: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """Which (table, reference) pairs other batches recorded: on PostgreSQL one query for the chunk (a
    join with the arrays of the pairs, on the unique index), elsewhere one per table."""
    if not keys:
        return set()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT r.table_id, r.ref FROM {RecordedRound._meta.db_table} r "
                "JOIN unnest(%s::bigint[], %s::text[]) AS k(table_id, ref) ON r.table_id = k.table_id AND r.ref = k.ref "
                "WHERE r.batch_id <> %s", [[t for t, _r in keys], [r for _t, r in keys], batch.pk])
            return set(cursor.fetchall())
    by_table: dict[int, list[str]] = {}
    for t, ref in keys:
        by_table.setdefault(t, []).append(ref)
    earlier = RecordedRound.objects.exclude(batch_id=batch.pk)
    return {(t, ref) for t, refs in by_table.items()
            for ref in earlier.filter(table_id=t, ref__in=refs).values_list("ref", flat=True)}


def _dumps(value: Any) -> str:
    """JSON text of a decoded JSON value (orjson; the standard library for an integer beyond 64 bits)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)


#: The columns COPY writes (PostgreSQL), in the order of `_Writer._copy`.
COPY_COLUMNS = ("id", "batch_id", "table_id", "table_version_id", "venue_id", "game", "played_at", "day", "ref",
                "bets", "outcome", "paid_cents", "stake_total_cents", "paid_total_cents", "corrects_id",
                "recorded_at", "recorded_by_name")


class _Writer:
    """Writes a batch's rounds chunk by chunk, with their player rows: COPY on PostgreSQL (several
    times faster than a multi-row INSERT for JSON rows, as the lottery's retail import does; rows as
    tuples, JSON as text), bulk_create elsewhere. On PostgreSQL a chunk's COPY runs in a thread on the
    import's own connection (its transaction) while the caller reads and checks the next chunk: the
    database inserts and indexes one chunk as Python parses the next. `flush()` waits for it (and
    raises its error); the caller flushes before it uses the connection, and `close()`s at the end."""

    def __init__(self, batch: RoundBatch, name: str) -> None:
        self.batch = batch
        self.name = name
        self.zone = timezone.get_current_timezone()  # the operator's day of each round
        self.first: int | None = None
        self.last: int | None = None
        self.corrections = 0
        self.copying: Future | None = None
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="rounds-copy") if connection.vendor == "postgresql" else None

    def write(self, chunk: list[tuple[int, dict]], corrects: dict[tuple[int, str], int]) -> None:
        if not chunk:
            return
        self.flush()
        rounds = [r for _row, r in chunk]
        corrects_ids = [corrects.get((r["table"].pk, r["corrects"])) if r["corrects"] is not None else None
                        for r in rounds]
        self.corrections += sum(1 for c in corrects_ids if c is not None)
        if self.thread is not None:
            ids = self._copy(rounds, corrects_ids)
        else:
            ids = [o.pk for o in RecordedRound.objects.bulk_create([
                RecordedRound(batch=self.batch, table=r["table"], table_version=r["version"],
                              venue_id=r["table"].venue_id, game=r["table"].game, played_at=r["played_at"],
                              day=r["played_at"].astimezone(self.zone).date(), ref=r["ref"], bets=r["bets"],
                              outcome=r["outcome"], paid_cents=r["paid_cents"],
                              stake_total_cents=r["stake_total_cents"], paid_total_cents=sum(r["paid_cents"]),
                              recorded_by_name=self.name, corrects_id=c)
                for r, c in zip(rounds, corrects_ids)])]
        players = [RoundPlayer(round_id=pk, person_id=p) for pk, r in zip(ids, rounds)
                   for p in {b["person"] for b in r["bets"] if b.get("person") is not None}]
        if players:  # before their rounds are in on PostgreSQL: the foreign keys are checked at the commit
            RoundPlayer.objects.bulk_create(players)
        self.first = ids[0] if self.first is None else self.first
        self.last = ids[-1]

    def _copy(self, rounds: list[dict], corrects_ids: list[int | None]) -> list[int]:
        """ids from the table's sequence first (the player rows point at them), the rows as tuples, then
        the COPY handed to the thread."""
        table = RecordedRound._meta.db_table
        now, batch, name, zone = timezone.now(), self.batch.pk, self.name, self.zone
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                           [table, len(rounds)])
            ids = [pk for (pk,) in cursor.fetchall()]
        rows = [(pk, batch, r["table"].pk, r["version"].pk, r["table"].venue_id, r["table"].game, r["played_at"],
                 r["played_at"].astimezone(zone).date(), r["ref"], _dumps(r["bets"]), _dumps(r["outcome"]),
                 _dumps(r["paid_cents"]), r["stake_total_cents"], sum(r["paid_cents"]), corrects_id, now, name)
                for pk, r, corrects_id in zip(ids, rounds, corrects_ids)]
        sql = f"COPY {table} ({', '.join(COPY_COLUMNS)}) FROM STDIN"
        self.copying = self.thread.submit(_copy_rows, connection.connection, sql, rows)
        return ids

    def flush(self) -> None:
        if self.copying is not None:
            copying, self.copying = self.copying, None
            with connection.wrap_database_errors:
                copying.result()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self.thread is not None:
                self.thread.shutdown(wait=True)


def _copy_rows(raw_connection: Any, sql: str, rows: list[tuple]) -> None:
    """One COPY on the database driver's connection (in the writer's thread; psycopg connections may
    be shared between threads, one operation at a time)."""
    with raw_connection.cursor() as cursor, cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


#: What a round file's reader yields for a line it could not read (it has reported the problem).
UNREADABLE = object()


@transaction.atomic
def rounds_record(*, actor, rounds: Sequence[Any] | Callable[[], Iterable[Any]], source: str,
                  allowed_tables: Iterable[int] | None = None, file_name: str = "", file_sha256: str = "",
                  request=None, verify: bool = True, problems: RoundProblems | None = None,
                  nothing: InvalidInput | None = None) -> RoundBatch:
    """Record rounds, all or nothing: a refusal lists every problem by row (1 = the first round).
    `rounds`: a list, or a function giving an iterator over them (a file, read once: each chunk is
    checked and written; after the first problem nothing more is written, the rest is only checked,
    and the refusal rolls back the transaction, so memory does not grow with the batch and nothing
    of a refused batch stays). `allowed_tables`: the tables the caller may post to (a table system);
    None: any. `problems`: a report that already holds the problems of reading (`UNREADABLE` rows);
    `nothing`: the refusal when there is no round. The batch's verification job is enqueued in the
    same transaction. A round given again with the same table and reference is refused (a round is
    never replaced; a correction names the round it `corrects`)."""
    if not callable(rounds):
        if not isinstance(rounds, Sequence) or not rounds:
            raise InvalidInput(_("Give at least one round."), fields={"rounds": [_("At least one round.")]})
        listed = rounds
        rounds = lambda: iter(listed)  # noqa: E731
    tables = _Tables(allowed_tables)
    problems = problems if problems is not None else RoundProblems()
    seen: set = set()  # (table, ref) hashes: a reference given twice in the batch
    count = 0
    corrects: dict[tuple[int, str], int] = {}
    name = _name(actor)
    batch = RoundBatch.objects.create(source=source, created_by=_user(actor), created_by_name=name,
                                      file_name=file_name[:255], file_sha256=file_sha256)
    writer = _Writer(batch, name)
    try:
        for chunk in _chunks(enumerate(rounds(), start=1), INSERT_CHUNK):
            parsed = []
            for row, raw in chunk:
                if raw is UNREADABLE:
                    continue
                r = _parse_round(row, raw, tables, problems, seen)
                if r is not None:
                    parsed.append((row, r))
            writer.flush()  # the previous chunk's COPY: the connection is free again
            _check_against_database(parsed, problems, corrects, batch)
            count += len(chunk)
            if count > MAX_ROUNDS_PER_BATCH:
                raise InvalidInput(_("At most %(n)s rounds in one batch."), fields={"rounds": [_("Too many rounds.")]},
                                   n=MAX_ROUNDS_PER_BATCH)
            if len(problems.rows) >= 1000:
                break
            if not problems.rows:
                writer.write(parsed, corrects)
    finally:
        writer.close()
    if problems.rows:
        raise problems.refusal()
    if not count:
        raise nothing or InvalidInput(_("Give at least one round."), fields={"rounds": [_("At least one round.")]})
    first, last = writer.first, writer.last
    RoundBatch.objects.filter(pk=batch.pk).update(rounds=count, first_round_id=first, last_round_id=last)
    batch.rounds, batch.first_round_id, batch.last_round_id = count, first, last
    audit_record(actor=actor, action="casino.rounds_recorded", obj=batch, request=request,
                 data={"source": source, "rounds": count, "first_round": first, "last_round": last,
                       "file_name": file_name, "file_sha256": file_sha256, "corrections": writer.corrections})
    if verify:
        verification_enqueue(batch=batch, actor=actor)
    return batch


def verification_enqueue(*, batch: RoundBatch, actor=None):
    return job_enqueue(kind=VERIFY_KIND, key=f"casino.verify_batch:{batch.pk}", args={"batch_id": batch.pk},
                       actor=actor)


#: The columns of the CSV round file (docs/casino-operations.md); JSON in the bets, outcome and paid cells.
CSV_COLUMNS = ("table", "ref", "played_at", "bets", "outcome", "paid", "corrects")


def read_round_file(file: IO[bytes], name: str, problems: RoundProblems) -> Iterator[Any]:
    """The rounds of a JSON Lines (one round object a line) or CSV file (CSV_COLUMNS; JSON cells),
    chosen by the name's ending, read from the start of `file` one line at a time; what cannot be
    read is reported by row (and given as `UNREADABLE`)."""
    file.seek(0)
    if name.lower().endswith(".csv"):
        yield from _read_csv(file, problems)
        return
    for row, line in enumerate(file, start=1):
        if row == 1:
            line = line.removeprefix(b"\xef\xbb\xbf")  # a byte order mark, as utf-8-sig reads it
        if not line.strip():
            continue
        try:
            yield orjson.loads(line)
        except orjson.JSONDecodeError:
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                problems.add(1, "", _("the file is not UTF-8 text"))
                return
            if not text.strip():  # a line of other white space than ASCII's
                continue
            try:  # what orjson does not read: an integer beyond 64 bits, NaN, a lone surrogate
                yield json.loads(text)
            except ValueError:
                problems.add(row, "", _("not valid JSON"))
                yield UNREADABLE


def _read_csv(file: IO[bytes], problems: RoundProblems) -> Iterator[Any]:
    text = io.TextIOWrapper(file, encoding="utf-8-sig", newline="")
    try:
        reader = csv.DictReader(text)
        if tuple(reader.fieldnames or ())[:6] != CSV_COLUMNS[:6]:
            problems.add(1, "", _("the header must be: %(columns)s") % {"columns": ",".join(CSV_COLUMNS)})
            return
        for row, line in enumerate(reader, start=1):
            raw: dict[str, Any] = {"table": line.get("table"), "ref": line.get("ref"),
                                   "played_at": line.get("played_at")}
            readable = True
            for column in ("bets", "outcome", "paid"):
                try:
                    raw[column] = json.loads(line.get(column) or "null")
                except ValueError:
                    problems.add(row, column, _("not valid JSON"))
                    readable = False
            if line.get("corrects"):
                raw["corrects"] = line["corrects"]
            yield raw if readable else UNREADABLE
    except UnicodeDecodeError:
        problems.add(1, "", _("the file is not UTF-8 text"))
    finally:
        text.detach()


def rounds_import_file(*, actor, file: IO[bytes] | bytes, name: str, sha256: str = "", request=None,
                       verify: bool = True) -> RoundBatch:
    """A round file, all or nothing (rows numbered as in the file, a CSV's header excluded), read once
    line by line, never held whole in memory (`rounds_record`)."""
    if isinstance(file, bytes):
        file = io.BytesIO(file)
    problems = RoundProblems()
    return rounds_record(actor=actor, rounds=lambda: read_round_file(file, name, problems),
                         source=RoundBatch.Source.FILE, file_name=name, file_sha256=sha256, request=request,
                         verify=verify, problems=problems,
                         nothing=InvalidInput(_("The file holds no rounds."),
                                              fields={"file": [_("No rounds in the file.")]}))


# ------------------------------------------------------------------------------------ discrepancies


@transaction.atomic
def discrepancy_resolve(*, actor, discrepancy: Discrepancy, note: str, request=None) -> Discrepancy:
    """Resolve a discrepancy with a note. The person who recorded the round may not resolve what was
    found in it: the resolution is a second person's (two-person rule)."""
    discrepancy = Discrepancy.objects.select_for_update().select_related("round").get(pk=discrepancy.pk)
    if discrepancy.resolved_at is not None:
        raise StateConflict(_("This discrepancy is already resolved."))
    note = (note or "").strip()
    if not note:
        raise InvalidInput(_("Write what was done."), fields={"note": [_("Write what was done.")]})
    if discrepancy.round.recorded_by_name == _name(actor):
        raise NotPermitted(_("You recorded this round: another person resolves what was found in it."))
    Discrepancy.objects.filter(pk=discrepancy.pk).update(resolved_at=timezone.now(), resolved_by=_user(actor),
                                                          resolution_note=note)
    discrepancy.refresh_from_db()
    audit_record(actor=actor, action="casino.discrepancy_resolved", obj=discrepancy, request=request,
                 data={"round": discrepancy.round_id, "kind": discrepancy.kind, "note": note})
    return discrepancy


def games_known() -> tuple[str, ...]:
    """The engine games the families cover (the table form's choices)."""
    return engine_games()


def family_name(game: str):
    return family_of(game).name
