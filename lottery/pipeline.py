"""The public settlement API a game's settlement strategy uses (below both `lottery.games` and
`lottery.services`).

`lottery.services.settlement` runs a draw's settlement (claim, preconditions, the strategy, the check,
finishing); the strategy of the draw's game (`lottery.games.<game>.SPEC.settlement`) counts, writes and
checks through the pieces here, never through the service's own names:

* `Claim`: the run and the worker that holds it. ``own(**fields)`` proves (inside a transaction)
  that the worker still holds the run, beats its heartbeat and stores ``fields``; ``halt(problems,
  checked)`` stops the run for staff with a significant audit event; ``chunk_written(done)`` is
  called after every committed chunk (the service's hook, where tests inject a crash).
* `chunk_lines()`, `parallelism()`: the chunk size and the number of worker connections.
* `cents()`: an engine amount as integer cents.
* `winners_indexes()`: the winners list's indexes of a run (PostgreSQL).
* `check_written()`: the second computation's count of the written winners, compared with path A and
  the engine (the check every strategy ends with).

Imports: `lottery.models`, `compliance`; nothing of `lottery.games` or `lottery.services`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.audit import audit_record
from compliance.errors import stored_message
from compliance.money import format_cents

from .matching import DIRECT_ID_LIMIT, LINE_TABLE
from .models import RetailImport, RunState, SettlementChunk, SettlementRun

__all__ = ["DIRECT_ID_LIMIT", "LINE_TABLE", "Claim", "LostClaim", "SettlementHalted", "cents", "check_written",
           "chunk_lines", "chunks_of", "parallelism", "plan_imports", "winners_indexes"]


class LostClaim(Exception):
    """Another worker took the run over (ours was considered dead); stop without writing."""


class SettlementHalted(Exception):
    """The second computation disagrees with the first; the run is halted for staff."""


def chunk_lines() -> int:
    return int(getattr(settings, "LOTTERY_SETTLEMENT_CHUNK_LINES", 500_000))


def parallelism() -> int:
    """Chunks written at once, each by its own connection: only on PostgreSQL, and only outside a
    transaction (other connections could not see its rows)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return 1
    return max(1, int(getattr(settings, "LOTTERY_SETTLEMENT_WORKERS", 1)))


def cents(amount: str | None) -> int | None:
    """Engine amount (a decimal string in euros, whole cents) -> integer cents."""
    if amount is None:
        return None
    value = Decimal(amount) * 100
    if value != value.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of cents")
    return int(value)


def _no_hook(run: SettlementRun, done: int) -> None:
    return None


@dataclass
class Claim:
    """A settlement run held by one worker (`lottery.services.settlement.claim` took it)."""

    run: SettlementRun
    worker: str
    on_chunk: Callable[[SettlementRun, int], None] = field(default=_no_hook)

    def own(self, **fields: Any) -> None:
        """Inside a transaction: prove we still hold the claim (and beat), or stop (LostClaim)."""
        n = SettlementRun.objects.filter(pk=self.run.pk, claimed_by=self.worker, state=RunState.RUNNING).update(
            heartbeat_at=timezone.now(), **fields
        )
        if n != 1:
            raise LostClaim(f"{self.run} was taken over by another worker")

    def halt(self, problems: list[dict[str, Any]], checked: dict) -> None:
        """Stop the run for staff: the two computations (or the plan and the lines) disagree. `problems`:
        stored messages (`problem(...)`), kept in English in `error` and the audit event and shown in the
        reader's language from `error_messages`."""
        run = self.run
        texts = [p["message"] for p in problems]
        with transaction.atomic():
            self.own(state=RunState.HALTED, check_counts=checked, error="; ".join(texts)[:2000],
                     error_messages=problems[:50])
            audit_record(actor="system:settlement", action="lottery.settlement_disagreement", obj=run,
                         significant=True,
                         data={"tier_counts": run.tier_counts, "check_counts": checked, "problems": texts})
        raise SettlementHalted("; ".join(texts))

    def chunk_written(self) -> None:
        """After a chunk's transaction committed: count the done chunks on the run, call the hook."""
        done = SettlementChunk.objects.filter(run=self.run, done_at__isnull=False).count()
        self.run.chunks_done = done
        self.on_chunk(self.run, done)


#: What a settlement check returns: the written winners counted per class, and the problems found (stored
#: messages, `problem`), empty when the two computations agree.
Check = tuple[dict[str, dict[str, int]], list[dict[str, Any]]]


def problem(template: Any, **params: Any) -> dict[str, Any]:
    """A settlement problem as a stored message: English for the record, msgid and parameters to show it
    in the reader's language (`compliance.errors.shown_message`)."""
    return stored_message(template, **params)


#: What the check says when the counts of a class differ, by what the second count of a class is.
COUNTED_WRITTEN = {
    "boosted": _("class %(key)s: counted %(counted)s winners (%(counted_extra)s boosted), written %(written)s "
                 "(%(written_extra)s boosted)"),
    "with the add-on": _("class %(key)s: counted %(counted)s winners (%(counted_extra)s with the add-on), "
                         "written %(written)s (%(written_extra)s with the add-on)"),
}
PLAN_MISMATCH = _("the chunk plan covers %(planned)s lines, the draw has %(lines)s")


WINNERS_INDEXES = {"class": "run_id, class_no, line_id", "prize": "run_id, prize_cents, line_id"}


def winners_indexes(run: SettlementRun, which=tuple(WINNERS_INDEXES), analyze: bool = True) -> None:
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


def check_written(run: SettlementRun, key_of: Callable[[int], str], extra: str,
                  order: Callable[[str], Any]) -> Check:
    """Count the written winners per class (the second computation: winners, boosted or add-on winners
    and money per class, or per cell for the cell games) and compare them with path A's tier counts
    and the engine's paid totals. ``key_of``: the tier key of a written class number; ``extra``: what
    the second count of a class is called in a problem ("boosted", "with the add-on")."""
    checked: dict[str, dict[str, int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT class_no, boosted, COUNT(*), SUM(prize_cents), MIN(prize_cents) FROM lottery_winning "
            "WHERE run_id = %s GROUP BY class_no, boosted", [run.pk],
        )
        rows = cursor.fetchall()
    problems: list[dict[str, Any]] = []
    for class_no, boosted, n, paid, lowest in rows:
        key = key_of(class_no)
        slot = checked.setdefault(key, {"winners": 0, "boosted": 0, "paid_cents": 0})
        slot["winners"] += n
        slot["paid_cents"] += int(paid or 0)
        if boosted:
            slot["boosted"] += n
        if lowest is not None and lowest < 0:
            problems.append(problem(_("class %(key)s: winners found that the tier counts do not have"), key=key))
    counted = run.tier_counts or {}
    for key in sorted(set(counted) | set(checked), key=order):
        a = counted.get(key, {"winners": 0, "boosted": 0})
        b = checked.get(key, {"winners": 0, "boosted": 0, "paid_cents": 0})
        if (a["winners"], a.get("boosted", 0)) != (b["winners"], b["boosted"]):
            problems.append(problem(COUNTED_WRITTEN[extra], key=key, counted=a["winners"],
                                    counted_extra=a.get("boosted", 0), written=b["winners"], written_extra=b["boosted"]))
    for key, c_ in run.engine_result["classes"].items():
        expected = cents(c_["paid"])
        got = checked.get(key, {}).get("paid_cents", 0)
        # Imported or common classes pay per winner too; every class's paid total is per-winner prizes.
        if expected != got:
            problems.append(problem(_("class %(key)s: the engine pays %(engine)s, the winners add up to %(written)s"),
                                    key=key, engine=format_cents(expected, language="en"),
                                    written=format_cents(got, language="en")))
    if SettlementChunk.objects.filter(run=run, done_at__isnull=True).exists():
        problems.append(problem(_("not every chunk of lines was written")))
    return checked, problems


def plan_imports(run: SettlementRun, ranges: list[tuple[int, int]]) -> int:
    """Add the id range every COPY-loaded retail import of the run's draw owns (from its record) to
    ``ranges``; returns how many lines they hold."""
    imported = 0
    for batch, rows in RetailImport.objects.filter(draw=run.draw, state=RetailImport.State.DONE,
                                                   batch__isnull=False).values_list("batch", "lines"):
        ranges.append((batch * DIRECT_ID_LIMIT + 1, batch * DIRECT_ID_LIMIT + rows))
        imported += rows
    return imported


def chunks_of(run: SettlementRun, ranges: list[tuple[int, int]]) -> list[SettlementChunk]:
    """Chunks of at most LOTTERY_SETTLEMENT_CHUNK_LINES line ids over the ranges (inclusive)."""
    size = chunk_lines()
    chunks = []
    for lo, hi in sorted(ranges):
        start = lo
        while start <= hi:
            chunks.append(SettlementChunk(run=run, lo=start, hi=min(start + size, hi + 1)))
            start += size
    return chunks
