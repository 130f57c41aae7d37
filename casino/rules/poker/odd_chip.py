"""Splitting a pot among tied winners and the odd chips: the JSON kind ``odd_chip`` and the split step
of the ``pots`` kind (docs/poker.md).

* Each winner gets ``floor(P / (k·u))·u`` with *u* the smallest chip in play (001 A-8; online one cent,
  003 §3.0); the remaining odd chips go **one unit at a time** in the game's order (001 §3.3, A-8:
  further odd units continue the same order; 003 §3.2 step 7).
* **Button games** (flop games, 001 R-12.2; online 003 §2.4): clockwise from the first seat after the
  button; the button seat is last.
* **Stud high** (001 R-12.3): the winner holding the highest single card of all his own cards (rank,
  then suit ♠ > ♥ > ♦ > ♣); **stud low** (Razz, the low half of stud hi-lo): the lowest card (ace = 1,
  ♣ the lowest suit, A-9).
* **Hi-lo** (001 R-12.4, §3.3): low half = ``floor(P / 2u)·u``, the high half takes the odd chip; each
  half is split by the order above; no qualifying low: all to high.
* Every main and side pot is split on its own (R-12.5).

A part of a pot smaller than the chip unit (a pot not a multiple of the unit) goes with the first odd
chip (interpretation: it cannot be divided into chips at all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..base import EngineError, require
from ..cards import SUITS, Card
from ..jsonio import KINDS
from ._cash import Seat, button_of, cents, check_cards, check_keys, clockwise_key, eur, parse_seats, rulebook
from ._hands import GAMES

BUTTON_RULE = {
    "001": "001 §2.12 R-12.2, §3.3: odd chip clockwise from the first seat after the button",
    "003": "003 §2.4, §3.2 step 7: leftover cents clockwise from the first seat after the dealer",
    "000": "000-casino C-4 (ties split); odd chip clockwise after the button, as 001 R-12.2 (interpretation)",
    "002": "002 PP-18 (ties split); odd chip clockwise after the button, as 001 R-12.2 (interpretation)",
}
STUD_HIGH_RULE = "001 §2.12 R-12.3, §3.3: odd chip to the highest card (Bridge order ♠ > ♥ > ♦ > ♣)"
STUD_LOW_RULE = "001 §2.12 R-12.3, §3.3, A-9: odd chip to the lowest card (ace = 1, ♣ lowest)"
HILO_RULE = "001 §2.12 R-12.4, §3.3: the high half takes the odd chip of the halving"


def _suit(card: Card) -> int:
    return SUITS.index(card.suit)


def highest_card(cards: Sequence[Card]) -> tuple[int, int]:
    return max((c.rank, _suit(c)) for c in cards)


def lowest_card(cards: Sequence[Card]) -> tuple[int, int]:
    return min((1 if c.rank == 14 else c.rank, _suit(c)) for c in cards)


def order_for(book: str, style: str, half: str, button: int) -> tuple[Callable[[Seat], Any], str]:
    """The odd-chip order (sort key, first gets the first chip) and its clause.

    `style` is the game's ("button" or "stud"); `half` is "high" or "low" (Razz: "low")."""
    if style == "button":
        key = clockwise_key(button)
        return (lambda s: key(s.seat)), BUTTON_RULE[book]
    if half == "high":
        return (lambda s: tuple(-v for v in highest_card(_need_cards(s)))), STUD_HIGH_RULE
    return (lambda s: lowest_card(_need_cards(s))), STUD_LOW_RULE


def _need_cards(seat: Seat) -> tuple[Card, ...]:
    if not seat.cards:
        raise EngineError(f"{seat.where}.cards", "the stud odd chip goes by the winners' cards: give them")
    return seat.cards


def split(amount: int, winners: Sequence[Seat], unit: int, key: Callable[[Seat], Any]
          ) -> tuple[dict[int, int], list[Seat]]:
    """Equal shares in whole chips; the odd chips one each in `key` order. Returns (seat index -> cents,
    the odd-chip recipients in order)."""
    ordered = sorted(winners, key=key)
    k = len(ordered)
    share = amount // (k * unit) * unit
    shares = {s.index: share for s in ordered}
    rest = amount - share * k
    units, crumbs = divmod(rest, unit)  # units < k: the shares were floored to whole chips
    odd = ordered[:units]
    for seat in odd:
        shares[seat.index] += unit
    if crumbs:  # less than one chip: with the first odd chip
        shares[ordered[0].index] += crumbs
        if not odd:
            odd = [ordered[0]]
    return shares, odd


def halves(amount: int, unit: int) -> tuple[int, int]:
    """(high half, low half): low = floor(P / 2u)·u, the high half takes the odd chip (001 §3.3)."""
    low = amount // (2 * unit) * unit
    return amount - low, low


# -------------------------------------------------------------------------------------------- kind

KEYS = {"kind", "rulebook", "game", "button", "chip", "pot", "seats", "winners", "high", "low"}


def _names(doc: Mapping[str, Any], key: str, by_name: Mapping[str, Seat]) -> list[Seat]:
    names = doc[key]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise EngineError(key, "a non-empty list of player references from `seats`")
    out = []
    for i, name in enumerate(names):
        if name not in by_name:
            raise EngineError(f"{key}[{i}]", f"{name!r} is not a player in `seats`")
        if by_name[name] in out:
            raise EngineError(f"{key}[{i}]", f"{name!r} is named twice")
        out.append(by_name[name])
    return out


def odd_chip_kind(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, KEYS, "an odd_chip")
    book = rulebook(doc)
    game_name = require(doc, "game", "")
    if game_name not in GAMES:
        raise EngineError("game", f"one of {', '.join(GAMES)}")
    game = GAMES[game_name]
    button = button_of(doc)
    unit = chip_unit(doc, book)
    pot = cents(require(doc, "pot", ""), "pot", allow_zero=False)
    seats = parse_seats(require(doc, "seats", ""), money=False)
    check_cards(seats, ())
    by_name = {s.player: s for s in seats}
    lines: list[dict[str, Any]] = []
    if game.low is not None and game.high is not None:
        if "winners" in doc:
            raise EngineError("winners", "a hi-lo game names `high` (and `low` when a low qualifies)")
        high = _names(doc | {"high": require(doc, "high", "")}, "high", by_name)
        low = _names(doc, "low", by_name) if doc.get("low") else []
        if low:
            hi_amount, lo_amount = halves(pot, unit)
            parts = [("high", hi_amount, high), ("low", lo_amount, low)]
            lines.append({"halving": {"high": eur(hi_amount), "low": eur(lo_amount)}, "rule": HILO_RULE})
        else:
            parts = [("high", pot, high)]
            lines.append({"halving": None, "rule": "001 §2.13 R-13.8: no qualifying low, the whole pot to high"})
    else:
        if "high" in doc or "low" in doc:
            raise EngineError("high" if "high" in doc else "low", f"{game_name} is not a hi-lo game: use `winners`")
        parts = [("low" if game.high is None else "high", pot, _names(doc | {"winners": require(doc, "winners", "")},
                                                                      "winners", by_name))]
    totals: dict[int, int] = {}
    for half, amount, winners in parts:
        key, rule = order_for(book, game.odd_chip, half, button)
        shares, odd = split(amount, winners, unit, key)
        for idx, value in shares.items():
            totals[idx] = totals.get(idx, 0) + value
        lines.append({"part": half, "amount": eur(amount), "winners": [s.player for s in sorted(winners, key=key)],
                      "each": eur(amount // (len(winners) * unit) * unit),
                      "odd_chips": [s.player for s in odd], "rule": rule})
    return {
        "awards": [{"player": s.player, "amount": eur(totals[s.index])} for s in seats if s.index in totals],
        "steps": lines,
        "chip": eur(unit),
    }


def chip_unit(doc: Mapping[str, Any], book: str) -> int:
    """The smallest chip in play: a table setting (001 A-8); online one cent (003 §3.0)."""
    if "chip" in doc:
        return cents(doc["chip"], "chip", allow_zero=False)
    if book == "003":
        return 1
    raise EngineError("chip", "is required: the smallest chip in play at the table (001 §3.3, A-8), e.g. \"1.00\"")


KINDS["odd_chip"] = odd_chip_kind
