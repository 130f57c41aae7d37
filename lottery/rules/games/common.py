"""Pieces shared by the per-game modules: the classification result and JSON bucket parsing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..errors import RoundInputError
from ..money import parse_amount, to_decimal
from ..params import Params
from ..rulesets import default_params


@dataclass(frozen=True)
class LineClass:
    """The single result of one line (§22: "a line can have only one winning result").

    ``class_key`` is None when the line wins nothing. ``boosted``: Plussa multiplies this
    line's prize (plus number correct, class in the boosted range). ``doubled``: Jokeri
    Tuplaus doubles it. ``column``/``multiplier``: the multiplier-table cell of multiplier
    games (``base``, ``kunkku``, ``clover``, ``bonus``).
    """

    class_key: str | None
    hits: int | None = None
    boosted: bool = False
    doubled: bool = False
    column: str = "base"
    multiplier: Decimal | None = None

    @property
    def wins(self) -> bool:
        return self.class_key is not None


def params_for(game: str, params: Mapping[str, Any] | None) -> Params:
    """The rule set to use: the caller's ``params`` or, if None, the game's default rule set."""
    return Params(params if params is not None else default_params(game))


def bucket_count(d: Mapping[str, Any], field: str) -> int:
    value = d.get("count", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RoundInputError(f"{field}.count", f"must be a whole number ≥ 1, got {value!r}")
    return value


def bucket_stake(d: Mapping[str, Any], field: str, basis: str) -> Decimal:
    """The stake the multiplier applies to (A9): base stake, or with the add-on fee."""
    if "stake" not in d:
        raise RoundInputError(f"{field}.stake", "is required")
    stake = parse_amount(d["stake"], f"{field}.stake")
    if stake <= 0:
        raise RoundInputError(f"{field}.stake", "must be positive")
    fee = parse_amount(d["addon_fee"], f"{field}.addon_fee") if d.get("addon_fee") is not None else None
    if basis == "with_addon_fee" and fee is not None:
        stake += fee
    return to_decimal(stake)


def flag(d: Mapping[str, Any], key: str, field: str, default: bool = False) -> bool:
    value = d.get(key, default)
    if not isinstance(value, bool):
        raise RoundInputError(f"{field}.{key}", f"must be true or false, got {value!r}")
    return value


def whole(d: Mapping[str, Any], key: str, field: str, low: int, high: int) -> int:
    if key not in d:
        raise RoundInputError(f"{field}.{key}", "is required")
    value = d[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RoundInputError(f"{field}.{key}", f"must be a whole number in {low}..{high}, got {value!r}")
    return value
