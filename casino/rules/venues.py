"""The legal frame of a round per rulebook and venue kind: stake maxima by limit class, win caps, ages.

Limit classes (a game engine's ``limit_class(bet, variant)`` names one):

=====================  ==========================================================================
``roulette_inside_N``  a number-field bet covering N numbers (1-6)
``roulette_outside``   a side-field bet (dozens, columns, even chances, quarters: Ambiguity 14)
``wheel_bet``          one bet on a wheel of fortune (Money Wheel, Big Six)
``dice_bet``           one bet in a dice game (Sic Bo, Lucky Dice)
``blackjack_box``      the initial stake on a blackjack box (side bets: each its own, Ambiguity 4)
``poker_box``          the initial stake on a house-banked poker box
``punto_banco_box``    a punto banco / baccarat box
``card_box``           another card game against the house
``pvp_ante``           poker between players: the opening stake (ante/blind)
=====================  ==========================================================================

A venue given as an object may set lower maxima for its table and a lower cap, never higher ones.
A frame whose legal figure is lost (RAY, rulebook 002) has the value ``None`` for a limit class: the
venue object must give the table's maximum for every class a round uses (``venue.max_stake.<class>``),
and, when registered with ``win_cap_required``, its ``win_cap`` (an amount, or null for none).
The frames of rulebooks 002 and 004 are in :mod:`casino.rules.venues_other` (imported at the end).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .base import EngineError, Venue, parse_money

D = Decimal

#: (rulebook, venue kind) -> the legal frame.
LEGAL: dict[tuple[str, str], Venue] = {
    ("000", "game_hall"): Venue(
        kind="game_hall",
        max_stake={
            **{f"roulette_inside_{n}": D("10.00") for n in range(1, 7)},
            "roulette_outside": D("20.00"),
            "wheel_bet": D("20.00"),
            "dice_bet": D("20.00"),
            "blackjack_box": D("40.00"),
            "poker_box": D("30.00"),
            "punto_banco_box": D("30.00"),
            "card_box": D("10.00"),
            "pvp_ante": D("2.00"),
        },
        win_cap=D("100000.00"),
        min_age=18,
        rule="000-casino §2.1, §2.3 (game hall)",
    ),
    ("000", "casino"): Venue(
        kind="casino",
        max_stake={
            **{f"roulette_inside_{n}": D(600 * n) for n in range(1, 7)},
            "roulette_outside": D("9000.00"),
            "wheel_bet": D("4000.00"),
            "dice_bet": D("7000.00"),
            "blackjack_box": D("7000.00"),
            "poker_box": D("7000.00"),
            "punto_banco_box": D("7000.00"),
            "card_box": D("7000.00"),
            "pvp_ante": D("20000.00"),
        },
        win_cap=D("5000000.00"),
        min_age=18,
        rule="000-casino §2.2, §2.3 (casino)",
    ),
}


#: Frames whose win cap the venue object must give (the rulebook's figure is lost).
WIN_CAP_REQUIRED: set[tuple[str, str]] = set()


def register(rulebook: str, venue: Venue, *, win_cap_required: bool = False) -> None:
    """Game family modules of other rulebooks (002 RAY, 004 Billionaire) add their frames here."""
    LEGAL[(rulebook, venue.kind)] = venue
    if win_cap_required:
        WIN_CAP_REQUIRED.add((rulebook, venue.kind))


def venue_from_json(rulebook: str, value: Any, field: str = "venue") -> Venue:
    if isinstance(value, str):
        kind, overrides = value, {}
    elif isinstance(value, Mapping):
        kind = value.get("kind")
        overrides = value
        unknown = set(value) - {"kind", "max_stake", "win_cap", "min_age"}
        if unknown:
            raise EngineError(f"{field}.{sorted(unknown)[0]}", "is not a venue field (kind, max_stake, win_cap, min_age)")
    else:
        raise EngineError(field, "a venue kind such as \"casino\", or an object with `kind`")
    kinds = sorted(k for (r, k) in LEGAL if r == rulebook)
    if (rulebook, kind) not in LEGAL:
        raise EngineError(f"{field}.kind" if isinstance(value, Mapping) else field,
                          f"{kind!r} is not a venue kind of rulebook {rulebook}: {', '.join(kinds)}")
    legal = LEGAL[(rulebook, kind)]
    max_stake = dict(legal.max_stake)
    table_limits = overrides.get("max_stake", {})
    if not isinstance(table_limits, Mapping):
        raise EngineError(f"{field}.max_stake", "an object: limit class -> amount")
    for cls, amount in table_limits.items():
        where = f"{field}.max_stake.{cls}"
        if cls not in legal.max_stake:
            raise EngineError(where, f"is not a limit class of this venue: {', '.join(sorted(legal.max_stake))}")
        amount = parse_money(amount, where)
        if legal.max_stake[cls] is not None and amount > legal.max_stake[cls]:
            raise EngineError(where, f"{amount} is above the legal maximum {legal.max_stake[cls]} ({legal.rule})")
        max_stake[cls] = amount
    win_cap = legal.win_cap
    required_cap = (rulebook, kind) in WIN_CAP_REQUIRED
    if required_cap and "win_cap" not in overrides:
        raise EngineError(f"{field}.win_cap", f"is required ({legal.rule}: the highest win is not known; "
                                              "give the table's as an amount, or null for none)")
    if required_cap and overrides["win_cap"] is None:
        win_cap = None
    elif "win_cap" in overrides:
        win_cap = parse_money(overrides["win_cap"], f"{field}.win_cap")
        if legal.win_cap is not None and win_cap > legal.win_cap:
            raise EngineError(f"{field}.win_cap", f"{win_cap} is above the legal cap {legal.win_cap} ({legal.rule})")
    min_age = legal.min_age
    if "min_age" in overrides:
        min_age = overrides["min_age"]
        if isinstance(min_age, bool) or not isinstance(min_age, int) or not legal.min_age <= min_age <= 99:
            raise EngineError(f"{field}.min_age", f"a whole number of years from {legal.min_age} to 99")
    return Venue(kind=kind, max_stake=max_stake, win_cap=win_cap, min_age=min_age, rule=legal.rule,
                 cap_scope=legal.cap_scope)


from . import venues_other  # noqa: E402,F401  (registers the frames of rulebooks 002 and 004)
