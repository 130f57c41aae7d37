"""Shared by the slot-machine engines: venue types, field readers and the one rounding.

Venue types (000-lottery RA IV-PS, RA IV-PK, RA III, RA I-ATG), the vocabulary of every machine kind:

* ``gaming_point``: a partner's premises (shop, kiosk, ...) whose entry is not age-gated;
* ``gaming_point_18``: a partner's public premises whose entry requires age 18 or over;
* ``arcade``: the operator's own arcade (pelisali; entry 18+);
* ``casino``: the casino (pelikasino).

The 18+ premises and the arcades share the RA IV-PS limits of "arcades and other public premises
where entry requires age 18"; the arcade alone is the operator's own premises (team tournaments,
RA III) and, with the casino, the only place automated table games are run (RA I-ATG).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, parse_money, to_cents_down

VENUES = ("gaming_point", "gaming_point_18", "arcade", "casino")
AGE_GATED = ("gaming_point_18", "arcade")
#: RA I-ATG: "automated table games are run in arcades and in the casino".
ATG_VENUES = ("arcade", "casino")


def fields(doc: Mapping[str, Any], allowed: Iterable[str], where: str = "") -> None:
    if not isinstance(doc, Mapping):
        raise EngineError(where or "$", "must be a JSON object")
    allowed = set(allowed)
    for key in doc:
        if key not in allowed:
            name = f"{where}.{key}" if where else str(key)
            raise EngineError(name, f"is not a field here ({', '.join(sorted(allowed))})")


def need(doc: Mapping[str, Any], key: str, where: str = "") -> Any:
    name = f"{where}.{key}" if where else key
    if not isinstance(doc, Mapping):
        raise EngineError(where or "$", "must be a JSON object")
    if doc.get(key) is None:
        raise EngineError(name, "is required")
    return doc[key]


def venue(value: Any, field: str = "venue") -> str:
    if value not in VENUES:
        raise EngineError(field, f"{value!r} is not one of: {', '.join(VENUES)}")
    return value


def money(value: Any, field: str, *, allow_zero: bool = True) -> Decimal:
    return parse_money(value, field, allow_zero=allow_zero)


def whole(value: Any, field: str, low: int = 0, high: int = 10**12) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(field, f"a whole number from {low} to {high}")
    return value


def flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise EngineError(field, "true or false")
    return value


def number(value: Any, field: str, *, negative: bool = False) -> Fraction:
    """An exact number: an int or a decimal string ("1.5", "-2"); never a float."""
    if isinstance(value, bool) or isinstance(value, float):
        raise EngineError(field, "a whole number or a decimal string such as \"1.5\" (not a float)")
    try:
        result = Fraction(Decimal(value.strip())) if isinstance(value, str) else (
            Fraction(value) if isinstance(value, int) else None)
    except (InvalidOperation, ValueError):
        result = None
    if result is None or abs(result) > 10**15:
        raise EngineError(field, f"{value!r} is not a number such as \"1.5\"")
    if result < 0 and not negative:
        raise EngineError(field, "must not be negative")
    return result


def cents(value: Fraction | Decimal | int) -> str:
    """Round down to the cent (the one rounding, DESIGN §2) and write it as "12.34"."""
    return money_str(to_cents_down(value))


def exact(value: Fraction) -> str:
    """An exact value: a decimal when it has one ("50.5", "18"), else a fraction ("29/36")."""
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
        if places > 40:
            return str(value)
    return f"{Decimal((value * 10**places).numerator).scaleb(-places):f}"
