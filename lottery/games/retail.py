"""Retail sales files of the six games of `lottery.games` (docs/draws.md, "Retail sales file").

Called by `lottery.services.retail.retail_import` (which checks the draw's state). Same rules as
the number games' files: UTF-8 CSV, a header row, one row per line, the rows of a ticket make one
wager; the whole file is checked first and a file with any bad row loads nothing, with a report of
every bad row (its record number, the header being row 1) and every problem. Each game has its own
columns (`lottery.games.retail_header`): ``ticket,sold_at,terminal``, the game's columns, then
``stake_cents`` and, for a game with an add-on, ``addon_cents``.

Rows are checked in Python (by the prize engine's ``validate_line``, through the game's codec) and
written with bulk inserts in batches, in two passes over the file so that it is never held in memory.
"""

from __future__ import annotations

import codecs
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from django.db import transaction
from django.utils import timezone

from ..models import RETAIL, Draw, Line, RetailImport, Wager
from ..rules.errors import RulesError
from . import codec, retail_header
from .base import LineValues, whole
from .lomatonni import DEFER

BATCH = 2000


def _retail():
    from ..services import retail

    return retail


@dataclass
class Row:
    row: int
    ticket: str
    sold_at: dt.datetime
    terminal: str
    line: LineValues
    stake_cents: int
    addon_cents: int
    city: str | None = None


class RowChecker:
    """Checks rows one by one, remembering each ticket's first row (sale time and terminal)."""

    def __init__(self, draw: Draw, codes: Mapping[str, int] | object = DEFER):
        self.draw = draw
        self.game = draw.game.code
        self.codec = codec(self.game)
        self.params = draw.ruleset.params
        self.header = retail_header(self.game)
        self.numeric = {c.name for c in self.codec.csv_columns if c.numeric} | {"stake_cents", "addon_cents"}
        self.codes = codes
        self.tickets: dict[str, tuple[int, dt.datetime | None, str]] = {}
        self.totals: dict[str, list[int]] = {}  # ticket -> [stake incl. add-on fees, lines] of good rows
        self.cities: set[str] = set()
        self.zone = timezone.get_default_timezone()

    def check(self, row: int, values: list[str]) -> tuple[Row | None, list[str]]:
        r = _retail()
        if len(values) != len(self.header):
            return None, [f"expected {len(self.header)} columns, found {len(values)}"]
        named = dict(zip(self.header, values))
        ticket, terminal, sold_raw = named["ticket"], named["terminal"], named["sold_at"]
        sold_at, errors = r.sale_errors(self.draw, self.zone, ticket, sold_raw, terminal)
        unreadable = set()
        for name in self.header:
            raw = named[name].strip()
            if name in self.numeric and raw:
                try:
                    whole(raw, name)
                except RulesError:
                    errors.append(f"{name}: {named[name]!r} is not a whole number")
                    unreadable.add(name)
        stake = addon = None
        if "stake_cents" not in unreadable:
            stake = int(named["stake_cents"]) if named["stake_cents"].strip() else None
            if stake is None or not 1 <= stake <= r.MAX_STAKE_CENTS:
                errors.append(f"stake_cents: a whole number of cents from 1 to {r.MAX_STAKE_CENTS} is needed")
        if "addon_cents" in named and "addon_cents" not in unreadable:
            addon = int(named["addon_cents"]) if named["addon_cents"].strip() else 0
            if addon < 0:
                errors.append("addon_cents: cannot be negative")
        line = None
        if not unreadable & {c.name for c in self.codec.csv_columns}:
            try:
                data = self.codec.csv_line(named)
                if self.game == "lomatonni":
                    line = self.codec.parse_line(self.params, data, codes=self.codes)
                    self.cities.add(str(data.get("city", "")).strip())
                else:
                    line = self.codec.parse_line(self.params, data)
            except RulesError as exc:
                errors.append(str(exc))
        if line is not None and addon is not None and addon >= 0:
            name = self.codec.addon_name
            if line.addon and addon == 0:
                errors.append(f"addon_cents: a {name} line pays the {name} fee")
            elif not line.addon and addon > 0:
                errors.append(f"addon_cents: a line without {name} pays no {name} fee")
        errors += r.same_ticket_errors(self.tickets, row, ticket, sold_at, terminal)
        if errors or line is None or stake is None:
            return None, errors
        addon = addon or 0
        slot = self.totals.setdefault(ticket, [0, 0])
        slot[0] += stake + addon
        slot[1] += 1
        return Row(row, ticket, sold_at, terminal, line, stake, addon), []


def _header_problem(stream: IO[bytes], header: list[str]) -> str | None:
    stream.seek(0)
    first = stream.readline(4096)
    try:
        text = codecs.decode(first, "utf-8-sig").strip()
    except UnicodeDecodeError:
        return "the file is not UTF-8 text"
    if [c.strip() for c in text.split(",")] != header:
        return "the first row must be the header: " + ",".join(header)
    return None


def _validate(draw: Draw, stream: IO[bytes], job=None) -> tuple[Any, RowChecker]:
    r = _retail()
    checker = RowChecker(draw)
    report = r.Report()
    stream.seek(0)
    for number, values in r._records(stream):
        report.rows += 1
        r.read_progress(job, stream, report.rows)
        if not values:
            report.add(number, "", ["the row is empty"])
            continue
        _, errors = checker.check(number, values)
        if errors:
            report.add(number, values[0] if values else "", errors)
    for ticket, first_row in r.tickets_already_imported(checker.tickets, r._existing_tickets).items():
        report.add(first_row, ticket, [f"ticket {ticket} was already imported"])
    report.entries.sort(key=lambda e: e["row"])
    return report, checker


def retail_import_game(*, actor, job, draw: Draw, stream: IO[bytes]) -> RetailImport:
    """Load one retail sales file of a Keno, Kaikki tai ei mitään, Tähdenlento, Synttärit, Jokeri or
    Lomatonni draw (open, or closed and awaiting its result) into the claimed import record of `job`
    (`services.retail._Job`; the same-file check is done). Returns the record: `done`, or `failed`
    with the report of every bad row (nothing of the file is loaded then)."""
    from .lomatonni import city_codes

    r = _retail()
    record = job.record
    problem = _header_problem(stream, retail_header(draw.game.code))
    if problem:
        return r._refused(actor, job, r.Report(entries=[{"row": 1, "ticket": "", "errors": [problem]}], bad_rows=1),
                          "", None)
    report, checker = _validate(draw, stream, job)
    if report.bad_rows or report.rows == 0:
        if report.rows == 0:
            report.entries, report.bad_rows = [{"row": 2, "ticket": "", "errors": ["the file has no sales rows"]}], 1
        return r._refused(actor, job, report, "batches", None)
    job.phase(RetailImport.Phase.WRITING, 0, report.rows, rows=report.rows)
    now = timezone.now()
    with transaction.atomic():
        r._lock_draw(draw)
        codes = city_codes(checker.cities, create=True) if draw.game.code == "lomatonni" else DEFER
        wagers = [
            Wager(channel=RETAIL, reference=ticket, draw=draw, retail_terminal=checker.tickets[ticket][2],
                  retail_import=record, sold_at=checker.tickets[ticket][1], paid=True, accepted_at=now,
                  stake_cents=stake, line_count=lines)
            for ticket, (stake, lines) in checker.totals.items()
        ]
        ids: dict[str, int] = {}
        for i in range(0, len(wagers), BATCH):
            for w in Wager.objects.bulk_create(wagers[i:i + BATCH]):
                ids[w.reference] = w.pk
        writer = RowChecker(draw, codes)
        batch: list[Line] = []
        written = 0
        stream.seek(0)
        for number, values in r._records(stream):
            row, _ = writer.check(number, values)
            v = row.line
            batch.append(Line(draw_id=draw.pk, wager_id=ids[row.ticket], main_mask=v.main_mask, extra_mask=v.extra_mask,
                              plus=v.plus, flags=v.flags, stake_cents=row.stake_cents, addon_cents=row.addon_cents))
            if len(batch) >= BATCH:
                Line.objects.bulk_create(batch)
                written += len(batch)
                batch = []
                job.advance(written)
        if batch:
            Line.objects.bulk_create(batch)
            written += len(batch)
        r.finish_import(record, state=RetailImport.State.DONE, method="batches", rows=report.rows, tickets=len(wagers),
                  lines=written, stake_cents=sum(stake for stake, _ in checker.totals.values()),
                  progress_done=written, progress_total=report.rows)
        return r._done(actor, record, None)
