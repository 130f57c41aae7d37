"""The tables the settlement's check computation holds as code, compared with a rule version.

Settlement has two computations that must agree (DESIGN §3 step 4): path A classifies with the prize
engine, which reads every table from the run's rule version (`RuleSet.params`); path B (the check:
each game's codec in `lottery.games`, asked through `lottery.games.registry`) has its
own tables, written out by hand from the rulebook and released with the code, and never reads them
from the rule version, so that one wrong cell in a rule version cannot pass both paths.

A rule version whose tables path B does not have, or has differently, would be settled by path A and
contradicted by path B: every settlement under it would halt. `differences(game, params)` lists those
cells, and `lottery.services.ruleset_publish` refuses such a version at publish time, naming them.

What path B holds (each game's ``check_cells``): the number games' list of classes and the format its
class conditions assume (``classes``, ``format.numbers``, ``format.additional``, ``format.stars``); the
multiplier tables of Keno (``multipliers.<level>.<hits>.base|kunkku``), Kaikki tai ei mitään
(``multipliers.<hits>.base|clover``) and Tähdenlento (``multipliers.<type>.<hits>.base|bonus``, the
bonus twice the base), Synttärit's classes (``classes.<class>.match|multiplier``), Jokeri's digits per
class (``classes.<class>.digits``, ``format.digits``), Lomatonni's classes; the levels and game types
its tables cover; and for the multiplier games the rounding mode (down). What path B follows from the
rule version, so a new version may change it freely: prizes, shares, pools, caps and how they split,
rounding steps, Plussa and Tuplaus classes and multipliers, and the interpretation switches whose
readings path B has both written out (``stake_basis``, ``kunkku_mode``, ``matcher``, ``class_scope``,
``cap_scope``).

Pure: no database; the message wording (translated) is the service's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .games import registry


@dataclass(frozen=True)
class CellDifference:
    """One cell where a rule version and the check computation differ. ``ruleset`` / ``check``: the
    value as text, None when that side has no such cell or no prize there (the digest's "—")."""

    cell: str
    ruleset: str | None
    check: str | None

    def as_json(self) -> dict[str, str | None]:
        return {"cell": self.cell, "ruleset": self.ruleset, "check": self.check}


def check_cells(game: str) -> dict[str, Any]:
    """The cells of the check computation's tables of ``game`` (empty for a game the pipeline does
    not settle: nothing to compare)."""
    spec = registry.find(game)
    return spec.codec.check_cells() if spec is not None else {}


def ruleset_cells(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The same cells as the rule version's ``params`` have them."""
    spec = registry.find(game)
    if spec is None or not isinstance(params, Mapping):
        return {}
    return spec.codec.ruleset_check_cells(params)


def differences(game: str, params: Mapping[str, Any]) -> list[CellDifference]:
    """Every cell the rule version has differently from the check computation, or that only one of
    them has, in a stable order (the check's cells first, in table order, then the rule version's own)."""
    check = check_cells(game)
    ruleset = ruleset_cells(game, params)
    out = []
    for cell in [*check, *(c for c in ruleset if c not in check)]:
        a, b = ruleset.get(cell), check.get(cell)
        if not same(a, b):
            out.append(CellDifference(cell, text(a), text(b)))
    return out


def text(value: Any) -> str | None:
    """A cell's value as the message shows it (None stays None: no such cell, or no prize)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(str(text(v)) for v in value) + "]"
    return str(value)


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    try:
        number = Decimal(value.strip() if isinstance(value, str) else value)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def same(a: Any, b: Any) -> bool:
    """Equal as the computations would use them: numbers by value ("50", "50.00" and 50 are the same
    multiplier), lists element by element, anything else exactly."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, Sequence) and not isinstance(a, str) and isinstance(b, Sequence) and not isinstance(b, str):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        return na == nb
    return type(a) is type(b) and a == b
