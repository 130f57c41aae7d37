"""Pari-mutuel building blocks (§28, §29, §30; digest §5.1-§5.3, §15.1).

* :func:`form_pool` -- a class's pool from its share, rollover, minimum and maximum pools.
* :func:`merge_classes` -- the merge rule: "if a higher class's prize is computationally
  smaller than a lower class's, the distribution sums are combined and paid as equal prizes".
  Applied repeatedly over adjacent groups (pool-adjacent-violators, digest W4 / A2) to the
  classes that have winners, on exact values, until prizes are non-increasing by rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

ZERO = Fraction(0)


@dataclass(frozen=True)
class PoolFormation:
    pool: Fraction  # distributable this round (0 when nobody won)
    topup: Fraction  # minimum-pool top-up included in ``pool`` (or carried, see below)
    rollover_out: Fraction  # carried to the same class next round
    excess: Fraction  # cut by the maximum pool; goes to ``overflow_to`` or out
    capped: bool
    notes: tuple[str, ...]


def form_pool(
    *,
    base: Fraction,
    rollover_in: Fraction,
    winners: int,
    min_pool: Fraction | None,
    max_pool: Fraction | None,
    min_pool_mode: str,
    rollover_carries_topup: bool,
) -> PoolFormation:
    """Digest §15.1, first loop.

    ``base`` is the class's booked share (or common distribution sum) plus any overflow it
    received this round; ``rollover_in`` the amount carried from earlier rounds.

    Minimum pool (A3): ``after_rollover`` -> pool = max(base + rollover, min);
    ``before_rollover`` -> pool = max(base, min) + rollover. When the class has no winner,
    the shares (base + rollover) roll over; the top-up too only if
    ``rollover_carries_topup`` (Vikinglotto's "jakosumma siirtyy", see NOTES.md).
    A maximum pool limits both the pool and the amount carried; the excess is returned.
    """
    notes: list[str] = []
    own = base + rollover_in
    if min_pool is None:
        topup = ZERO
    elif min_pool_mode == "before_rollover":
        topup = max(ZERO, min_pool - base)
    else:
        topup = max(ZERO, min_pool - own)
    if winners == 0:
        carry = own + (topup if rollover_carries_topup else ZERO)
        if topup and not rollover_carries_topup:
            notes.append("no winner: the minimum-pool top-up is not carried over (A3)")
        used_topup = topup if rollover_carries_topup else ZERO
        excess = ZERO
        if max_pool is not None and carry > max_pool:
            excess = carry - max_pool
            carry = max_pool
        return PoolFormation(carry, used_topup, carry, excess, excess > 0, tuple(notes))
    pool = own + topup
    excess = ZERO
    if max_pool is not None and pool > max_pool:
        excess = pool - max_pool
        pool = max_pool
    return PoolFormation(pool, topup, ZERO, excess, excess > 0, tuple(notes))


@dataclass(frozen=True)
class MergeItem:
    key: str
    pool: Fraction
    winners: int


def merge_classes(items: Sequence[MergeItem]) -> list[list[MergeItem]]:
    """Pool-adjacent-violators over ``items`` (classes with winners, in rank order).

    Two adjacent groups are merged while the higher-ranked group's prize
    ``Σpool / Σwinners`` is strictly smaller than the lower-ranked group's. The result is
    the unique non-increasing sequence of group prizes the repeated pairwise rule reaches
    (digest W3, W4). Equal prizes are not merged (the rule needs "smaller").
    """
    stack: list[tuple[list[MergeItem], Fraction, int]] = []
    for item in items:
        if item.winners <= 0:
            raise ValueError("only classes with winners take part in the merge")
        group, pool, n = [item], item.pool, item.winners
        while stack and stack[-1][1] * n < pool * stack[-1][2]:  # prev avg < this avg
            prev_group, prev_pool, prev_n = stack.pop()
            group, pool, n = prev_group + group, prev_pool + pool, prev_n + n
        stack.append((group, pool, n))
    return [g for g, _, _ in stack]
