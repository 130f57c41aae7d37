"""Typed inputs of a settlement computation.

Two shapes (DESIGN §3 step 3: "tier counts and stakes go to the pure rules engine"):

* :class:`ClassRound` -- games whose prize depends on the class only (pari-mutuel and
  fixed-prize games: Lotto, Eurojackpot, Vikinglotto, Milli, Jokeri, Lomatonni): winner
  counts per class plus the round's money (turnover, jackpot, rollovers).
* :class:`MultiplierRound` -- games whose prize is stake x multiplier (Keno, Kaikki tai ei
  mitään, Synttärit, Tähdenlento): buckets of identical lines (same cell, same stake).

Amounts are Decimals in euros. Class keys are strings ("1", "2", ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal


@dataclass(frozen=True)
class CentralPrize:
    """A per-class prize imported from the multinational central system (§26, digest A6).

    ``prize`` is paid as is to each Finnish winner; ``winners`` is the multinational winner
    count, kept for audit only.
    """

    prize: Decimal
    winners: int | None = None


@dataclass(frozen=True)
class ClassRound:
    turnover: Decimal
    winners: Mapping[str, int]
    #: The round's confirmed jackpot (Lotto §28, Milli §31, Jokeri §35).
    jackpot: Decimal | None = None
    #: Operator's per-round decision to pay an unwon jackpot in the highest winning class
    #: (Lotto §28 "voidaan jakaa", Jokeri §35); discretionary, so off unless set.
    jackpot_to_highest_class: bool = False
    rollover_in: Mapping[str, Decimal] = field(default_factory=dict)
    #: Plussa (§28, §30): per class, the winners in Plussa whose plus number is correct.
    plussa_boosted: Mapping[str, int] = field(default_factory=dict)
    #: Plussa extra turnover; informative only: it is excluded from the share base.
    plussa_turnover: Decimal | None = None
    #: Vikinglotto common classes 1-2: the class's distribution sum (jakosumma), §30.
    common_pools: Mapping[str, Decimal] = field(default_factory=dict)
    #: Per-class prizes imported from the central system (Eurojackpot, Vikinglotto 1-2).
    central: Mapping[str, CentralPrize] = field(default_factory=dict)
    #: Eurojackpot: the prize pool (jakosumma) when given instead of pool_fraction x turnover.
    prize_pool: Decimal | None = None
    #: Vikinglotto: lines taking part in the draw (for the 0.185 € contribution, §30).
    lines_in_draw: int | None = None
    #: Jokeri Tuplaus (§35): per class, winning lines in Tuplaus with the correct number.
    tuplaus: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Bucket:
    """``count`` identical lines of a multiplier game, already classified.

    ``class_key`` is None for a losing bucket. ``cap_group`` names the group whose sum is
    capped (a Keno cell, a KTEM class, a Tähdenlento cell or row). ``stake`` is the stake
    the multiplier and any stake-proportional split use (base stake by default, A9).
    """

    index: int
    count: int
    stake: Decimal
    class_key: str | None
    multiplier: Decimal
    cap_group: str | None = None


@dataclass(frozen=True)
class MultiplierRound:
    buckets: tuple[Bucket, ...]
