"""Showdown hands of the player-vs-player games, ranked by the well-kept evaluators (issue 20):
high hands by phevaluator (as :mod:`casino.rules.cards`), the low halves of hi-lo games and Razz by
pokerkit's ``EightOrBetterLowHand``, ``OmahaEightOrBetterLowHand`` and ``RegularLowHand`` (ace-to-five).

Every evaluator returns a value where **greater is better** and equal values tie (suits never decide a
pot, 001 §2.14, 003 §2.4), or ``None`` for a hand that does not qualify (no eight-or-better low).

Game table (001 §2.13, 000-casino C-4, 002 §5.3, 003 §2.4):

======================  ==========  ===================================================================
game                    hole cards  hand
======================  ==========  ===================================================================
holdem                  2           best five of hole + board, 0-2 hole cards (also pineapple,
                                    crazy_pineapple, helsinki_holdem: the two cards kept)
omaha                   4           exactly 2 hole + 3 board
omaha5, courchevel      5           exactly 2 hole + 3 board
omaha_hilo, ...         4 / 5       high as omaha; low eight-or-better, exactly 2 + 3
stud                    5-7         best five of the own cards and any community card
stud_hilo               5-7         high as stud; low eight-or-better
razz                    5-7         ace-to-five low, no qualifier (ace always low)
======================  ==========  ===================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from phevaluator import evaluate_cards
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand, RegularLowHand

from ..cards import Card, category

WORST_HIGH = 7463  # phevaluator ranks 1 (royal flush) .. 7462


@dataclass(frozen=True)
class Game:
    name: str
    hole: tuple[int, int]  # allowed number of own cards (min, max)
    board: tuple[int, int]  # allowed number of community cards
    high: str | None  # "any" (0-2 hole cards), "omaha" (exactly 2 + 3), "stud" (best five of all)
    low: str | None  # "eight" (8-or-better, hole+board any), "omaha_eight", "razz"
    odd_chip: str  # "button" or "stud"
    rule: str


_FLOP = "001 §2.13, 000-casino C-4, 002 §5.3"
GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("holdem", (2, 2), (0, 5), "any", None, "button", "001 §2.13 R-13.1, 003 §2.4: 0-2 hole cards"),
        Game("pineapple", (2, 2), (0, 5), "any", None, "button", "001 §2.13 R-13.4: as Texas Hold'em"),
        Game("crazy_pineapple", (2, 2), (0, 5), "any", None, "button", "001 §2.13 R-13.4: as Texas Hold'em"),
        Game("helsinki_holdem", (2, 2), (0, 5), "any", None, "button", "001 §2.13 R-13.4: as Texas Hold'em"),
        Game("omaha", (4, 4), (3, 5), "omaha", None, "button", "001 §2.13, 003 §2.4: exactly 2 hole + 3 board"),
        Game("omaha5", (5, 5), (3, 5), "omaha", None, "button", f"{_FLOP}: exactly 2 hole + 3 board"),
        Game("courchevel", (5, 5), (3, 5), "omaha", None, "button", f"{_FLOP}: exactly 2 hole + 3 board"),
        Game("omaha_hilo", (4, 4), (3, 5), "omaha", "omaha_eight", "button", "001 R-13.8, 002 OHL-01..04"),
        Game("omaha5_hilo", (5, 5), (3, 5), "omaha", "omaha_eight", "button", "001 R-13.8"),
        Game("courchevel_hilo", (5, 5), (3, 5), "omaha", "omaha_eight", "button", "001 R-13.8"),
        Game("stud", (5, 7), (0, 2), "stud", None, "stud", "001 §2.13 R-13.7, 002 SCS-01: best five of seven"),
        Game("stud_hilo", (5, 7), (0, 2), "stud", "eight", "stud", "001 R-13.8, 002 SCS-HL"),
        Game("razz", (5, 7), (0, 2), None, "razz", "stud", "001 §2.13 R-13.9: ace-to-five low, no qualifier"),
    )
}


def _s(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _ph(cards: Sequence[Card]) -> int:
    return WORST_HIGH - evaluate_cards(*_s(cards))


def high_any(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Best five of all the cards (Hold'em with 0-2 hole cards, stud with community cards)."""
    return _ph([*hole, *board])


def high_omaha(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Exactly two hole cards and exactly three board cards."""
    return max(_ph([*h, *b]) for h in combinations(hole, 2) for b in combinations(board, 3))


def high_two_hole(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Hold'em with both hole cards playing (the bad-beat loser, 001 R-16.5): 2 hole + 3 board."""
    return max(_ph([*hole, *b]) for b in combinations(board, 3))


def _pk(cards: Sequence[Card]) -> str:
    return "".join(_s(cards))


def low_value(kind: str, hole: Sequence[Card], board: Sequence[Card]):
    """A pokerkit low hand (greater is better) or None when no qualifying low can be made."""
    try:
        if kind == "omaha_eight":
            return OmahaEightOrBetterLowHand.from_game(_pk(hole), _pk(board))
        if kind == "eight":
            return EightOrBetterLowHand.from_game(_pk(hole), _pk(board))
        return RegularLowHand.from_game(_pk(hole), _pk(board))
    except ValueError:
        return None


def high_value(game: Game, hole: Sequence[Card], board: Sequence[Card]) -> int | None:
    if game.high is None:
        return None
    if game.high == "omaha":
        return high_omaha(hole, board)
    return high_any(hole, board)


def rank_name(value: int) -> str:

    return category(WORST_HIGH - value)
