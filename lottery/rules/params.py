"""Typed, validated access to a rule set's JSON parameters.

Rule sets are plain JSON (``rulesets.py``; stored in a database table and passed back to the
engine). Decimal values are strings. The engine reads them only through :class:`Params`,
at compute time, so a missing or malformed parameter raises :class:`InvalidParams` naming
its path (e.g. ``params.classes[3].share``) instead of a KeyError deep in a computation.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .errors import InvalidParams
from .money import ROUNDING_MODES

_MISSING = object()


class Params:
    """A read-only view of one (sub-)dict of a rule set's ``params``."""

    def __init__(self, data: Mapping[str, Any], path: str = "params") -> None:
        if not isinstance(data, Mapping):
            raise InvalidParams(path, "expected an object")
        self._data = data
        self.path = path

    # -- structure -------------------------------------------------------------------------
    @property
    def data(self) -> Mapping[str, Any]:
        """The underlying JSON mapping."""
        return self._data

    def has(self, key: str) -> bool:
        return self._data.get(key) is not None

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        if key in self._data:
            return self._data[key]
        if default is _MISSING:
            raise InvalidParams(f"{self.path}.{key}", "is required")
        return default

    def sub(self, key: str) -> Params:
        return Params(self.raw(key), f"{self.path}.{key}")

    def opt_sub(self, key: str) -> Params | None:
        value = self._data.get(key)
        return None if value is None else Params(value, f"{self.path}.{key}")

    def items(self, key: str) -> list[Params]:
        """A list of objects, each wrapped."""
        value = self.raw(key)
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise InvalidParams(f"{self.path}.{key}", "expected a list")
        return [Params(v, f"{self.path}.{key}[{i}]") for i, v in enumerate(value)]

    def mapping(self, key: str) -> Mapping[str, Any]:
        value = self.raw(key)
        if not isinstance(value, Mapping):
            raise InvalidParams(f"{self.path}.{key}", "expected an object")
        return value

    # -- scalars ---------------------------------------------------------------------------
    def dec(self, key: str, default: Any = _MISSING) -> Fraction:
        """A non-negative decimal (string, or int) as an exact Fraction."""
        value = self.raw(key, default)
        return parse_decimal(value, f"{self.path}.{key}")

    def opt_dec(self, key: str) -> Fraction | None:
        value = self._data.get(key)
        return None if value is None else parse_decimal(value, f"{self.path}.{key}")

    def integer(self, key: str, default: Any = _MISSING) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidParams(f"{self.path}.{key}", f"expected a whole number, got {value!r}")
        return value

    def opt_integer(self, key: str) -> int | None:
        return None if self._data.get(key) is None else self.integer(key)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise InvalidParams(f"{self.path}.{key}", f"expected true or false, got {value!r}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise InvalidParams(f"{self.path}.{key}", f"expected a string, got {value!r}")
        return value

    def choice(self, key: str, choices: Sequence[str], default: Any = _MISSING) -> str:
        value = self.text(key, default)
        if value not in choices:
            raise InvalidParams(f"{self.path}.{key}", f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    def str_list(self, key: str, default: Any = _MISSING) -> list[str]:
        value = self.raw(key, default)
        if (
            not isinstance(value, Sequence)
            or isinstance(value, str)
            or not all(isinstance(v, str) for v in value)
        ):
            raise InvalidParams(f"{self.path}.{key}", "expected a list of strings")
        return list(value)

    def int_range(self, key: str) -> tuple[int, int]:
        value = self.raw(key)
        if (
            not isinstance(value, Sequence)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or value[0] > value[1]
        ):
            raise InvalidParams(f"{self.path}.{key}", "expected [low, high] whole numbers")
        return int(value[0]), int(value[1])

    # -- common blocks ---------------------------------------------------------------------
    def rounding(self) -> tuple[Fraction, str]:
        """``rounding: {"step": "0.01", "mode": "down"}`` (§0.4; a per-game parameter)."""
        r = self.sub("rounding")
        step = r.dec("step")
        if step <= 0 or (step * 100).denominator != 1:
            raise InvalidParams(f"{r.path}.step", "must be a positive whole number of cents")
        return step, r.choice("mode", ROUNDING_MODES)


def parse_decimal(value: Any, path: str) -> Fraction:
    if isinstance(value, bool) or isinstance(value, float) or value is None:
        raise InvalidParams(path, f"expected a decimal string, got {value!r}")
    try:
        if isinstance(value, int):
            frac = Fraction(value)
        elif isinstance(value, str):
            dec = Decimal(value)
            if not dec.is_finite():
                raise InvalidOperation
            frac = Fraction(dec)
        else:
            raise InvalidParams(path, f"expected a decimal string, got {type(value).__name__}")
    except InvalidOperation:
        raise InvalidParams(path, f"{value!r} is not a decimal number") from None
    if frac < 0:
        raise InvalidParams(path, f"must not be negative (got {value})")
    return frac


def deep_merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of ``base`` with ``overrides`` merged in (objects merged key by key;
    lists and scalars replaced). Used for ``param_overrides`` in a round's input."""
    out: dict[str, Any] = copy.deepcopy(dict(base))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out
