"""What the cash-game kinds (pots, rake, odd_chip, jackpot) share: money in integer cents, the seats of
a hand as the table recorded them, clockwise order after the button, and reading small fields.

Money comes in and goes out as decimal strings of euros (``"12.40"``); inside it is whole cents
(``int``), so every split, rake and remainder is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, parse_money, require
from ..cards import Card, no_duplicates, parse_cards

RULEBOOKS = ("000", "001", "002", "003")
MAX_SEAT = 12  # 001, 000-casino C-4: at most 12 players at a table


def cents(value: Any, field: str, *, allow_zero: bool = True) -> int:
    return int(parse_money(value, field, allow_zero=allow_zero) * 100)


def eur(amount: int | Fraction) -> str:
    """Whole cents as a decimal string of euros."""
    if isinstance(amount, Fraction):
        if amount.denominator != 1:
            raise ValueError(amount)
        amount = amount.numerator
    return money_str(Decimal(amount) / 100)


def whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EngineError(field, f"a whole number from {low} to {high}")
    return value


def flag(doc: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    field = f"{where}.{key}" if where else key
    if key not in doc:
        if default is None:
            raise EngineError(field, "is required (true or false)")
        return default
    value = doc[key]
    if not isinstance(value, bool):
        raise EngineError(field, "true or false")
    return value


def percent(value: Any, field: str, *, high: int = 100) -> Fraction:
    """A percentage as a decimal string ("5.5") or an integer; never a float."""
    if isinstance(value, bool) or isinstance(value, float) or not isinstance(value, (int, str)):
        raise EngineError(field, "a percentage as a string such as \"5.5\"")
    try:
        result = Fraction(Decimal(str(value).strip()))
    except (ArithmeticError, ValueError):
        raise EngineError(field, f"{value!r} is not a percentage such as \"5.5\"") from None
    if not 0 <= result <= high:
        raise EngineError(field, f"a percentage from 0 to {high}")
    return result


def check_keys(doc: Mapping[str, Any], allowed: set[str], what: str, where: str = "") -> None:
    if not isinstance(doc, Mapping):
        raise EngineError(where or "$", "must be a JSON object")
    extra = set(doc) - allowed
    if extra:
        name = sorted(extra)[0]
        raise EngineError(f"{where}.{name}" if where else name,
                          f"is not a field of {what} ({', '.join(sorted(allowed))})")


def rulebook(doc: Mapping[str, Any], allowed: Sequence[str] = RULEBOOKS) -> str:
    book = require(doc, "rulebook", "")
    if book not in allowed:
        raise EngineError("rulebook", f"one of {', '.join(repr(b) for b in allowed)}")
    return book


@dataclass(frozen=True)
class Seat:
    index: int  # position in the input's `seats` list (errors name it)
    seat: int
    player: str
    contributed: int  # cents put in during the hand (blinds, antes, bets, calls, raises)
    folded: bool
    cards: tuple[Card, ...] | None
    seated: bool  # physically at the seat (bad-beat jackpot participants, 001)

    @property
    def where(self) -> str:
        return f"seats[{self.index}]"


SEAT_KEYS = {"seat", "player", "contributed", "folded", "cards", "seated"}


def parse_seats(raw: Any, *, money: bool = True, cards_max: int = 7, minimum: int = 1) -> list[Seat]:
    if not isinstance(raw, list) or not minimum <= len(raw) <= MAX_SEAT:
        raise EngineError("seats", f"a list of {minimum}-{MAX_SEAT} seats dealt in")
    seats: list[Seat] = []
    for i, item in enumerate(raw):
        where = f"seats[{i}]"
        check_keys(item, SEAT_KEYS, "a seat", where)
        seat = whole(require(item, "seat", where), f"{where}.seat", 1, MAX_SEAT)
        player = item.get("player", f"seat {seat}")
        if not isinstance(player, str) or not 0 < len(player) <= 64:
            raise EngineError(f"{where}.player", "a player reference of 1-64 characters")
        contributed = cents(require(item, "contributed", where), f"{where}.contributed") if money else 0
        cards = None
        if item.get("cards") is not None:
            cards = tuple(parse_cards(item["cards"], f"{where}.cards", minimum=1, maximum=cards_max))
        seats.append(Seat(i, seat, player, contributed, flag(item, "folded", where, False), cards,
                          flag(item, "seated", where, True)))
    for field, attr in (("seat", "seat"), ("player", "player")):
        seen: dict[Any, int] = {}
        for s in seats:
            value = getattr(s, attr)
            if value in seen:
                raise EngineError(f"{s.where}.{field}", f"{value!r} is also seats[{seen[value]}]")
            seen[value] = s.index
    return seats


def check_cards(seats: Sequence[Seat], board: Sequence[Card]) -> None:
    no_duplicates([*((f"{s.where}.cards", s.cards or ()) for s in seats), ("board", board)])


def clockwise_key(button: int):
    """Sort key: the first seat after the button first, the button seat last (001 R-12.2, 003 §2.4)."""
    return lambda seat: (seat - button - 1) % 100


def button_of(doc: Mapping[str, Any]) -> int:
    return whole(require(doc, "button", ""), "button", 1, MAX_SEAT)
