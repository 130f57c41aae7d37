"""Retail sales files: validated completely, loaded all or nothing (docs/draws.md, "Retail sales file").

One CSV per draw, UTF-8, a header row and one row per line; the rows of a ticket (same `ticket`)
make one wager. The columns are the codec's of the draw's game (`codec.retail_header()`): the number
games' file (`RetailFormat.NUMBERS`), in this order::

    ticket,sold_at,terminal,n1,n2,n3,n4,n5,n6,n7,s1,s2,plus,stake_cents,plus_cents

or a game's own columns (`RetailFormat.COLUMNS`, Keno, Jokeri, ...: below, "files in a game's own
columns", always validated in Python). The COPY path below is taken for a codec with `copy_import`.

On PostgreSQL the file is COPYed (a big file in two halves, side by side on two work connections,
hashed meanwhile) into UNLOGGED staging tables, validated and aggregated per ticket in one
set-based pass, and loaded with INSERT ... SELECT: the wagers by the importing transaction, the
lines by the work connections into tables of their own, indexed once and attached as partitions of
lottery_line by the importing transaction (migration 0005). On SQLite it is validated in Python and
inserted with bulk_create in batches. Either way a file with any bad row loads nothing, and the
report names every bad row (by its record number in the file; the header is row 1) with every
problem. The Python validator writes the report on both databases, so the messages are the same.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import hashlib
import io
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from compliance import file_jobs
from compliance.audit import audit_record
from compliance.bounds import parse_int
from compliance.errors import stored_message
from compliance.jobs import job_enqueue

from ..formats import NUMBER_HEADER, LineFormat, UnsupportedGame
from ..games import registry
from ..games.base import LineValues, RetailFormat, whole
from ..games.messages import TEMPLATES, domain_message
from ..models import RETAIL, Draw, DrawState, Line, RetailImport, Wager
from ..rules.errors import RulesError
from .errors import DrawError, DrawInputError, DrawStateError

log = logging.getLogger(__name__)

HEADER = list(NUMBER_HEADER)
MAIN_COLUMNS = 7
SECONDARY_COLUMNS = 2
MAIN_NAMES = frozenset(f"n{i}" for i in range(1, MAIN_COLUMNS + 1))
SECONDARY_NAMES = frozenset(f"s{i}" for i in range(1, SECONDARY_COLUMNS + 1))
MAX_STAKE_CENTS = 1_000_000  # per line; prices are in the game instructions, this only stops typos
MAX_REPORTED_ROWS = 10_000  # the stored report lists this many bad rows in detail, then counts the rest
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:/-")
BATCH = 2000
BATCH_ID_SPAN = 2**32  # ids of a COPY import: batch * 2**32 + row number (see _import_postgresql)
BLOCK = 1 << 20
MAX_UTC_OFFSET = dt.timedelta(hours=15, minutes=59)
MAX_LINE = csv.field_size_limit()  # 131,072: a longer row cannot be a sales row, and csv would fail on it
SPLIT_MIN_BYTES = 8 << 20  # PostgreSQL: a file this big streams in two halves, side by side
IMPORT_STREAMS = 2  # at most this many halves (connections) per import


# ------------------------------------------------------------------------------------------------
# validation in Python (SQLite, and the report on both databases)
# ------------------------------------------------------------------------------------------------

@dataclass
class ParsedRow:
    row: int
    ticket: str
    sold_at: dt.datetime
    terminal: str
    main_mask: int
    extra_mask: int
    plus: int | None
    stake_cents: int
    plus_cents: int


NOT_WHOLE = TEMPLATES["not_whole"]
TOKEN_RULE = _("%(column)s: 1 to 64 characters A-Z, a-z, 0-9 or . _ : / -")
STAKE_RULE = _("stake_cents: a whole number of cents from 1 to %(max)s is needed")
ADDON_NEGATIVE = _("%(column)s: cannot be negative")
DIFFERS = _("%(column)s: differs from row %(first)s of the same ticket")
ALREADY_IMPORTED = _("ticket %(ticket)s was already imported")
ROW_EMPTY = _("the row is empty")
NO_ROWS = _("the file has no sales rows")
COLUMN_COUNT = _("expected %(expected)s columns, found %(found)s")


class Problems:
    """A row's problems, each kept twice: `texts` in English (the stored report's `errors`, which the
    API and the command read) and `messages` (`{"msgid", "params"}`, compliance.errors.stored_message)
    that show it in the reader's language (`lottery.games.messages.shown_row_message`)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.messages: list[dict[str, Any]] = []

    @classmethod
    def of(cls, template, **params) -> Problems:
        problems = cls()
        problems.add(template, **params)
        return problems

    def add(self, template, **params) -> None:
        """One problem: a `gettext_lazy` template and plain JSON parameters."""
        stored = stored_message(template, **params)
        self.texts.append(stored["message"])
        self.messages.append({"msgid": stored["msgid"], "params": stored["params"]})

    def add_rules(self, exc: RulesError) -> None:
        """A codec's error, translated through its code (lottery.games.messages); its parameters are kept
        as the codec gave them (a field's English name is translated when shown)."""
        template, params = domain_message(exc)
        self.add(template, **(dict(exc.params) if params else {}))

    def extend(self, other: Problems) -> None:
        self.texts += other.texts
        self.messages += other.messages

    def __bool__(self) -> bool:
        return bool(self.texts)


@dataclass
class Report:
    rows: int = 0
    bad_rows: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def refusal(cls, row: int, template, **params) -> Report:
        """The report of a file refused as a whole: one entry, one problem. Row 0 is the file itself
        (already imported, the draw takes no files): that is no bad row, and the page says so."""
        report = cls(bad_rows=1 if row else 0)
        report.entries.append(_entry(row, "", Problems.of(template, **params)))
        return report

    def add(self, row: int, ticket: str, problems: Problems) -> None:
        self.bad_rows += 1
        if len(self.entries) < MAX_REPORTED_ROWS:
            self.entries.append(_entry(row, ticket, problems))


def _entry(row: int, ticket: str, problems: Problems) -> dict[str, Any]:
    return {"row": row, "ticket": ticket, "errors": problems.texts, "messages": problems.messages}


def _token(value: str) -> bool:
    return 1 <= len(value) <= 64 and all(ch in TOKEN_CHARS for ch in value)


def _int(value: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    number = parse_int(value, maximum=10**12 - 1, signed=True)
    if number is not None:
        return number
    raise ValueError


class RowValidator:
    """Checks rows one by one, remembering each ticket's first row (sale time and terminal)."""

    def __init__(self, draw: Draw, fmt: LineFormat, params: dict, exists: Callable[[list[str]], set[str]]):
        self.draw = draw
        self.fmt = fmt
        self.codec = registry.get(draw.game.code).codec
        self.params = params
        self.exists = exists
        self.tickets: dict[str, tuple[int, dt.datetime | None, str]] = {}
        self.totals: dict[str, list[int]] = {}  # ticket -> [stake incl. add-ons, lines] of good rows
        self.zone = timezone.get_default_timezone()

    def check(self, row: int, values: list[str]) -> tuple[ParsedRow | None, Problems]:
        if len(values) != len(HEADER):
            return None, Problems.of(COLUMN_COUNT, expected=len(HEADER), found=len(values))
        ticket, sold_raw, terminal = values[0], values[1], values[2]
        sold_at, errors = sale_errors(self.draw, self.zone, ticket, sold_raw, terminal)
        numbers: list[int] = []
        secondary: list[int] = []
        plus = stake = plus_cents = None
        unreadable: set[str] = set()
        for name, raw in zip(HEADER[3:], values[3:]):
            try:
                value = _int(raw)
            except ValueError:
                errors.add(NOT_WHOLE, what=name, value=repr(raw))
                unreadable.add(name)
                continue
            if name in MAIN_NAMES:
                index = int(name[1:])
                if index <= self.fmt.main_count:
                    if value is None:
                        errors.add(_("%(column)s: %(count)s main numbers are needed"), column=name,
                                   count=self.fmt.main_count)
                    else:
                        numbers.append(value)
                elif value is not None:
                    errors.add(_("%(column)s: must be empty (%(game)s has %(count)s main numbers)"), column=name,
                               game=self.fmt.game, count=self.fmt.main_count)
            elif name in SECONDARY_NAMES:
                index = int(name[1:])
                if index <= self.fmt.secondary_count:
                    if value is None:
                        errors.add(_("%(column)s: the %(field)s is needed"), column=name,
                                   field=self.fmt.secondary_label)
                    else:
                        secondary.append(value)
                elif value is not None:
                    errors.add(_("%(column)s: must be empty"), column=name)
            elif name == "plus":
                plus = value
            elif name == "stake_cents":
                stake = value
            else:
                plus_cents = value or 0
        if "stake_cents" not in unreadable and (stake is None or not 1 <= stake <= MAX_STAKE_CENTS):
            errors.add(STAKE_RULE, max=MAX_STAKE_CENTS)
        if plus_cents is not None and plus_cents < 0:
            errors.add(ADDON_NEGATIVE, column="plus_cents")
        elif plus is None and plus_cents:
            errors.add(_("plus_cents: a line without a plus number pays no Plussa fee"))
        elif plus is not None and not plus_cents:
            errors.add(_("plus_cents: a Plussa line (with a plus number) pays the Plussa fee"))
        parsed_line = None
        if len(numbers) == self.fmt.main_count and len(secondary) == self.fmt.secondary_count:
            try:
                parsed_line = self.codec.parse_numbers(self.params, numbers, secondary, plus)
            except RulesError as exc:
                errors.add_rules(exc)
        errors.extend(same_ticket_errors(self.tickets, row, ticket, sold_at, terminal))
        if errors or parsed_line is None:
            return None, errors
        slot = self.totals.setdefault(ticket, [0, 0])
        slot[0] += stake + (plus_cents or 0)
        slot[1] += 1
        return ParsedRow(row, ticket, sold_at, terminal, parsed_line.main_mask, parsed_line.extra_mask,
                         parsed_line.plus, stake, plus_cents or 0), Problems()

    def already_imported(self) -> dict[str, int]:
        """ticket -> first row, for tickets already in the database."""
        return tickets_already_imported(self.tickets, self.exists)


def sale_errors(draw: Draw, zone, ticket: str, sold_raw: str, terminal: str) -> tuple[dt.datetime | None, Problems]:
    """The sale's part of a retail row, for every game's file: ticket and terminal tokens, and the
    sale time (ISO 8601; naive in `zone`) inside the draw's sales period. Returns (sold_at, errors)."""
    errors = Problems()
    if not _token(ticket):
        errors.add(TOKEN_RULE, column="ticket")
    if not _token(terminal):
        errors.add(TOKEN_RULE, column="terminal")
    sold_at = None
    try:
        sold_at = dt.datetime.fromisoformat(sold_raw.strip())
        if timezone.is_naive(sold_at):
            sold_at = timezone.make_aware(sold_at, zone)
        if abs(sold_at.utcoffset()) > MAX_UTC_OFFSET:  # PostgreSQL's limit; no zone is that far off
            errors.add(_("sold_at: %(value)s has a UTC offset beyond ±15:59"), value=repr(sold_raw))
            sold_at = None
        else:
            sold_at = sold_at.astimezone(dt.UTC)
    except (ValueError, OverflowError):
        errors.add(_("sold_at: %(value)s is not an ISO 8601 date and time"), value=repr(sold_raw))
    if sold_at is not None and not (draw.sales_open_at <= sold_at < draw.sales_close_at):
        errors.add(_("sold_at: %(value)s is outside the draw's sales period (%(start)s to %(end)s)"),
                   value=sold_raw, start=f"{timezone.localtime(draw.sales_open_at):%Y-%m-%d %H:%M}",
                   end=f"{timezone.localtime(draw.sales_close_at):%Y-%m-%d %H:%M}")
    return sold_at, errors


def same_ticket_errors(tickets: dict[str, tuple[int, dt.datetime | None, str]], row: int, ticket: str,
                       sold_at: dt.datetime | None, terminal: str) -> Problems:
    """Remember a ticket's first row (`tickets`: ticket -> (row, sold_at, terminal)); a later row of
    the same ticket must have the same sale time and terminal."""
    first = tickets.get(ticket)
    errors = Problems()
    if first is None:
        tickets[ticket] = (row, sold_at, terminal)
        return errors
    first_row, first_sold, first_terminal = first
    if sold_at is not None and first_sold is not None and sold_at != first_sold:
        errors.add(DIFFERS, column="sold_at", first=first_row)
    if terminal != first_terminal:
        errors.add(DIFFERS, column="terminal", first=first_row)
    return errors


def tickets_already_imported(tickets: dict[str, tuple], exists: Callable[[list[str]], set[str]]) -> dict[str, int]:
    """ticket -> first row, in row order, of the file's tickets already in the database (`exists`
    asked 500 at a time)."""
    names = list(tickets)
    found: set[str] = set()
    for i in range(0, len(names), 500):
        found |= exists(names[i:i + 500])
    return {t: tickets[t][0] for t in sorted(found, key=lambda t: tickets[t][0])}


def _existing_tickets(tickets: list[str]) -> set[str]:
    return set(Wager.objects.filter(channel=RETAIL, reference__in=tickets).values_list("reference", flat=True))


def _records(stream: IO[bytes]) -> Iterator[tuple[int, list[str]]]:
    """(row number, values) for every data record; the header is row 1. Blank rows at the end of
    the file are ignored (as on PostgreSQL, where they are cut off before COPY); others are yielded."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline="", errors="replace")
    reader = csv.reader(text)
    blank: list[int] = []
    try:
        next(reader, None)
        for number, values in enumerate(reader, start=2):
            if not values:
                blank.append(number)
                continue
            for b in blank:
                yield b, []
            blank = []
            yield number, values
    except csv.Error as exc:  # e.g. a quoted field over several lines longer than the csv limit
        raise DrawInputError(f"Row {reader.line_num} of the file is not CSV: {exc}.") from None
    finally:
        text.detach()


def _unreadable_row(stream: IO[bytes]) -> Report | None:
    """The refusal (row and problem) of the first row no import can read (a NUL character, which neither the csv
    module nor PostgreSQL's COPY accepts, or a line longer than the csv module's field limit), or None.
    One pass over the file in blocks; the file is never held in memory."""
    stream.seek(0)
    row, length = 1, 0
    while block := stream.read(BLOCK):
        nul = block.find(b"\x00")
        if nul >= 0:
            return Report.refusal(row + block.count(b"\n", 0, nul),
                                  _("the row holds a NUL character: the file is not CSV text"))
        lines = block.split(b"\n")
        for i, piece in enumerate(lines):
            length += len(piece)
            if length > MAX_LINE:
                return Report.refusal(row, _("the row is longer than %(max)s characters"), max=f"{MAX_LINE:,}")
            if i < len(lines) - 1:
                row, length = row + 1, 0
    stream.seek(0)
    return None


PROGRESS_ROWS = 20_000  # rows between two looks at the clock for the progress (Progress throttles the writes)


def read_progress(job, stream: IO[bytes], rows: int) -> None:
    """Bytes of the file read so far (and the rows), every PROGRESS_ROWS rows, when a job is running."""
    if job is not None and rows % PROGRESS_ROWS == 0:
        job.advance(stream.tell(), rows=rows)


def _check_rows(checker: RowValidator | ColumnsChecker, stream: IO[bytes], job=None) -> Report:
    """Read the whole file with a row checker of its format and report every bad row (numbered from the
    header's 1), then the tickets already in the database (each at its first row)."""
    report = Report()
    stream.seek(0)
    for number, values in _records(stream):
        report.rows += 1
        read_progress(job, stream, report.rows)
        if not values:
            report.add(number, "", Problems.of(ROW_EMPTY))
            continue
        __, errors = checker.check(number, values)
        if errors:
            report.add(number, values[0], errors)
    for ticket, row in checker.already_imported().items():
        report.add(row, ticket, Problems.of(ALREADY_IMPORTED, ticket=ticket))
    report.entries.sort(key=lambda e: e["row"])
    return report


def _validate_all(draw: Draw, fmt: LineFormat, stream: IO[bytes], job=None) -> tuple[Report, RowValidator]:
    """The number-line file's report (`_check_rows` with its validator)."""
    validator = RowValidator(draw, fmt, draw.ruleset.params, _existing_tickets)
    return _check_rows(validator, stream, job), validator


# ------------------------------------------------------------------------------------------------
# entry point
# ------------------------------------------------------------------------------------------------

def _header_ok(stream: IO[bytes], header: list[str]) -> Report | None:
    """The refusal of a file whose first row is not `header`, or None."""
    stream.seek(0)
    first = stream.readline(4096)
    try:
        text = codecs.decode(first, "utf-8-sig").strip()
    except UnicodeDecodeError:
        return Report.refusal(1, _("the file is not UTF-8 text"))
    if [c.strip() for c in text.split(",")] != header:
        return Report.refusal(1, _("the first row must be the header: %(header)s"), header=",".join(header))
    return None


# A running import whose worker has not written for this long is presumed dead (settings).
def _stale_seconds() -> int:
    return int(getattr(settings, "LOTTERY_IMPORT_STALE_SECONDS", 120))


def _importable(draw: Draw) -> None:
    """Raise DrawStateError / DrawInputError when no retail file can be imported for the draw now."""
    if draw.state not in (DrawState.OPEN, DrawState.CLOSED):
        raise DrawStateError(
            _("%(draw)s is %(state)s: retail sales are imported while its sales are open or after they closed, "
              "until a result is entered."), draw=str(draw), state=DrawState(draw.state).label)
    try:
        registry.get(draw.game.code)
    except UnsupportedGame as exc:
        raise DrawInputError(str(exc)) from None


def _actor_fields(actor) -> dict:
    return {"imported_by": None if isinstance(actor, str) else actor,
            "actor_repr": actor if isinstance(actor, str) else actor.get_username()}


def _actor_of(record: RetailImport):
    return record.imported_by or record.actor_repr


def retail_import_submit(*, actor, draw: Draw, stream: IO[bytes], file_name: str, request=None,
                         store: bool = True, start: bool = True) -> tuple[RetailImport, bool]:
    """Hand in a retail sales file for a draw: stored (content-addressed) and recorded `queued`, with
    its audit event, in one transaction; the import runs as a job (`retail_import_run`) once that is
    committed. Returns (record, attached): a file already being imported for the draw is not queued
    again, its import is returned (attached); a file already imported gets today's refusal at once.
    DrawStateError / DrawInputError (nothing recorded) when the draw takes no file now.

    `store=False` (the command line, which runs the import itself from its own file): nothing stored."""
    draw = Draw.objects.select_related("game", "ruleset").get(pk=draw.pk)
    _importable(draw)
    sha, size = file_jobs.fingerprint(stream)
    name = file_jobs.store_upload(stream, sha) if store else ""
    fields = dict(draw=draw, file_name=file_name[:255], file_sha256=sha, size_bytes=size, stored_file=name,
                  started_at=timezone.now(), **_actor_fields(actor))
    for __ in range(3):  # a concurrent upload of the same file may finish or appear meanwhile
        active = RetailImport.objects.filter(draw=draw, file_sha256=sha, state__in=file_jobs.ACTIVE).first()
        if active is not None:
            attached = _attach(active)
            if attached is not None:
                return attached, True
            continue
        previous = RetailImport.objects.filter(draw=draw, file_sha256=sha, state=RetailImport.State.DONE).first()
        try:
            with transaction.atomic():
                record = RetailImport.objects.create(
                    **fields, state=RetailImport.State.QUEUED, phase=RetailImport.Phase.QUEUED)
                audit_record(actor=actor, action="lottery.retail_import_queued", obj=record, request=request,
                             data={"draw": draw.pk, "file": record.file_name, "sha256": sha, "size_bytes": size})
                if previous is not None:  # the same file again: refused at once, as before
                    return _refused(actor, record, _replay_report(previous), "", request), False
                if start:
                    _start(record.pk)
        except IntegrityError:  # the same file queued by another request meanwhile: attach to it
            continue
        return record, False
    raise DrawInputError("The same file is being handed in by several requests at once; try again.")


def _attach(active: RetailImport) -> RetailImport | None:
    """The import a second upload of the same file attaches to (compliance.file_jobs.attach)."""
    return file_jobs.attach(active, stale_seconds=_stale_seconds(), start=_start, stopped=lambda record: _stopped(
        record, "the import stopped before it finished (its process ended); nothing was imported"))


def _start(import_id: int) -> None:
    """The one place an import is handed to a worker: a durable job (compliance.jobs) written in the
    caller's transaction, sent after commit and sent again by the dispatcher until it is done. A second
    request for the same import attaches to its unfinished job."""
    job_enqueue(kind="lottery.tasks.retail_import_run", key=f"lottery.retail_import:{import_id}", args={"import_id": import_id})


def retail_import_run(import_id: int, *, stream: IO[bytes] | None = None) -> RetailImport:
    """The job: claim the queued import (or one whose worker died) and load its stored file (or
    `stream`), all or nothing, publishing phase and progress on the record. Safe to run twice: a
    finished or claimed import is returned unchanged. Errors of the job itself are recorded on the
    import (`failed`, `error`), never raised."""
    attempt = file_jobs.claim_for_job(RetailImport, import_id, stale_seconds=_stale_seconds(),
                              phase=RetailImport.Phase.READING, progress_done=0, progress_total=0)
    record = RetailImport.objects.select_related("draw", "imported_by").get(pk=import_id)
    if attempt is None:
        return record
    progress = file_jobs.Progress(RetailImport, import_id, attempt)
    actor = _actor_of(record)
    try:
        if stream is not None:
            return _run(actor, record, stream, progress)
        if not record.stored_file:
            raise DrawInputError("the import has no stored file to read")
        with default_storage.open(record.stored_file, "rb") as stored:
            return _run(actor, record, stored, progress)
    except DrawError as exc:  # the draw took no more files meanwhile (a result was entered, cancelled)
        return _refused(actor, record, Report.refusal(0, exc.template, **_plain(exc.params)), "", None)
    except file_jobs.ImportLost:
        log.warning("retail import %s: taken over by another worker; this attempt's work is undone", import_id)
        return RetailImport.objects.get(pk=import_id)
    except Exception as exc:  # noqa: BLE001 - recorded on the import and logged; nothing was loaded
        log.exception("retail import %s failed", import_id)
        _stopped(record, f"{type(exc).__name__}: {exc}")
        return RetailImport.objects.get(pk=import_id)
    finally:
        progress.close()


def _run(actor, record: RetailImport, stream: IO[bytes], progress: file_jobs.Progress) -> RetailImport:
    job = _Job(record, progress)
    draw = Draw.objects.select_related("game", "ruleset").get(pk=record.draw_id)
    _importable(draw)
    progress.phase(RetailImport.Phase.READING, 0, record.size_bytes)
    unreadable = _unreadable_row(stream)
    if unreadable is not None:
        return _refused(actor, job, unreadable, "", None)
    refusal = _already_imported(actor, job, None)
    if refusal is not None:
        return refusal
    codec = registry.get(draw.game.code).codec
    copy = connection.vendor == "postgresql" and codec.copy_import
    if not copy and file_jobs.fingerprint(stream) != (record.file_sha256, record.size_bytes):
        # The file read is not the file handed in (the stored copy changed): load nothing. (The COPY
        # path checks the same while it reads.)
        raise RuntimeError("the stored file does not match the SHA-256 and size recorded when it was handed in")
    bad_header = _header_ok(stream, codec.retail_header())
    if bad_header is not None:
        return _refused(actor, job, bad_header, "", None)
    if codec.retail_format is RetailFormat.COLUMNS:
        return _import_columns(actor, job, draw, stream)
    fmt = codec.line_format(draw.ruleset.params)
    if copy:
        return _import_postgresql(actor, draw, fmt, stream, job, None)
    return _import_batches(actor, draw, fmt, stream, job, None)


def retail_import(*, actor, draw: Draw, stream: IO[bytes], file_name: str, request=None) -> RetailImport:
    """Load one retail sales file for a draw now, in this process (the command line, benchmarks,
    tests): recorded like an upload, run like the job. Returns the import record: `done`, or `failed`
    with the report of every bad row (nothing of the file is loaded then)."""
    record, attached = retail_import_submit(actor=actor, draw=draw, stream=stream, file_name=file_name,
                                            request=request, store=False, start=False)
    if attached or record.state != RetailImport.State.QUEUED:
        return record
    return retail_import_run(record.pk, stream=stream)


@dataclass
class _Job:
    """The claimed import record and its progress publisher."""

    record: RetailImport
    progress: file_jobs.Progress

    def phase(self, name: str, done: int = 0, total: int = 0, **extra) -> None:
        self.progress.phase(name, done, total, **extra)

    def advance(self, done: int, total: int | None = None, **extra) -> None:
        self.progress.advance(done, total, **extra)


def _replay_report(previous: RetailImport) -> Report:
    return Report.refusal(0, _("this file was already imported on %(when)s (import %(number)s)"),
                          when=f"{timezone.localtime(previous.finished_at):%Y-%m-%d %H:%M}", number=previous.pk)


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's parameters for a stored message (plain JSON): lazy ones (a state's label) in English."""
    with translation.override("en"):
        return {k: str(v) if isinstance(v, Promise) else v for k, v in params.items()}


def _already_imported(actor, job, request) -> RetailImport | None:
    """The refusal of a file (by its SHA-256) already imported for the draw, or None."""
    record = _record(job)
    previous = RetailImport.objects.filter(draw_id=record.draw_id, file_sha256=record.file_sha256,
                                           state=RetailImport.State.DONE).first()
    if previous is None:
        return None
    return _refused(actor, job, _replay_report(previous), "", request)


def _record(job) -> RetailImport:
    return job.record if isinstance(job, _Job) else job


def finish_import(record: RetailImport, **fields) -> None:
    """The outcome of a claimed import (compliance.file_jobs.finish), with its finishing time."""
    fields.setdefault("finished_at", timezone.now())
    file_jobs.finish(record, **fields)


def _stopped(record: RetailImport, error: str) -> None:
    """The job itself failed (not the file): recorded as failed with the reason, audited."""
    with transaction.atomic():
        done = RetailImport.objects.filter(pk=record.pk, state__in=file_jobs.ACTIVE).update(
            state=RetailImport.State.FAILED, phase="", error=error[:2000], finished_at=timezone.now())
        if done:
            audit_record(actor=_actor_of(record), action="lottery.retail_import_failed", obj=record,
                         data={"draw": record.draw_id, "file": record.file_name, "sha256": record.file_sha256,
                               "error": error[:500]})


def _refused(actor, job, report: Report, method: str, request) -> RetailImport:
    record = _record(job)
    with transaction.atomic():
        finish_import(record, state=RetailImport.State.FAILED, method=method, rows=report.rows,
                error_count=report.bad_rows, errors=report.entries)
        audit_record(actor=actor, action="lottery.retail_import_refused", obj=record, request=request,
                     data={"draw": record.draw_id, "file": record.file_name, "sha256": record.file_sha256,
                           "rows": report.rows, "bad_rows": report.bad_rows, "first_errors": report.entries[:5]})
    return record


def _done(actor, record: RetailImport, request) -> RetailImport:
    audit_record(actor=actor, action="lottery.retail_imported", obj=record, request=request,
                 data={"draw": record.draw_id, "file": record.file_name, "sha256": record.file_sha256,
                       "rows": record.rows, "tickets": record.tickets, "lines": record.lines,
                       "stake_cents": record.stake_cents, "method": record.method})
    return record


def _lock_draw(draw: Draw) -> None:
    """In the loading transaction: the draw still takes files (a result entered or a cancellation
    meanwhile refuses the import); the lock keeps it so until the commit."""
    _importable(Draw.objects.select_for_update().select_related("game", "ruleset").get(pk=draw.pk))


# ------------------------------------------------------------------------------------------------
# SQLite (and any database without COPY): Python validation, bulk_create in batches
# ------------------------------------------------------------------------------------------------

def _import_batches(actor, draw: Draw, fmt: LineFormat, stream: IO[bytes], job: _Job, request) -> RetailImport:
    report, validator = _validate_all(draw, fmt, stream, job=job)

    def writer_of(ids: dict[str, int]) -> Callable[[int, list[str]], Line]:
        checker = RowValidator(draw, fmt, draw.ruleset.params, _existing_tickets)

        def line_of(number: int, values: list[str]) -> Line:
            p, __ = checker.check(number, values)
            return Line(draw_id=draw.pk, wager_id=ids[p.ticket], main_mask=p.main_mask, extra_mask=p.extra_mask,
                        plus=p.plus, stake_cents=p.stake_cents, addon_cents=p.plus_cents)

        return line_of

    return _load_in_batches(actor, job, draw, stream, report, validator, request, writer_of)


def _load_in_batches(actor, job: _Job, draw: Draw, stream: IO[bytes], report: Report, checked, request,
                     writer_of: Callable[[dict[str, int]], Callable[[int, list[str]], Line]]) -> RetailImport:
    """Load a file checked in Python (``report``; ``checked``: its tickets' first rows and totals) in
    one transaction: the wagers, then a second pass over the file writes the lines in batches, so the
    file is never held in memory. ``writer_of(ids)`` (ticket -> wager id) returns the function that
    turns a record (number, values) into its `Line`; it is called inside the transaction."""
    if report.bad_rows or report.rows == 0:
        if report.rows == 0:
            report.entries, report.bad_rows = Report.refusal(2, NO_ROWS).entries, 1
        return _refused(actor, job, report, "batches", request)
    record = job.record
    job.phase(RetailImport.Phase.WRITING, 0, report.rows, rows=report.rows)
    now = timezone.now()
    with transaction.atomic():
        _lock_draw(draw)
        wagers = [
            Wager(channel=RETAIL, reference=ticket, draw=draw, retail_terminal=checked.tickets[ticket][2],
                  retail_import=record, sold_at=checked.tickets[ticket][1], paid=True, accepted_at=now,
                  stake_cents=stake, line_count=count)
            for ticket, (stake, count) in checked.totals.items()
        ]
        ids: dict[str, int] = {}
        for i in range(0, len(wagers), BATCH):
            for w in Wager.objects.bulk_create(wagers[i:i + BATCH]):
                ids[w.reference] = w.pk
        line_of = writer_of(ids)
        batch: list[Line] = []
        lines = 0
        stream.seek(0)
        for number, values in _records(stream):
            batch.append(line_of(number, values))
            if len(batch) >= BATCH:
                Line.objects.bulk_create(batch)
                lines += len(batch)
                batch = []
                job.advance(lines)
        if batch:
            Line.objects.bulk_create(batch)
            lines += len(batch)
        finish_import(record, state=RetailImport.State.DONE, method="batches", rows=report.rows, tickets=len(wagers),
                      lines=lines, stake_cents=sum(stake for stake, _ in checked.totals.values()),
                      progress_done=lines, progress_total=report.rows)
        return _done(actor, record, request)


# ------------------------------------------------------------------------------------------------
# PostgreSQL: COPY into staging, set-based validation, INSERT ... SELECT into the tables
# ------------------------------------------------------------------------------------------------

def _row_ok_sql(fmt: LineFormat, draw: Draw) -> str:
    """True when a staged row passes every per-row check (the same checks as RowValidator.check)."""
    parts = []
    for i in range(1, MAIN_COLUMNS + 1):
        parts.append(f"n{i} BETWEEN 1 AND {fmt.main_max}" if i <= fmt.main_count else f"n{i} IS NULL")
    for i in range(1, SECONDARY_COLUMNS + 1):
        parts.append(f"s{i} BETWEEN 1 AND {fmt.secondary_max}" if i <= fmt.secondary_count else f"s{i} IS NULL")
    parts.append(f"(plus IS NULL OR plus BETWEEN 1 AND {fmt.plus_max})" if fmt.plus_max else "plus IS NULL")
    parts.append(f"stake_cents BETWEEN 1 AND {MAX_STAKE_CENTS}")
    parts.append("COALESCE(plus_cents, 0) >= 0")
    parts.append("(plus IS NULL) = (COALESCE(plus_cents, 0) = 0)")
    parts.append("sold_at >= %(open)s AND sold_at < %(close)s")
    main = " | ".join(f"(1::bigint << (n{i} - 1))" for i in range(1, fmt.main_count + 1))
    parts.append(f"bit_count(({main})::bit(64)) = {fmt.main_count}")
    if fmt.secondary_count > 1:
        sec = " | ".join(f"(1 << (s{i} - 1))" for i in range(1, fmt.secondary_count + 1))
        parts.append(f"bit_count(({sec})::bit(32)) = {fmt.secondary_count}")
    # Each part is only evaluated when the ranges before it hold (AND short-circuits on FALSE), and
    # a NULL anywhere makes the row bad.
    return "COALESCE(" + " AND ".join(parts) + ", FALSE)"


def _mask_sql(fmt: LineFormat) -> tuple[str, str]:
    main = " | ".join(f"(1::bigint << (n{i} - 1))" for i in range(1, fmt.main_count + 1))
    sec = " | ".join(f"(1 << (s{i} - 1))" for i in range(1, fmt.secondary_count + 1)) or "0"
    return main, f"({sec})::smallint"


def _work_connection():
    """Another connection to the same database, in autocommit: the import's work tables are
    committed as they are made, so that the work connections and the importing transaction all see
    them; they are dropped at the end (and, after a crash, by the next import, `_drop_leftovers`)."""
    import psycopg

    s = connection.settings_dict
    return psycopg.connect(
        dbname=s["NAME"], user=s.get("USER") or None, password=s.get("PASSWORD") or None,
        host=s.get("HOST") or None, port=s.get("PORT") or None, autocommit=True,
    )


def _split(stream: IO[bytes], end: int) -> list[tuple[int, int]]:
    """Byte ranges of the file streamed side by side (one COPY each, one connection each): two
    halves split at a line end for a file of SPLIT_MIN_BYTES or more without any quote character (a
    quoted field may hold a line end), else the whole content."""
    if end < SPLIT_MIN_BYTES or IMPORT_STREAMS < 2:
        return [(0, end)]
    stream.seek(0)
    while block := stream.read(BLOCK):
        if b'"' in block:
            return [(0, end)]
    stream.seek(end // 2)
    tail = stream.read(BLOCK)
    cut = tail.find(b"\n")
    if cut < 0 or end // 2 + cut + 1 >= end:
        return [(0, end)]
    mid = end // 2 + cut + 1
    return [(0, mid), (mid, end)]


class _Reader:
    """Reads byte ranges of one seekable stream from several threads (a seek and a read under a lock)."""

    def __init__(self, stream: IO[bytes]):
        import threading

        self.stream = stream
        self.lock = threading.Lock()
        self.counted = 0  # bytes read by the readers that count (the COPYs), for the progress
        self.lines = 0  # and the line ends in them

    def blocks(self, start: int, end: int, count: bool = False) -> Iterator[bytes]:
        pos = start
        while pos < end:
            with self.lock:
                self.stream.seek(pos)
                block = self.stream.read(min(BLOCK, end - pos))
                if count:
                    self.counted += len(block)
                    self.lines += block.count(b"\n")
            if not block:
                return
            pos += len(block)
            yield block


def _in_threads(tasks: list[Callable[[], Any]]) -> list[Any]:
    """Run the tasks side by side (the first in this thread); return their results, or raise the first
    exception once all have ended."""
    from concurrent.futures import ThreadPoolExecutor

    if len(tasks) == 1:
        return [tasks[0]()]
    with ThreadPoolExecutor(max_workers=len(tasks) - 1, thread_name_prefix="retail-import") as pool:
        futures = [pool.submit(task) for task in tasks[1:]]
        first: BaseException | None = None
        results: list[Any] = []
        try:
            results.append(tasks[0]())
        except BaseException as exc:  # noqa: BLE001 - re-raised below, after the others ended
            first = exc
        for future in futures:
            try:
                results.append(future.result())
            except BaseException as exc:  # noqa: BLE001
                first = first or exc
    if first is not None:
        raise first
    return results


# The staging text columns compare byte-wise (COLLATE "C"): only equality matters to the import, and
# under the databases' default collation (C.UTF-8, libc) every comparison of a sort calls strcoll
# without abbreviated keys. Everything derived from them (the ticket tables, the joins) is "C" too.
STAGE_COLUMNS = (
    'ticket text COLLATE "C", sold_at timestamptz, terminal text COLLATE "C", n1 smallint, n2 smallint, '
    "n3 smallint, n4 smallint, n5 smallint, n6 smallint, n7 smallint, s1 smallint, s2 smallint, plus smallint, stake_cents integer, "
    "plus_cents integer"
)
LEFTOVER_LOCK = 7_311_000  # advisory lock (this, batch) held by the import that owns the batch's work tables


def _token_regex() -> str:
    """A PostgreSQL pattern matching a non-empty string of TOKEN_CHARS only (the length is checked
    apart: a bounded repeat costs ten times as much)."""
    chars = "".join(sorted(TOKEN_CHARS - {"-"}))
    return f"^[-{chars}]+$"


def _drop_leftovers(cur) -> None:
    """Drop the work tables of imports that died (a killed process leaves them): the tables named after
    a batch whose advisory lock nobody holds, that are not partitions of lottery_line."""
    import psycopg

    cur.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT c.relispartition"
        " AND (c.relname LIKE 'lottery\\_stage\\_b%%' OR c.relname LIKE 'lottery\\_line\\_b%%')"
    )
    found = [name for (name,) in cur.fetchall()]
    cur.execute("SET lock_timeout = '100ms'")  # a table still in use by an open transaction stays
    for name in found:
        digits = name.split("_b", 1)[1].split("_", 1)[0]
        if parse_int(digits) is None:
            continue
        cur.execute("SELECT pg_try_advisory_lock(%s, %s)", [LEFTOVER_LOCK, parse_int(digits)])
        if cur.fetchone()[0]:
            try:
                cur.execute(f"DROP TABLE IF EXISTS {name}")
                log.warning("retail import: dropped the work table %s of an import that did not finish", name)
            except psycopg.errors.LockNotAvailable:
                pass
            finally:
                cur.execute("SELECT pg_advisory_unlock(%s, %s)", [LEFTOVER_LOCK, int(digits)])
    cur.execute("RESET lock_timeout")


def _import_postgresql(actor, draw: Draw, fmt: LineFormat, stream: IO[bytes], job: _Job, request) -> RetailImport:
    import psycopg

    window = {"open": draw.sales_open_at, "close": draw.sales_close_at}
    clock = _Clock()
    end = _content_end(stream)
    ranges = _split(stream, end)
    works = []
    try:
        for __ in ranges:
            works.append(_work_connection())
    except Exception:
        for work in works:
            work.close()
        raise
    cur = works[0].cursor()
    batch = None
    names: list[str] = []
    finished = False
    try:
        cur.execute("SELECT nextval('lottery_bulk_batch_seq')")
        batch = cur.fetchone()[0]
        cur.execute("SELECT pg_advisory_lock(%s, %s)", [LEFTOVER_LOCK, batch])
        _drop_leftovers(cur)
        # The import's ids: batch b owns the ids b * 2**32 + row number, for its wagers (numbered by
        # their first row) and its lines (by their row). Ids from the tables' own sequences stay
        # below 2**32 (migration 0003), so none can collide and no id is drawn row by row.
        base_id = batch * BATCH_ID_SPAN
        stages = [f"lottery_stage_b{batch}_{k}" for k in range(1, len(ranges) + 1)]
        # One ticket table per work connection: connection k groups the tickets of its hash side k
        # (`_ticket_side_sql`), so every ticket is whole in one of them.
        ticket_tables = [f"lottery_stage_b{batch}_t{k}" for k in range(1, len(ranges) + 1)]
        # The lines' tables (partitions): the first half's in one, the other half's in two when it is
        # large (`_line_pieces`), so that both cores write lines once the wagers are in.
        parts = [f"lottery_line_b{batch}_{k}" for k in range(1, 2 * len(ranges))]
        names = stages + ticket_tables + parts
        for work in works:
            work.execute("SELECT set_config('TimeZone', %s, false)", [settings.TIME_ZONE])
            # Room for the per-ticket hash aggregate; no JIT (compiling the checks costs more than it
            # saves on a file, and the queries are planned once). These work sessions only.
            work.execute("SET work_mem = '256MB'")
            work.execute("SET jit = off")
            # The work tables have no statistics (autovacuum is off for them): without these the
            # planner joins the lines to the tickets by sorting both on the ticket text (a merge
            # join), which costs twice the hash join.
            work.execute("SET enable_mergejoin = off")
            work.execute("SET enable_nestloop = off")
            if len(ranges) > 1:
                # The work connections already use both cores side by side; no parallel workers.
                work.execute("SET max_parallel_workers_per_gather = 0")
        reader = _Reader(stream)
        digest = hashlib.sha256()

        def copy_range(k: int) -> Callable[[], int]:
            def run() -> int:
                start, stop = ranges[k]
                header = ", HEADER true" if k == 0 else ""
                with works[k].transaction(), works[k].cursor() as c:
                    # The row number: an identity handed out 10,000 values at a time (a sequence fetch
                    # per row costs a fifth of the COPY). Made in the COPY's transaction, so the rows
                    # are written frozen: the passes that read them set no hint bits (which would
                    # write every page once more).
                    c.execute(f"CREATE UNLOGGED TABLE {stages[k]} (rn bigint GENERATED ALWAYS AS IDENTITY"
                              f" (CACHE 10000), {STAGE_COLUMNS}) WITH (autovacuum_enabled = false)")
                    with c.copy(f"COPY {stages[k]} ({', '.join(HEADER)}) FROM STDIN"
                                f" (FORMAT csv, FREEZE true{header})") as copy:
                        for block in reader.blocks(start, stop, count=True):
                            copy.write(block)
                            if k == 0:  # this thread (the caller's) publishes the progress of all
                                job.advance(reader.counted, end, rows=max(0, reader.lines - 1))
                        if k == len(ranges) - 1:
                            copy.write(b"\n")
                    return c.rowcount
            return run

        marker = []  # a line holding only \. ends a COPY early, silently: such a file goes to the validator

        def hash_file() -> int:
            size = 0
            tail = b""
            for block in reader.blocks(0, 1 << 62):  # the whole file, the blank tail included
                digest.update(block)
                size += len(block)
                for seen in (block, tail + block[:3]):
                    if b"\n\\.\n" in seen or b"\n\\.\r" in seen:
                        marker.append(True)
                tail = block[-3:]
            if tail.endswith(b"\n\\."):
                marker.append(True)
            return size

        try:
            # The halves stream side by side, each into its own staging table on its own connection
            # (the server parses CSV at a core's speed), while this process hashes the file.
            results = _in_threads([copy_range(k) for k in range(len(ranges))] + [hash_file])
        except psycopg.DataError as exc:
            # A value the table cannot hold (not a number, too many columns): the Python validator
            # reads the whole file and reports every bad row.
            log.info("retail import: COPY refused the file (%s); reporting with the validator", exc)
            job.phase(RetailImport.Phase.CHECKING)
            report, __ = _validate_all(draw, fmt, stream, job=job)
            if not report.bad_rows:
                report.add(0, "", Problems.of(_("the file could not be read: %(reason)s"),
                                              reason=str(exc).splitlines()[0]))
            return _refused(actor, job, report, "copy", request)
        if (digest.hexdigest(), results[-1]) != (job.record.file_sha256, job.record.size_bytes):
            # The file read is not the file handed in (the stored copy changed): load nothing.
            raise RuntimeError("the stored file does not match the SHA-256 and size recorded when it was handed in")
        if marker:
            job.phase(RetailImport.Phase.CHECKING)
            report, __ = _validate_all(draw, fmt, stream, job=job)
            if not report.bad_rows:
                report.add(0, "", Problems.of(_("the file has a line \\. (the end-of-data mark of COPY)")))
            return _refused(actor, job, report, "copy", request)
        counts = results[:-1]  # rows loaded by each COPY
        offsets = [sum(counts[:k]) for k in range(len(counts))]
        rows = sum(counts)
        clock.lap("copy to staging and SHA-256")
        if rows == 0:
            report = Report.refusal(2, NO_ROWS)
            return _refused(actor, job, report, "copy", request)
        job.phase(RetailImport.Phase.CHECKING, rows=rows)
        # Every staged row with its number in the file (the header is row 1, the first row 1 here).
        cols = "ticket, sold_at, terminal, n1, n2, n3, n4, n5, n6, n7, s1, s2, plus, stake_cents, plus_cents"
        staged = "(" + " UNION ALL ".join(f"SELECT rn + {off} AS rn, {cols} FROM {stage}"
                                          for stage, off in zip(stages, offsets)) + ")"
        # One pass per work connection, side by side: connection k checks every row of the tickets
        # of its hash side k (from both halves), sums those tickets and decides whether each is bad,
        # into a ticket table of its own (each ticket whole in one table).
        sides = len(works)

        def group_tickets(k: int) -> Callable[[], tuple]:
            def run() -> tuple:
                with works[k].cursor() as c:
                    # A hash aggregate: without statistics the planner expects 200 tickets and sorts
                    # the rows by ticket instead (a fifth slower).
                    c.execute("SET enable_sort = off")
                    c.execute(_ticket_side_sql(fmt, draw, ticket_tables[k], staged, k, sides),
                              {**window, "base": base_id})
                    c.execute("RESET enable_sort")
                    c.execute(f"SELECT COUNT(*) FILTER (WHERE problem), COUNT(*), COALESCE(SUM(lines), 0),"
                              f" COALESCE(SUM(stake), 0) FROM {ticket_tables[k]}")
                    return c.fetchone()
            return run

        counted = _in_threads([group_tickets(k) for k in range(sides)])
        bad_tickets, ticket_count, line_count, stake_total = (sum(int(x[i]) for x in counted) for i in range(4))
        clock.lap("check rows and group tickets")
        if line_count != rows:  # every row is in exactly one ticket table (cannot happen; never load less)
            raise RuntimeError(f"retail import: the ticket tables hold {line_count} rows of {rows}")
        tickets = "(" + " UNION ALL ".join(f"SELECT * FROM {t}" for t in ticket_tables) + ")"
        if bad_tickets:
            report = _report_from_staging(draw, fmt, cur, staged, f"{tickets} tk", "problem", rows)
            return _refused(actor, job, report, "copy", request)
        main, sec = _mask_sql(fmt)
        pieces = _line_pieces(rows, len(ranges))
        # Each piece's id range [lo, hi): together they cover the batch's span, in row order.
        bounds = [base_id] + [base_id + lo for lo, _ in pieces[1:]] + [base_id + BATCH_ID_SPAN]
        parts = parts[:len(pieces)]

        # Where each piece starts and ends in the staging tables: the row's ctid, so that a piece reads
        # only its own blocks (a TID range scan) and the planner, knowing about how many rows that is,
        # hashes the tickets rather than the lines.
        segments = _piece_segments(cur, stages, offsets, counts, pieces)
        wids = " UNION ALL ".join(f"SELECT ticket, wid FROM {t}" for t in ticket_tables)

        def write_lines(i: int, work) -> None:
            # Each piece's lines go into a table of their own, filled without indexes, indexed once,
            # and attached below as a partition of lottery_line (migration 0005).
            rows_of_piece = " UNION ALL ".join(
                f"SELECT rn + {off} AS rn, {cols} FROM {stage}{where}" for stage, off, where in segments[i]
            ) or f"SELECT rn, {cols} FROM {stages[0]} WHERE FALSE"  # an empty piece (a tiny file)
            written = _fill_line_partition(
                work, parts[i], draw, batch, bounds[i], bounds[i + 1],
                f"SELECT {base_id} + s.rn, {main}, {sec}, s.plus, 0::smallint, s.stake_cents,"
                f" COALESCE(s.plus_cents, 0), {int(draw.pk)}::bigint, t.wid"
                f" FROM ({rows_of_piece}) s JOIN ({wids}) t USING (ticket)")  # a hash join
            lo, hi = pieces[i]
            if written != hi - lo:  # every row in exactly one piece (the id CHECK holds them in order)
                raise RuntimeError(f"retail import: piece {i + 1} holds {written} lines, not {hi - lo}")
            with written_lock:
                written_lines[0] += written
                job.progress.advance(written_lines[0], rows, force=True)

        def write_wagers_and_attach() -> RetailImport:
            record = job.record
            with transaction.atomic():
                _lock_draw(draw)
                with connection.cursor() as c:
                    c.execute("SET LOCAL work_mem = '256MB'")  # the tickets sorted in memory (this transaction)
                    c.execute(
                        "INSERT INTO lottery_wager (id, channel, reference, draw_id, player_id, retail_terminal,"
                        " retail_import_id, sold_at, paid, accepted_at, stake_cents, line_count)"
                        f" SELECT wid, %s, ticket, %s, NULL, terminal, %s, sold_at, TRUE, %s, stake, lines"
                        f" FROM {tickets} tk ORDER BY wid",
                        [RETAIL, draw.pk, record.pk, timezone.now()],
                    )
                clock.lap("wagers (first lines alongside)")
                start_other_lines()
                wait_lines()
                clock.lap("lines")
                # The last progress: after it the record is this transaction's to write.
                job.phase(RetailImport.Phase.FINISHING, line_count, rows)
                with connection.cursor() as c:
                    for part, lo, hi in zip(parts, bounds, bounds[1:]):
                        c.execute(f"ALTER TABLE lottery_line ATTACH PARTITION {part} FOR VALUES FROM ({lo}) TO ({hi})")
                    c.execute(f"DROP TABLE {', '.join(stages + ticket_tables)}")
                clock.lap("attach")
                finish_import(record, state=RetailImport.State.DONE, method="copy", rows=rows, tickets=ticket_count,
                        lines=line_count, stake_cents=int(stake_total), batch=batch,
                        progress_done=line_count, progress_total=rows)
                _done(actor, record, request)
            clock.lap("commit")
            return record

        import threading
        from concurrent.futures import ThreadPoolExecutor

        written_lock = threading.Lock()
        written_lines = [0]
        job.phase(RetailImport.Phase.WRITING, 0, rows, rows=rows)
        # Two writers at most at any time: the first piece's lines are written beside the wagers, the
        # others once the wagers are in, one per work connection. Every write here is WAL-logged row
        # by row, and three writers at once spend their time waiting for each other's WAL writes
        # (WALWrite lock) rather than on a core.
        wagers_in = threading.Event()
        stop: list[bool] = []

        def lines_on(work, first: list[int], later: list[int]) -> Callable[[], None]:
            def run() -> None:
                for i in first:
                    write_lines(i, work)
                wagers_in.wait()
                for i in later:
                    if stop:
                        return
                    write_lines(i, work)
            return run

        # works[0]: the first piece, then the third (if any); works[1]: the second, after the wagers.
        jobs = [lines_on(works[0], [0], list(range(2, len(pieces))))]
        if len(pieces) > 1:
            jobs.append(lines_on(works[1], [], [1]))
        pool = ThreadPoolExecutor(max_workers=len(jobs), thread_name_prefix="retail-lines")
        futures = [pool.submit(job) for job in jobs]

        def start_other_lines() -> None:
            wagers_in.set()

        def wait_lines() -> None:
            for future in futures:
                future.result()

        try:
            try:
                record = write_wagers_and_attach()
            finally:
                if not wagers_in.is_set():  # the wagers failed: no more lines
                    stop.append(True)
                    wagers_in.set()
        except (IntegrityError, psycopg.errors.UniqueViolation):
            # A ticket of the file is already in the database (unique channel + reference), committed
            # meanwhile by another import: the validator writes the report.
            for future in futures:
                future.exception()
            report, __ = _validate_all(draw, fmt, stream)
            if not report.bad_rows:
                report.add(0, "", Problems.of(_("a ticket of the file is already in the database")))
            return _refused(actor, job, report, "copy", request)
        finally:
            pool.shutdown(wait=True)
        log.info("retail import %s: %s rows in %s", record.pk, rows, clock)
        finished = True  # its tables are attached or dropped (in a transaction that may still be open)
        return record
    finally:
        try:
            if batch is not None and names and not finished:
                cur.execute(
                    "SELECT relname FROM pg_class WHERE relname = ANY(%s) AND relkind = 'r' AND NOT relispartition",
                    [names],
                )
                left = [name for (name,) in cur.fetchall()]
                if left:  # the import did not finish: nothing of it stays
                    cur.execute("SET lock_timeout = '2s'")
                    cur.execute(f"DROP TABLE IF EXISTS {', '.join(left)}")
            if batch is not None:
                cur.execute("SELECT pg_advisory_unlock(%s, %s)", [LEFTOVER_LOCK, batch])
        finally:
            for work in works:
                work.close()


SPLIT_PIECE_ROWS = 100_000  # a file of at least this many rows (and two work connections) is written in three pieces
FIRST_PIECE_SHARE = 0.46  # the piece written beside the wagers: as long as they take, about


def _line_pieces(rows: int, connections: int) -> list[tuple[int, int]]:
    """The pieces the lines are written in, in row order, as [first row number, row number after):
    with two work connections and SPLIT_PIECE_ROWS rows or more, a first piece written beside the
    wagers and two written side by side after them; else one piece per connection."""
    if connections > 1 and rows >= SPLIT_PIECE_ROWS:
        first = int(rows * FIRST_PIECE_SHARE)
        second = first + (rows - first) // 2
        cuts = [1, first + 1, second + 1, rows + 1]
    else:
        cuts = [1 + rows * k // connections for k in range(connections)] + [rows + 1]
    return list(zip(cuts, cuts[1:]))


def _piece_segments(cur, stages: list[str], offsets: list[int], counts: list[int],
                    pieces: list[tuple[int, int]]) -> list[list[tuple[str, int, str]]]:
    """Each piece's rows [first row number, row number after) as (staging table, row offset, WHERE on
    ctid) segments. A staging table holds its rows in the order of their numbers, block after block
    (one COPY into a table made in its transaction), so a piece's rows are a ctid range of each table
    it spans, bounded by the ctids of its first row and of the next piece's (`_row_ctid`). Were that
    order ever different, a piece's id CHECK (`_fill_line_partition`) would refuse the import."""
    cache: dict[tuple[int, int], str] = {}

    def ctid(k: int, rn: int) -> str:
        if (k, rn) not in cache:
            cache[k, rn] = _row_ctid(cur, stages[k], rn, counts[k])
        return cache[k, rn]

    out = []
    for lo, hi in pieces:
        segments = []
        for k, (stage, off, count) in enumerate(zip(stages, offsets, counts)):
            first, after = max(1, lo - off), min(count + 1, hi - off)  # the table's own row numbers
            if first >= after:
                continue
            conditions = []
            if first > 1:
                conditions.append(f"ctid >= '{ctid(k, first)}'")
            if after <= count:
                conditions.append(f"ctid < '{ctid(k, after)}'")
            segments.append((stage, off, " WHERE " + " AND ".join(conditions) if conditions else ""))
        out.append(segments)
    return out


def _row_ctid(cur, stage: str, rn: int, count: int) -> str:
    """The ctid of the staged row numbered `rn`, found by a binary search over the table's blocks, one
    block read per step (the rows are in number order, `_piece_segments`)."""
    cur.execute(f"SELECT pg_relation_size('{stage}') / current_setting('block_size')::int")
    lo, hi = 0, int(cur.fetchone()[0]) - 1
    while lo <= hi:
        block = (lo + hi) // 2
        cur.execute(f"SELECT MIN(rn), MAX(rn) FROM {stage} WHERE ctid >= '({block},0)' AND ctid < '({block + 1},0)'")
        first, last = cur.fetchone()
        if first is not None and first <= rn <= last:
            cur.execute(f"SELECT ctid::text FROM {stage} WHERE ctid >= '({block},0)' AND ctid < '({block + 1},0)'"
                        f" AND rn = {int(rn)}")
            row = cur.fetchone()
            if row is not None:
                return row[0]
            break
        if first is None or rn > last:
            lo = block + 1
        else:
            hi = block - 1
    raise RuntimeError(f"retail import: row {rn} of {stage} ({count} rows) is not where its number says")


def _ticket_side_sql(fmt: LineFormat, draw: Draw, table: str, staged: str, side: int, sides: int) -> str:
    """CREATE the ticket table of hash side `side` of `sides`: every staged row of those tickets checked
    (`_row_ok_sql`), the tickets summed (wager id: the batch's base plus the first row's number) and
    each ticket flagged `problem` when a row is bad, its rows disagree on the sale or its ticket or
    terminal is not a token. The side of a ticket is a function of its text alone (a NULL ticket is on
    side 0), so the rows of a ticket meet in one table. Text compares byte-wise (the staging columns
    are COLLATE "C"; the token pattern's ranges are ASCII). Parameters: open, close, base."""
    ok = _row_ok_sql(fmt, draw)
    token = _token_regex()
    n = int(sides)
    where = f" WHERE (COALESCE(hashtext(ticket), 0) %% {n} + {n}) %% {n} = {int(side)}" if n > 1 else ""
    return (
        f"CREATE UNLOGGED TABLE {table} WITH (autovacuum_enabled = false) AS SELECT *,"
        f" (bad > 0 OR sold_at IS DISTINCT FROM sold_at_max OR terminal IS DISTINCT FROM terminal_max"
        f"  OR ticket IS NULL OR length(ticket) NOT BETWEEN 1 AND 64 OR ticket !~ '{token}'"
        f"  OR terminal IS NULL OR length(terminal) NOT BETWEEN 1 AND 64 OR terminal !~ '{token}') AS problem FROM ("
        f" SELECT ticket, %(base)s + MIN(rn) AS wid, MIN(rn) AS first_rn, COUNT(*) AS lines,"
        f"  SUM(stake_cents + COALESCE(plus_cents, 0)) AS stake,"
        f"  MIN(sold_at) AS sold_at, MAX(sold_at) AS sold_at_max, MIN(terminal) AS terminal,"
        f"  MAX(terminal) AS terminal_max, COUNT(*) FILTER (WHERE NOT ok) AS bad"
        f" FROM (SELECT rn, ticket, sold_at, terminal, stake_cents, plus_cents, {ok} AS ok FROM {staged} r{where}) s"
        f" GROUP BY ticket) g"
    )


# lottery_line's columns, in order, with their types (migration 0005); `plus` is the only nullable one.
LINE_COLUMNS = (("id", "bigint"), ("main_mask", "bigint"), ("extra_mask", "smallint"), ("plus", "smallint"),
                ("flags", "smallint"), ("stake_cents", "integer"), ("addon_cents", "integer"),
                ("draw_id", "bigint"), ("wager_id", "bigint"))


def _fill_line_partition(work, part: str, draw: Draw, batch: int, lo: int, hi: int, select: str) -> int:
    """Create, fill, index (BRIN) and analyze (on a work connection) the table of lines that becomes
    the partition [lo, hi) of lottery_line; return how many lines it holds. Its CHECK constraints
    let the planner leave it out of a query for another draw or for another batch's wagers, and
    make attaching it need no scan."""
    span_lo, span_hi = int(batch) * BATCH_ID_SPAN, (int(batch) + 1) * BATCH_ID_SPAN
    # CREATE TABLE AS writes through a bulk-insert buffer ring (about a quarter less than INSERT into
    # a table made empty beforehand); the columns are lottery_line's, in its order and types, and get
    # its NOT NULLs, which attaching requires, in the one pass that validates the CHECKs.
    columns = ", ".join(f"{name}::{kind} AS {name}" for name, kind in LINE_COLUMNS)
    names = ", ".join(name for name, _ in LINE_COLUMNS)
    written = work.execute(f"CREATE TABLE {part} AS SELECT {columns} FROM ({select}) x({names})").rowcount
    work.execute(
        f"ALTER TABLE {part} "
        + ", ".join(f"ALTER COLUMN {name} SET NOT NULL" for name, _ in LINE_COLUMNS if name != "plus")
        + f", ADD CONSTRAINT {part}_ids CHECK (id >= {int(lo)} AND id < {int(hi)}),"
        f" ADD CONSTRAINT {part}_draw CHECK (draw_id = {int(draw.pk)}),"
        f" ADD CONSTRAINT {part}_wagers CHECK (wager_id >= {span_lo} AND wager_id < {span_hi})"
    )
    # No unique index on id (migration 0008): the import numbers the lines itself, each row once,
    # and the CHECK above bounds them to the piece. The lines are in id order, so one BRIN index
    # (one pass over the table) finds them by id (the winners list, the settlement's chunks) and by
    # wager (refunds, the winners list's wager filter).
    work.execute(f"CREATE INDEX {part}_brin ON {part} USING brin (id, wager_id) WITH (pages_per_range = 8)")
    # Its statistics come with it when it is attached. A sample of 3,000 lines (statistics target
    # 10) gives the planner what its queries need (row counts; draw, id and wager ranges; a handful
    # of plus numbers and stakes) in a third of the time of the default 30,000.
    work.execute("SET default_statistics_target = 10")
    work.execute(f"ANALYZE {part}")
    work.execute("RESET default_statistics_target")
    return written


class _Clock:
    """Step timings of an import, for the log."""

    def __init__(self) -> None:
        import time

        self._time = time.perf_counter
        self.last = self._time()
        self.laps: list[tuple[str, float]] = []

    def lap(self, name: str) -> None:
        now = self._time()
        self.laps.append((name, now - self.last))
        self.last = now

    def __str__(self) -> str:
        return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in self.laps)


def _content_end(stream: IO[bytes]) -> int:
    """Offset just after the last byte that is not blank (trailing empty lines are not rows)."""
    stream.seek(0, io.SEEK_END)
    end = stream.tell()
    while end > 0:
        start = max(0, end - 65536)
        stream.seek(start)
        tail = stream.read(end - start).rstrip(b"\r\n\t ")
        if tail:
            return start + len(tail)
        end = start
    return 0


def _report_from_staging(draw: Draw, fmt: LineFormat, cur, stage: str, tickets: str, problem: str,
                         rows: int) -> Report:
    """Fetch the bad rows (and every row of a bad ticket) and let the Python validator describe them."""
    ok = _row_ok_sql(fmt, draw)
    cols = ", ".join(f"s.{c}" for c in HEADER)
    cur.execute(
        f"SELECT s.rn, {cols} FROM {stage} s WHERE s.ticket IN (SELECT ticket FROM {tickets} WHERE {problem})"
        f" OR NOT {ok} ORDER BY s.rn LIMIT %(limit)s",
        {"open": draw.sales_open_at, "close": draw.sales_close_at, "limit": MAX_REPORTED_ROWS * 20},
    )
    validator = RowValidator(draw, fmt, draw.ruleset.params, _existing_tickets)
    report = Report(rows=rows)
    zone = timezone.get_default_timezone()
    for rn, *values in cur.fetchall():
        text = ["" if v is None else (v.astimezone(zone).isoformat() if isinstance(v, dt.datetime) else str(v))
                for v in values]
        __, errors = validator.check(rn + 1, text)
        if errors:
            report.add(rn + 1, text[0], errors)
    cur.execute(f"SELECT ticket, first_rn FROM {tickets} ORDER BY first_rn")
    pairs = cur.fetchall()
    existing: set[str] = set()
    for i in range(0, len(pairs), 500):
        existing |= _existing_tickets([t for t, _ in pairs[i:i + 500]])
    for ticket, first_rn in pairs:
        if ticket in existing:
            report.add(first_rn + 1, ticket, Problems.of(ALREADY_IMPORTED, ticket=ticket))
    if report.bad_rows == 0:
        report.add(0, "", Problems.of(_("the file was refused by the database checks; see the server log")))
    report.entries.sort(key=lambda e: e["row"])
    return report


# ------------------------------------------------------------------------------------------------
# files in a game's own columns (`RetailFormat.COLUMNS`: ticket,sold_at,terminal, the codec's columns,
# stake_cents and, for a game with an add-on, addon_cents); rows are checked in Python by the game's
# codec (the prize engine's validate_line) and written with bulk inserts in batches, in two passes
# over the file so that it is never held in memory
# ------------------------------------------------------------------------------------------------

@dataclass
class ColumnsRow:
    row: int
    ticket: str
    sold_at: dt.datetime
    terminal: str
    line: LineValues
    stake_cents: int
    addon_cents: int


class ColumnsChecker:
    """Checks rows one by one, remembering each ticket's first row (sale time and terminal)."""

    def __init__(self, draw: Draw, codes: Mapping[str, int] | None = None):
        self.draw = draw
        self.codec = registry.get(draw.game.code).codec
        self.params = draw.ruleset.params
        self.header = self.codec.retail_header()
        self.numeric = {c.name for c in self.codec.csv_columns if c.numeric} | {"stake_cents", "addon_cents"}
        self.codes = codes
        self.tickets: dict[str, tuple[int, dt.datetime | None, str]] = {}
        self.totals: dict[str, list[int]] = {}  # ticket -> [stake incl. add-on fees, lines] of good rows
        self.names: set[str] = set()  # names the codec turns into codes (Lomatonni's cities)
        self.zone = timezone.get_default_timezone()

    def already_imported(self) -> dict[str, int]:
        """ticket -> first row, for tickets already in the database."""
        return tickets_already_imported(self.tickets, _existing_tickets)

    def check(self, row: int, values: list[str]) -> tuple[ColumnsRow | None, Problems]:
        if len(values) != len(self.header):
            return None, Problems.of(COLUMN_COUNT, expected=len(self.header), found=len(values))
        named = dict(zip(self.header, values))
        ticket, terminal, sold_raw = named["ticket"], named["terminal"], named["sold_at"]
        sold_at, errors = sale_errors(self.draw, self.zone, ticket, sold_raw, terminal)
        unreadable = set()
        for name in self.header:
            raw = named[name].strip()
            if name in self.numeric and raw:
                try:
                    whole(raw, name)
                except RulesError:
                    errors.add(NOT_WHOLE, what=name, value=repr(named[name]))
                    unreadable.add(name)
        stake = addon = None
        if "stake_cents" not in unreadable:
            stake = int(named["stake_cents"]) if named["stake_cents"].strip() else None
            if stake is None or not 1 <= stake <= MAX_STAKE_CENTS:
                errors.add(STAKE_RULE, max=MAX_STAKE_CENTS)
        if "addon_cents" in named and "addon_cents" not in unreadable:
            addon = int(named["addon_cents"]) if named["addon_cents"].strip() else 0
            if addon < 0:
                errors.add(ADDON_NEGATIVE, column="addon_cents")
        line = None
        if not unreadable & {c.name for c in self.codec.csv_columns}:
            try:
                data = self.codec.csv_line(named)
                line = self.codec.parse_retail_line(self.params, data, self.codes)
                self.names |= self.codec.retail_names(data)
            except RulesError as exc:
                errors.add_rules(exc)
        if line is not None and addon is not None and addon >= 0:
            name = self.codec.addon_name
            if line.addon and addon == 0:
                errors.add(_("addon_cents: a %(addon)s line pays the %(addon)s fee"), addon=name)
            elif not line.addon and addon > 0:
                errors.add(_("addon_cents: a line without %(addon)s pays no %(addon)s fee"), addon=name)
        errors.extend(same_ticket_errors(self.tickets, row, ticket, sold_at, terminal))
        if errors or line is None or stake is None:
            return None, errors
        addon = addon or 0
        slot = self.totals.setdefault(ticket, [0, 0])
        slot[0] += stake + addon
        slot[1] += 1
        return ColumnsRow(row, ticket, sold_at, terminal, line, stake, addon), Problems()


def _validate_columns(draw: Draw, stream: IO[bytes], job=None) -> tuple[Report, ColumnsChecker]:
    """The game's own columns' report (`_check_rows` with its checker)."""
    checker = ColumnsChecker(draw)
    return _check_rows(checker, stream, job), checker


def _import_columns(actor, job, draw: Draw, stream: IO[bytes]) -> RetailImport:
    """Load one retail sales file in its game's own columns (Keno, Kaikki tai ei mitään, Tähdenlento,
    Synttärit, Jokeri, Lomatonni; `RetailFormat.COLUMNS`) of a draw (open, or closed and awaiting its
    result) into the claimed import record of `job` (the same-file check is done). Returns the
    record: `done`, or `failed` with the report of every bad row (nothing of the file is loaded then).
    The header was checked by the caller."""
    codec = registry.get(draw.game.code).codec
    report, checker = _validate_columns(draw, stream, job)

    def writer_of(ids: dict[str, int]) -> Callable[[int, list[str]], Line]:
        writer = ColumnsChecker(draw, codec.retail_codes(checker.names, create=True))

        def line_of(number: int, values: list[str]) -> Line:
            row, __ = writer.check(number, values)
            v = row.line
            return Line(draw_id=draw.pk, wager_id=ids[row.ticket], main_mask=v.main_mask, extra_mask=v.extra_mask,
                        plus=v.plus, flags=v.flags, stake_cents=row.stake_cents, addon_cents=row.addon_cents)

        return line_of

    return _load_in_batches(actor, job, draw, stream, report, checker, None, writer_of)


def import_file(*, actor, draw: Draw, path: str) -> RetailImport:
    """Command-line entry: import the file at `path`."""
    with open(path, "rb") as stream:
        return retail_import(actor=actor, draw=draw, stream=stream, file_name=path.rsplit("/", 1)[-1])


