"""Number sets as integer bitmasks (DESIGN §3 step 2).

The database stores a line's picks and a draw's numbers as bitmasks, so that a line's hits
are ``bit_count(line_mask & draw_mask)``. Number ``n`` (1-based) is bit ``n - 1``: picks
{1, 3} -> 0b101 = 5. Keno (1..70) needs 70 bits, more than a signed 64-bit column holds;
the schema must use a wider type (PostgreSQL ``bit(70)`` / ``numeric``) or two columns.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidPicks


def picks_to_mask(picks: Iterable[int], max_number: int | None = None) -> int:
    """Bitmask of a set of numbers; raises InvalidPicks on a duplicate or out-of-range number."""
    mask = 0
    for n in picks:
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidPicks(f"pick {n!r} is not a whole number")
        if n < 1 or (max_number is not None and n > max_number):
            upper = max_number if max_number is not None else "∞"
            raise InvalidPicks(f"number {n} is out of range 1..{upper}")
        bit = 1 << (n - 1)
        if mask & bit:
            raise InvalidPicks(f"number {n} is duplicated")
        mask |= bit
    return mask


def mask_to_picks(mask: int) -> list[int]:
    """The numbers of a bitmask, ascending."""
    if mask < 0:
        raise ValueError("a picks mask cannot be negative")
    out: list[int] = []
    n = 1
    while mask:
        if mask & 1:
            out.append(n)
        mask >>= 1
        n += 1
    return out


def hits(line_mask: int, draw_mask: int) -> int:
    """Number of a line's picks among the drawn numbers."""
    return (line_mask & draw_mask).bit_count()


def contains(mask: int, number: int) -> bool:
    """Whether ``number`` is in the mask (e.g. the Keno Kunkku number on a line)."""
    return number >= 1 and bool(mask >> (number - 1) & 1)
