"""Typed results of a settlement computation.

Every amount is a :class:`~decimal.Decimal` with two decimals, in euros, and is exact: the
engine books every amount in whole cents (``money.to_decimal`` refuses anything else).

Per class the books balance as ``allocated + extra = paid + breakage`` and, per round,
``totals.money_in = paid + breakage + rollover_out + fund + overflow_out`` (see
``docs/prize-engine.md`` for what "money in" contains in each game).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class PlussaOutcome:
    """Plussa boost of one class (§28, §30; digest §15.2)."""

    boosted: int  # winning lines of the class in Plussa with the correct plus number
    prize: Decimal  # payable per boosted line (base prize included)
    basis: Decimal  # the amount compared with the 1,000,000 limit
    limited: bool  # True when the 4,000,000 rule applied instead of 5x
    extra: Decimal  # funded boost: 4,000,000 when limited, else the boosted lines' extra
    breakage: Decimal


@dataclass(frozen=True)
class TuplausOutcome:
    """Jokeri Tuplaus doubling of one class (§35; digest §5.8)."""

    doubled: int
    prize: Decimal  # payable per doubled line
    extra: Decimal  # funded doubling (0 when the doubling was paid inside the class cap)


@dataclass(frozen=True)
class ClassOutcome:
    key: str
    label: str
    kind: str  # jackpot | share | common | fixed | plus | multiplier
    winners: int
    rollover_in: Decimal
    pool: Decimal  # the class's own distributable sum (multiplier games: calculated value)
    allocated: Decimal  # what its winners are entitled to after merge, caps and top-ups
    topup: Decimal  # of ``allocated``: operator top-up (minimum pool, minimum prize)
    extra: Decimal  # boosted part funded on top (Plussa, Tuplaus)
    prize: Decimal | None  # per winner; None where lines differ (multiplier games) or no winner
    paid: Decimal
    breakage: Decimal
    rollover_out: Decimal
    capped: bool
    merged_with: tuple[str, ...] = ()
    imported: bool = False
    central_winners: int | None = None
    plussa: PlussaOutcome | None = None
    tuplaus: TuplausOutcome | None = None


@dataclass(frozen=True)
class LineOutcome:
    """One input bucket of identical lines (multiplier games)."""

    index: int
    class_key: str | None
    count: int
    stake: Decimal  # per line, the stake the multiplier and the cap split use
    calculated: Decimal  # per line, stake x multiplier before caps
    prize: Decimal  # per line, payable
    paid: Decimal  # prize x count


@dataclass(frozen=True)
class MergeOutcome:
    """A group of classes merged by the rule of §28/§29/§30 (pool-adjacent-violators)."""

    classes: tuple[str, ...]
    winners: int
    pool: Decimal
    prize: Decimal  # payable per winner in every class of the group (before any minimum)
    paid: Decimal
    breakage: Decimal


@dataclass(frozen=True)
class RoundOutcome:
    game: str
    classes: tuple[ClassOutcome, ...]
    totals: dict[str, Decimal]
    explain: tuple[str, ...]
    lines: tuple[LineOutcome, ...] | None = None
    merges: tuple[MergeOutcome, ...] = field(default_factory=tuple)

    def class_(self, key: str) -> ClassOutcome:
        for c in self.classes:
            if c.key == key:
                return c
        raise KeyError(key)
