"""The chip race (colour-up) of a tournament table: the JSON kind ``chip_race``
(docs/poker/tournaments.md).

001 R-17.22, §3.9, A-39: each player's small chips are exchanged for large ones as far as they go
exactly; one face-up card is dealt for each leftover small chip (from the dealer's left); the leftover
value is pooled and exchanged for ceil(value / large) large chips, which go one each to the highest
cards (rank, then Bridge order: spades, hearts, diamonds, clubs); nobody gets more than one. A player
left with no chips at all receives one extra large chip: nobody is eliminated by a chip race.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import EngineError, require
from ..cards import SUITS, parse_cards
from ..jsonio import KINDS
from ._prizes import check_keys, chips, count, listed, name

INPUT_KEYS = {"kind", "from_chip", "to_chip", "players"}


def chip_race(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "chip_race")
    small = chips(require(doc, "from_chip", ""), "from_chip")
    large = chips(require(doc, "to_chip", ""), "to_chip")
    if large <= small or large % small:
        raise EngineError("to_chip", f"the larger chip must be a multiple of the {small} chip it replaces")
    per = large // small
    rows = []
    dealt = []  # (rank, suit order, player index, card text)
    seen = {}
    for i, raw in enumerate(listed(doc, "players", "", high=12)):
        where = f"players[{i}]"
        check_keys(raw, {"player", "small_chips", "other_chips", "cards"}, "player", where)
        who = name(require(raw, "player", where), f"{where}.player")
        if any(r["player"] == who for r in rows):
            raise EngineError(f"{where}.player", f"{who!r} is listed twice")
        n_small = count(require(raw, "small_chips", where), f"{where}.small_chips", 0, 10_000)
        other = chips(raw.get("other_chips", 0), f"{where}.other_chips", allow_zero=True)
        if other % large:
            raise EngineError(f"{where}.other_chips", f"the value of his other chips, a multiple of {large} (after "
                                                      "the colour-up no smaller chip is left)")
        exchanged, left = divmod(n_small, per)
        cards = parse_cards(raw.get("cards", []), f"{where}.cards", count=left)
        for card in cards:
            if card in seen:
                raise EngineError(f"{where}.cards", f"{card} is dealt twice (also to {seen[card]}); one deck")
            seen[card] = who
            dealt.append((card.rank, SUITS.index(card.suit), i, str(card)))
        rows.append({"player": who, "small_chips": n_small, "exchanged": exchanged, "leftover": left,
                     "other": other, "cards": [str(c) for c in cards]})
    leftover_value = small * sum(r["leftover"] for r in rows)
    awarded_count = -(-leftover_value // large)  # ceil: "rounding up"
    winners: list[int] = []
    winning_cards: dict[int, str] = {}
    for rank, suit, i, text in sorted(dealt, reverse=True):
        if len(winners) == awarded_count:
            break
        if i not in winners:
            winners.append(i)
            winning_cards[i] = text
    out = []
    created = 0
    for i, r in enumerate(rows):
        won = 1 if i in winners else 0
        after = r["other"] + large * (r["exchanged"] + won)
        extra = 0
        if after == 0:
            extra = 1
            after = large
        before = r["other"] + small * r["small_chips"]
        created += after - before
        item: dict[str, Any] = {
            "player": r["player"], "chips_before": before, "chips_after": after, "race_chip": bool(won),
            "leftover_small_chips": r["leftover"], "cards": r["cards"],
        }
        if won:
            item["rule"] = f"001 R-17.22: the highest card still without a chip ({winning_cards[i]}) wins one {large}"
        if extra:
            item["extra_chip"] = True
            item["rule"] = "001 R-17.22, §3.9 step 5: left with nothing, he receives one extra chip (no elimination)"
        out.append(item)
    return {
        "leftover_value": leftover_value,
        "large_chips_raced": awarded_count,
        "players": out,
        "table_chip_change": created,
        "rules": [
            f"001 §3.9: {small} chips exchanged {per} for one {large} as far as they go exactly",
            f"001 R-17.22, A-39: leftover value {leftover_value} exchanged rounding up: ceil({leftover_value}/{large})"
            f" = {awarded_count} chips",
            "001 R-17.22: one card per leftover chip; the highest cards by rank, then Bridge order (spades, hearts, "
            "diamonds, clubs) win one chip each; nobody receives more than one",
        ],
    }


KINDS["chip_race"] = chip_race
