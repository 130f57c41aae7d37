"""Open Faced Chinese of the live-poker rulebook, cash game and tournament: the JSON kind ``ofc``
(docs/poker/tournaments.md).

The scoring between two hands (rows, the scoop, the bonus table, fouls) is the one of
:mod:`casino.rules.games.chinese_poker` (001 §2.15 R-15.2-R-15.5, §3.8), reused here, as is its
50-point cash loss cap (R-15.6, A-37). This kind adds what the table and the tournament need:

* the legality reading A-36: front <= middle <= back (a front as good as the middle on its three
  cards is legal), or ``strict_front`` for the literal text (the front must be worse);
* five seated players: the button does not play (R-15.6, R-15.7);
* cash: every player must start the hand with chips worth at least 50 points (R-15.6);
* tournament settlement (R-15.7, §3.8): from the player after the button, each settles with every
  player not yet settled with him, his left neighbour first; a transfer is capped at the winner's
  and the loser's start-of-hand stacks and at the loser's chips; a player whose chips run out is out
  and all his remaining settlements are void; same-hand busts are ranked by start-of-hand chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import EngineError, require
from ..cards import parse_cards
from ..games import chinese_poker as cp
from ..jsonio import KINDS
from ._prizes import cents, check_keys, chips, listed, money, name

MODES = ("cash", "tournament")
INPUT_KEYS = {"kind", "mode", "point_value", "button", "players", "strict_front", "scoring"}
PLAYER_KEYS = {"player", "front", "middle", "back", "stack"}


def _read(doc: Mapping[str, Any], mode: str) -> tuple[list[str], dict[str, cp.OfcHand], dict[str, int], str]:
    raw = listed(doc, "players", "", low=2, high=5)
    names = []
    for i, item in enumerate(raw):
        check_keys(item, PLAYER_KEYS, "player", f"players[{i}]")
        who = name(require(item, "player", f"players[{i}]"), f"players[{i}].player")
        if who in names:
            raise EngineError(f"players[{i}].player", f"{who!r} is listed twice")
        names.append(who)
    button = require(doc, "button", "")
    if button not in names:
        raise EngineError("button", f"{button!r} is not one of the seated players")
    if mode == "tournament" and len(names) < 2:
        raise EngineError("players", "a tournament table of 2-5 players")
    sitting_out = button if len(names) == 5 else None
    strict = doc.get("strict_front", False)
    if not isinstance(strict, bool):
        raise EngineError("strict_front", "true for the literal reading of R-15.5 (the front strictly worse)")
    hands: dict[str, cp.OfcHand] = {}
    stacks: dict[str, int] = {}
    seen: dict[Any, str] = {}
    for i, item in enumerate(raw):
        where = f"players[{i}]"
        who = names[i]
        if mode == "tournament":
            stacks[who] = chips(require(item, "stack", where), f"{where}.stack")
        elif "stack" in item:
            stacks[who] = cents(item["stack"], f"{where}.stack")
        if who == sitting_out:
            if any(r in item for r in cp.ROWS):
                raise EngineError(where, "with five players the button does not play the hand (R-15.6, R-15.7)")
            continue
        rows = {r: parse_cards(require(item, r, where), f"{where}.{r}", maximum=13) for r in cp.ROWS}
        if sum(len(c) for c in rows.values()) != 13:
            raise EngineError(where, "a player sets exactly 13 cards (R-15.1)")
        for r in cp.ROWS:
            for card in rows[r]:
                if card in seen:
                    raise EngineError(f"{where}.{r}", f"{card} is dealt twice (also to {seen[card]}); one deck")
                seen[card] = who
        hand = cp.OfcHand(who, rows)
        if strict and not hand.fouled:
            front = hand.front
            if front == cp.five_key(rows["middle"])[: len(front)]:
                hand.foul_reason = "the front is not worse than the middle (strict reading of R-15.5, A-36)"
        hands[who] = hand
    return names, hands, stacks, sitting_out or ""


def _points(players: Sequence[str], hands: Mapping[str, cp.OfcHand]) -> tuple[dict[tuple[str, str], int], list]:
    pts: dict[tuple[str, str], int] = {}
    pairs = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            p, rule = cp.pair_ofc(hands[a], hands[b], cp.OFC_SCORING)
            pts[(a, b)], pts[(b, a)] = p, -p
            pairs.append({"players": [a, b], "points": p, "rule": rule})
    return pts, pairs


def settle_tournament(order: Sequence[str], stacks: Mapping[str, int], points: Mapping[tuple[str, str], int],
                      value: int) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """001 R-15.7, §3.8: `order` clockwise from the player after the button; `points[(a, b)]` what a
    wins from b (negative: loses); `value` chips per point. Returns the end stacks and the transfers."""
    current = dict(stacks)
    done: set[frozenset[str]] = set()
    transfers: list[dict[str, Any]] = []
    n = len(order)
    for i, a in enumerate(order):
        for step in range(1, n):
            b = order[(i + step) % n]
            pair = frozenset((a, b))
            if pair in done:
                continue
            done.add(pair)
            owed = points.get((a, b), 0) * value
            if owed == 0:
                continue
            winner, loser = (a, b) if owed > 0 else (b, a)
            if current[a] == 0 or current[b] == 0:
                out = a if current[a] == 0 else b
                transfers.append({"from": loser, "to": winner, "owed": abs(owed), "paid": 0,
                                  "rule": f"001 R-15.7, §3.8 step 4: {out} is out; his remaining settlements are void"})
                continue
            paid = min(abs(owed), stacks[winner], stacks[loser], current[loser])
            current[loser] -= paid
            current[winner] += paid
            caps = []
            if paid < abs(owed):
                caps.append("capped at " + ("the winner's start-of-hand stack" if paid == stacks[winner] else
                                            "the loser's start-of-hand stack" if paid == stacks[loser] else
                                            "the loser's chips"))
            row = {"from": loser, "to": winner, "owed": abs(owed), "paid": paid,
                   "rule": "001 R-15.7, §3.8: settled from the player after the button, left neighbour first"
                           + (f"; {caps[0]}" if caps else "")}
            if current[loser] == 0:
                row["busted"] = loser
            transfers.append(row)
    return current, transfers


def ofc(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, INPUT_KEYS, "ofc")
    mode = require(doc, "mode", "")
    if mode not in MODES:
        raise EngineError("mode", f"{mode!r} is not one of: {', '.join(MODES)}")
    if "scoring" in doc:
        raise EngineError("scoring", "the ofc kind scores by the rulebook's table (001 §2.15); a published other "
                                     "scoring goes through the chinese_poker kind")
    names, hands, stacks, sitting_out = _read(doc, mode)
    start = names.index(doc["button"]) + 1
    clockwise = [names[(start + k) % len(names)] for k in range(len(names))]
    playing = [p for p in clockwise if p != sitting_out]
    if len(playing) < 2:
        raise EngineError("players", "at least two players play the hand")
    pts, pairs = _points(playing, hands)
    rules = [
        "001 R-15.2-R-15.5 (scoring of 001 §3.8, shared with the chinese_poker kind): rows 1 each, 3 extra for "
        "all three, bonuses by difference, a foul pays 6 plus the opponent's bonuses",
        "001 A-36: legal when front <= middle <= back" + (" (strict: the front strictly worse)"
                                                          if doc.get("strict_front") else ""),
    ]
    if sitting_out:
        rules.append(f"001 R-15.6/R-15.7: five seated, the button {sitting_out} does not play the hand")
    players_out = []
    answer: dict[str, Any] = {"mode": mode, "order": playing, "pairs": pairs}
    if mode == "cash":
        point_value = cents(require(doc, "point_value", ""), "point_value", allow_zero=False)
        paid, notes = cp.capped_losses(playing, pts, int(cp.OFC_SCORING["max_loss"]), doc["button"])
        for item in pairs:
            a, b = item["players"]
            if paid[(a, b)] != pts[(a, b)]:
                item["points_paid"] = int(paid[(a, b)])
        for who in playing:
            net = int(sum(paid[(who, o)] for o in playing if o != who))
            row = _hand_row(hands[who])
            row.update({"points": net, "amount": money(net * point_value)})
            if who in stacks and stacks[who] < 50 * point_value:
                row["violation"] = (f"started the hand with {money(stacks[who])}, less than 50 points "
                                    f"({money(50 * point_value)}) (R-15.6)")
            players_out.append(row)
        rules.append("001 R-15.6, A-37: a net loss above 50 points pays 50 plus what he collects, shared by "
                     "largest remainder, equal fractions clockwise after the button")
        rules.extend(notes)
    else:
        value = chips(require(doc, "point_value", ""), "point_value")
        end, transfers = settle_tournament(playing, stacks, pts, value)
        answer["transfers"] = transfers
        busted = [p for p in playing if end[p] == 0]
        ranked = sorted(busted, key=lambda p: -stacks[p])
        for who in playing:
            row = _hand_row(hands[who])
            row.update({"start_stack": stacks[who], "end_stack": end[who], "change": end[who] - stacks[who]})
            players_out.append(row)
        if sitting_out:
            players_out.append({"player": sitting_out, "start_stack": stacks[sitting_out],
                                "end_stack": stacks[sitting_out], "sits_out": True})
        answer["busted"] = [
            {"player": p, "start_stack": stacks[p],
             **({"shares_place_with": [q for q in ranked if q != p and stacks[q] == stacks[p]]}
                if sum(1 for q in ranked if stacks[q] == stacks[p]) > 1 else {})}
            for p in ranked
        ]
        if busted:
            rules.append("001 R-15.7, R-17.16: players busting in the same hand are ranked by their start-of-hand "
                         "chips, the larger finishes higher (best first)")
        rules.append(f"001 R-15.7: {value} chips per point at this level")
    answer["players"] = players_out
    answer["rules"] = rules
    return answer


def _hand_row(hand: cp.OfcHand) -> dict[str, Any]:
    row: dict[str, Any] = {"player": hand.name, "fouled": hand.fouled}
    if hand.sizes_ok:
        row["rows"] = {r: cp._name(hand.rows[r]) for r in cp.ROWS}
    if hand.fouled:
        row["foul"] = hand.foul_reason
    return row


KINDS["ofc"] = ofc
