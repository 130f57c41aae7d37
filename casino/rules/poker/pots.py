"""Pots of a cash-game hand: the JSON kind ``pots`` (docs/poker.md).

From what the table recorded (each seat's chips put in, folds, the cards or a given ranking, the
button) to what each player is paid, step by step (001 §3.1-§3.3, 003 §3.1-§3.2):

1. **Uncalled bet returned**: the largest contribution above the next largest (folded players
   included) goes back to its owner; it is never part of a pot nor raked (001 §3.1 step 1).
2. **Main and side pots** from the distinct contributions of the players still in (all-in levels);
   folded players' chips stay in the pots they reached but make them eligible for none (001 §3.1
   steps 2-3, 003 §3.2 steps 2-4). Dead money (a BB-ante, dead blinds) goes to the main pot (step 4).
   A folded player's chips above the top live level (which no live player matched) go to the last pot
   (interpretation: the rulebooks never return a folded player's chips).
3. **Rake** (when the hand gives the table's ``rake`` settings, :mod:`.rake`) and the **bad-beat
   jackpot fee** (``jackpot_fee``, :mod:`.jackpot`; 001 A-3: from the main pot after rake).
4. **Showdown**, each pot on its own (001 R-12.5): the best hand among its eligible players, from the
   cards (:mod:`._hands`) or from a given ``ranking``; hi-lo halves; ties split with the odd chips
   (:mod:`.odd_chip`). A pot with one eligible player goes to him without a showdown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..base import EngineError, require
from ..cards import parse_cards
from ..jsonio import KINDS
from . import _hands
from ._cash import Seat, button_of, cents, check_cards, check_keys, eur, flag, parse_seats, rulebook
from .jackpot import hand_fee
from .odd_chip import HILO_RULE, chip_unit, halves, order_for, split
from .rake import compute_rake

RETURN_RULE = "001 §3.1 step 1, 003 §3.1 step 2: uncalled bet returned, never part of a pot"
POT_RULE = "001 §3.1 steps 2-4, 003 §3.2 steps 2-4: main and side pots by contribution level"
KEYS = {"kind", "rulebook", "game", "button", "chip", "seats", "board", "dead_money", "ranking",
        "beyond_initial_deal", "second_betting_round", "rake", "jackpot_fee"}


@dataclass(frozen=True)
class Pot:
    name: str
    amount: int  # gross cents
    eligible: list[Seat]


@dataclass(frozen=True)
class Built:
    pots: list[Pot]
    returned: list[tuple[Seat, int]]
    return_rule: str = RETURN_RULE


def parse_hand_money(doc: Mapping[str, Any]) -> tuple[list[Seat], int]:
    seats = parse_seats(require(doc, "seats", ""))
    dead = cents(doc.get("dead_money", "0.00"), "dead_money")
    if not any(not s.folded for s in seats):
        raise EngineError("seats", "at least one player has not folded (someone wins the pot)")
    if sum(s.contributed for s in seats) + dead == 0:
        raise EngineError("seats", "no chips were put in: there is no pot")
    return seats, dead


def build_pots(seats: Sequence[Seat], dead: int) -> Built:
    contrib = {s.index: s.contributed for s in seats}
    returned: list[tuple[Seat, int]] = []
    top = max(seats, key=lambda s: contrib[s.index])
    others = [contrib[s.index] for s in seats if s is not top]
    second = max(others) if others else 0
    if contrib[top.index] > second:
        returned.append((top, contrib[top.index] - second))
        contrib[top.index] = second
    live = [s for s in seats if not s.folded]
    levels = sorted({contrib[s.index] for s in live if contrib[s.index] > 0})
    pots: list[Pot] = []
    low = 0
    for j, level in enumerate(levels):
        last = j == len(levels) - 1
        amount = sum(max(0, (contrib[s.index] if last else min(contrib[s.index], level)) - low) for s in seats)
        if j == 0:
            amount += dead
        eligible = [s for s in live if contrib[s.index] >= level]
        if amount:
            pots.append(Pot("main" if not pots else f"side {len(pots)}", amount, eligible))
        low = level
    if not pots:  # only dead money and folded chips: the live players share one pot
        pots.append(Pot("main", dead + sum(contrib.values()), live))
    return Built(pots, returned)


# ---------------------------------------------------------------------------------------- showdown


class Showdown:
    """Each live player's high and low value (greater is better; None: no qualifying low)."""

    def __init__(self, doc: Mapping[str, Any], game: _hands.Game, seats: Sequence[Seat]):
        self.game = game
        self.high: dict[int, Any] = {}
        self.low: dict[int, Any] = {}
        self.shown: dict[int, dict[str, str]] = {}
        self.by_ranking = "ranking" in doc
        live = [s for s in seats if not s.folded]
        if self.by_ranking:
            self._from_ranking(doc["ranking"], live)
        else:
            board = parse_cards(doc.get("board", []), "board", maximum=game.board[1])
            check_cards(seats, board)
            self.board = board
            self.live = live

    def _from_ranking(self, raw: Any, live: Sequence[Seat]) -> None:
        by_name = {s.player: s for s in live}
        hilo = self.game.high is not None and self.game.low is not None
        if hilo:
            if not isinstance(raw, Mapping) or "high" not in raw or set(raw) - {"high", "low"}:
                raise EngineError("ranking", "a hi-lo game: {\"high\": [[best], ...], \"low\": [[best low], ...]}")
            parts = {"high": raw["high"], "low": raw.get("low", [])}
        else:
            parts = {"low" if self.game.high is None else "high": raw}
        for part, groups in parts.items():
            field = f"ranking.{part}" if hilo else "ranking"
            if not isinstance(groups, list) or not all(isinstance(g, list) and g for g in groups):
                raise EngineError(field, "groups of equal hands, best first: [[\"A\"], [\"B\", \"C\"]]")
            target = self.high if part == "high" else self.low
            for rank, group in enumerate(groups):
                for name in group:
                    if name not in by_name:
                        raise EngineError(field, f"{name!r} is not a player still in the hand")
                    if by_name[name].index in target:
                        raise EngineError(field, f"{name!r} is ranked twice")
                    target[by_name[name].index] = -rank

    def evaluate(self, seat: Seat) -> None:
        if self.by_ranking:
            if self.game.high is not None and seat.index not in self.high:
                raise EngineError("ranking", f"{seat.player!r} contests a pot: rank his hand")
            if self.game.high is None and seat.index not in self.low:
                raise EngineError("ranking", f"{seat.player!r} contests a pot: rank his hand")
            return
        if seat.index in self.high or seat.index in self.low:
            return
        game = self.game
        if not seat.cards:
            raise EngineError(f"{seat.where}.cards", "a player at the showdown: give his cards (or a `ranking`)")
        lo, hi = game.hole
        if not lo <= len(seat.cards) <= hi:
            raise EngineError(f"{seat.where}.cards", f"{game.name}: {lo}-{hi} own cards, not {len(seat.cards)}"
                              if lo != hi else f"{game.name}: exactly {lo} own cards, not {len(seat.cards)}")
        if len(self.board) < game.board[0] or len(seat.cards) + len(self.board) < 5:
            raise EngineError("board", f"{game.name}: the board at the showdown has too few cards "
                                       f"({len(self.board)})")
        shown: dict[str, str] = {}
        if game.high is not None:
            value = _hands.high_value(game, seat.cards, self.board)
            self.high[seat.index] = value
            shown["high"] = _hands.rank_name(value)
        if game.low is not None:
            low = _hands.low_value(game.low, seat.cards, self.board)
            if low is not None:
                self.low[seat.index] = low
                shown["low"] = "".join(repr(c) for c in low.cards)
            else:
                shown["low"] = "none"
        self.shown[seat.index] = shown

    def best(self, part: str, seats: Sequence[Seat]) -> list[Seat]:
        values = self.high if part == "high" else self.low
        contenders = [s for s in seats if s.index in values]
        if not contenders:
            return []
        top = max(values[s.index] for s in contenders)
        return [s for s in contenders if values[s.index] == top]


# ------------------------------------------------------------------------------------------- award


def award(book: str, game: _hands.Game, button: int, unit: int, pot: Pot, net: int, show: Showdown
          ) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """Split one pot's net amount: lines for the answer and seat index -> cents."""
    totals: dict[int, int] = {}
    if len(pot.eligible) == 1:
        only = pot.eligible[0]
        totals[only.index] = net
        return [{"part": "whole", "winners": [only.player], "amount": eur(net),
                 "rule": "001 §3.1 step 5: one eligible player, no showdown"}], totals
    for s in pot.eligible:
        show.evaluate(s)
    lines = []
    if game.high is None:
        parts = [("low", net, show.best("low", pot.eligible))]
        basis = "001 §2.13 R-13.9: the lowest hand wins"
    else:
        high = show.best("high", pot.eligible)
        low = show.best("low", pot.eligible) if game.low else []
        if low:
            hi_amount, lo_amount = halves(net, unit)
            parts = [("high", hi_amount, high), ("low", lo_amount, low)]
            basis = f"{HILO_RULE}; 001 R-13.8: halves to the best high and the best qualifying low"
        else:
            parts = [("high" if not game.low else "whole", net, high)]
            basis = ("001 R-13.8: no qualifying low, the whole pot to high" if game.low
                     else "001 §3.1 step 7, 003 §3.2 step 6: the best hand among the eligible")
    for part, amount, winners in parts:
        key, odd_rule = order_for(book, game.odd_chip, "low" if part == "low" else "high", button)
        shares, odd = split(amount, winners, unit, key)
        for idx, value in shares.items():
            totals[idx] = totals.get(idx, 0) + value
        line = {"part": part, "winners": [s.player for s in sorted(winners, key=key)], "amount": eur(amount),
                "rule": basis if len(winners) == 1 else f"{basis}; tie split (001 R-12.1, 003 §3.2 step 7)"}
        if len(winners) > 1:
            line["each"] = eur(amount // (len(winners) * unit) * unit)
            if odd:
                line["odd_chips"] = [s.player for s in odd]
                line["odd_chip_rule"] = odd_rule
        lines.append(line)
    return lines, totals


def pots_kind(doc: Mapping[str, Any]) -> dict[str, Any]:

    check_keys(doc, KEYS, "a pots hand")
    book = rulebook(doc)
    game_name = require(doc, "game", "")
    if game_name not in _hands.GAMES:
        raise EngineError("game", f"one of {', '.join(_hands.GAMES)}")
    game = _hands.GAMES[game_name]
    button = button_of(doc)
    unit = chip_unit(doc, book)
    seats, dead = parse_hand_money(doc)
    built = build_pots(seats, dead)
    gross = [p.amount for p in built.pots]
    needs_progress = "rake" in doc or "jackpot_fee" in doc
    beyond = flag(doc, "beyond_initial_deal", "") if needs_progress else True
    rake = compute_rake(book, doc["rake"], gross, beyond) if "rake" in doc else None
    rake_per_pot = rake.per_pot if rake else [0] * len(gross)
    fee_per_pot = [0] * len(gross)
    fee = None
    if "jackpot_fee" in doc:
        second = flag(doc, "second_betting_round", "", beyond)
        fee = hand_fee(book, game_name, doc["jackpot_fee"], sum(1 for s in seats if s.seated), beyond, second)
        left = fee.amount
        for j in range(len(gross)):  # from the main pot after rake (001 A-3), then the next pots
            take = min(left, gross[j] - rake_per_pot[j])
            fee_per_pot[j] += take
            left -= take
    show = Showdown(doc, game, seats)
    won: dict[int, int] = {}
    pots_out = []
    for j, pot in enumerate(built.pots):
        net = pot.amount - rake_per_pot[j] - fee_per_pot[j]
        lines, totals = award(book, game, button, unit, pot, net, show)
        for idx, value in totals.items():
            won[idx] = won.get(idx, 0) + value
        item = {"pot": pot.name, "amount": eur(pot.amount), "eligible": [s.player for s in pot.eligible],
                "rake": eur(rake_per_pot[j]), "net": eur(net), "awards": lines, "rule": POT_RULE}
        if fee is not None:
            item["jackpot_fee"] = eur(fee_per_pot[j])
        pots_out.append(item)
    returned = {s.index: a for s, a in built.returned}
    players = []
    for s in seats:
        back, got = returned.get(s.index, 0), won.get(s.index, 0)
        players.append({"player": s.player, "seat": s.seat, "contributed": eur(s.contributed),
                        "returned": eur(back), "won": eur(got), "net": eur(back + got - s.contributed)})
    money_in = sum(s.contributed for s in seats) + dead
    total_rake, total_fee = sum(rake_per_pot), sum(fee_per_pot)
    paid = sum(returned.values()) + sum(won.values())
    answer: dict[str, Any] = {
        "returned": [{"player": s.player, "amount": eur(a), "rule": RETURN_RULE} for s, a in built.returned],
        "pots": pots_out,
        "players": players,
        "rake": eur(total_rake),
        "check": {"money_in": eur(money_in), "paid_to_players": eur(paid), "rake": eur(total_rake),
                  "jackpot_fee": eur(total_fee), "balanced": paid + total_rake + total_fee == money_in},
    }
    if rake is not None:
        answer["rake_rule"] = rake.rule
    if fee is not None:
        # What the pots gave, never more than they held: a hand whose chips all went back (an
        # uncalled bet) pays no fee, whatever the fee of such a hand would be.
        answer["jackpot_fee"] = {"amount": eur(total_fee), "rule": fee.rule}
        if total_fee < fee.amount:
            answer["jackpot_fee"]["due"] = eur(fee.amount)
            answer["jackpot_fee"]["note"] = "the pots held less than the fee; only what they held is taken"
    if show.shown:
        answer["showdown"] = [{"player": s.player, **show.shown[s.index]} for s in seats if s.index in show.shown]
    return answer


KINDS["pots"] = pots_kind
