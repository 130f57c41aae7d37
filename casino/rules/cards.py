"""Cards as the tables record them (``As Kh 10d 9c``; ``T`` or ``10`` for ten; ``Jk`` for a joker) and
standard high-hand ranking through phevaluator (the well-kept evaluator; issue 17 item 2).

Own rankings (joker, A-2-3-4-5 as second-best straight, three-card hands, Russian poker's
combinations) live in the game family that needs them and are checked against :func:`rank_high`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from phevaluator import evaluate_cards

from .base import EngineError

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs, diamonds, hearts, spades (Bridge order, lowest first)
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}  # 2..14 (ace high)

#: Standard five-card categories, best first (phevaluator's rank classes in this order).
CATEGORIES = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pair",
    "pair",
    "high_card",
)
# phevaluator ranks 1 (royal flush) .. 7462 (7-5-4-3-2); the last rank of each category.
_CATEGORY_BOUNDS = (10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462)


@dataclass(frozen=True, order=True)
class Card:
    rank: int  # 2..14; 0 for a joker
    suit: str  # one of SUITS; "" for a joker

    @property
    def joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        return "Jk" if self.joker else f"{RANKS[self.rank - 2]}{self.suit}"


JOKER = Card(0, "")


@cache
def parse_card(text: str) -> Card:
    t = text.strip()
    if t.lower() in ("jk", "joker", "xx"):
        return JOKER
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        raise ValueError(f"{text!r} is not a card such as As, Kh, 10d, 9c")
    return Card(RANK_VALUE[t[0].upper()], t[1].lower())


def parse_cards(value: object, field: str, *, count: int | None = None, jokers: bool = False,
                minimum: int | None = None, maximum: int | None = None) -> list[Card]:
    """Cards from ``"As Kh"`` or ``["As", "Kh"]``; EngineError naming the field when malformed."""
    if isinstance(value, str):
        items = value.replace(",", " ").split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = value
    else:
        raise EngineError(field, "cards as text such as \"As Kh\" or a list [\"As\", \"Kh\"]")
    cards = []
    for i, item in enumerate(items):
        try:
            card = parse_card(item)
        except ValueError as exc:
            raise EngineError(f"{field}[{i}]", str(exc)) from None
        if card.joker and not jokers:
            raise EngineError(f"{field}[{i}]", "this game is played without a joker")
        cards.append(card)
    if count is not None and len(cards) != count:
        raise EngineError(field, f"exactly {count} cards, not {len(cards)}")
    if minimum is not None and len(cards) < minimum:
        raise EngineError(field, f"at least {minimum} cards, not {len(cards)}")
    if maximum is not None and len(cards) > maximum:
        raise EngineError(field, f"at most {maximum} cards, not {len(cards)}")
    return cards


def no_duplicates(groups: Iterable[tuple[str, Sequence[Card]]], decks: int = 1) -> None:
    """Refuse a card dealt more often than the shoe holds it (jokers excepted)."""
    seen: dict[Card, list[str]] = {}
    for field, cards in groups:
        for card in cards:
            if not card.joker:
                seen.setdefault(card, []).append(field)
    for card, fields in seen.items():
        if len(fields) > decks:
            raise EngineError(fields[-1], f"{card} is dealt {len(fields)} times from {decks} deck(s)")


def rank_high(cards: Sequence[Card]) -> int:
    """phevaluator's rank of the best five of 5-7 cards: 1 is a royal flush, 7462 the worst; lower is better."""
    return evaluate_cards(*(str(c) for c in cards))


def category(rank: int) -> str:
    for name, bound in zip(CATEGORIES, _CATEGORY_BOUNDS):
        if rank <= bound:
            return name
    raise ValueError(rank)


def is_royal(rank: int) -> bool:
    return rank == 1
