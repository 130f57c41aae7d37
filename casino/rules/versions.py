"""What a rule version's data means for its odds (no Django, no database; docs/casino.md "Rule versions").

* :func:`payout_cells` -- the payout ratios of a variant's rule data, by path.
* :func:`lowered_cells` -- the cells a new version pays less on than the version it supersedes
  (odds in a version are minimums a new version may raise, never lower: issue 17 item 5).
* :func:`house_edge` -- the house edge of every bet of a variant's data, from the game family's own
  ``house_edge(variant)`` (exact enumeration), or None where the family has none.

**What counts as a payout ratio.** The engines write every ratio as a JSON *string* (``"35"``,
``"3/2"``, ``"1/2"``); integers in the data are counts and structure (decks, sector counts, totals,
tableau rows, numbers of a call bet). A payout ratio is therefore every leaf that is a string holding
a number or a fraction, except those whose key (or a key above it) says it is not what a winner is
paid: a commission or fee, a probability, a multiple or number of antes a player must add, a minimum
or maximum, what a surrender loses, a rank or symbol. Cells are named by their path in the data
(``payouts.straight``, ``bonus_paytable.AA``, ``sectors[0].odds``). A cell of the superseded version
that the new one no longer has, or no longer has as a number, counts as lowered (to nothing).
A changed word (``bonus_odds_kind: "to_one"`` to ``"for_one"``) is not compared.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .base import TableGame

#: A key on the path of a numeric string that makes it something other than a payout ratio.
NOT_PAYOUT = re.compile(
    r"commission|fee|probability|multiple|antes?$|^min|^max|_min|_max|min_|max_|loses|rank|symbol|qualif"
)
_NUMBER = re.compile(r"\s*\d+(\.\d+)?(\s*/\s*\d+)?\s*")


@dataclass(frozen=True)
class LoweredCell:
    path: str
    before: str
    after: str | None  # None: the new version has no such cell


def _ratio(value: Any) -> Fraction | None:
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        try:
            return Fraction(value.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            return None
    return None


def payout_cells(data: Any) -> dict[str, str]:
    """Every payout ratio of the rule data: path -> the ratio as written (in the data's order)."""
    cells: dict[str, str] = {}

    def walk(node: Any, path: str, excluded: bool) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else str(key), excluded or bool(NOT_PAYOUT.search(str(key))))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]", excluded)
        elif not excluded and _ratio(node) is not None:
            cells[path] = node

    walk(data, "", False)
    return cells


def lowered_cells(before: Any, after: Any) -> list[LoweredCell]:
    """The payout ratios of `before` that `after` lowers or drops, in `before`'s order."""
    new = payout_cells(after)
    lowered = []
    for path, old in payout_cells(before).items():
        value = new.get(path)
        if value is None or _ratio(value) < _ratio(old):
            lowered.append(LoweredCell(path, old, value))
    return lowered


def house_edge(engine: TableGame, data: Mapping[str, Any]) -> dict[str, Fraction] | None:
    """The house edge of every bet of the variant data (exact fractions), or None when the engine's
    family module defines no ``house_edge`` (games whose edge depends on the player's strategy or an
    outcome space too large to enumerate: blackjack, Russian poker, Pai Gow ...). Raises EngineError
    when the data lacks a value the edge needs (a value the rulebook lost)."""
    module = importlib.import_module(type(engine).__module__)
    compute = getattr(module, "house_edge", None)
    if compute is None:
        return None
    # Families with one engine per rulebook (roulette) take the engine: its wheel and tables.
    if "engine" in inspect.signature(compute).parameters:
        return compute(data, engine=engine)
    return compute(data)


def canonical_json(data: Any) -> str:
    """The one text of a rule data: keys sorted, no spaces, UTF-8 as is (what its SHA-256 is taken of)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(data: Any) -> str:
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()
