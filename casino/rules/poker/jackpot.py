"""The cash-game bad-beat jackpot: the JSON kinds ``jackpot_fee`` and ``bad_beat_jackpot``
(docs/poker.md), and the fee step of the ``pots`` kind.

**Fee** (001 §2.16 R-16.9, §3.2 steps 4-5; 000-casino C-4): per hand at a jackpot-linked table, €1
(001; 000: the announced amount) when at least five players (000: the announced minimum) take part
and the hand reaches the second betting round (A-2: read as "the next street was dealt", the strict
reading ``"condition": "betting_round"`` is an option); nothing when the hand ends in the initial deal
(R-5.5) or the game has no jackpot criteria (Sviten Special and unlisted games, R-16.5). By the hour,
with every player's consent: €40 per started hour or €10 per started 15 minutes (A-31). The day's
accrual is added to the fund at the end of the gaming day.

**Payout** (001 §2.16 R-16.2-R-16.8, §3.6, A-5, A-31; 000-casino C-4, ambiguity 11): the best hand at
the table gives the *winners*, the best hand among the other qualifying hands the *losers* (the
category is set by the losing hand, category 1 first); all other participants (dealt in and seated)
are *others*. 001 shares: category 1 ``s = 20/(N−2)``, loser ``(40+(L−1)s)/L``, winner ``(20+(W−1)s)/W``,
other ``s`` (80 % in all); category 2 loser ``(10+(L−1))/L``, winner ``(5+(W−1))/W``, other 1 %
(13 + N %). Money: the payout total and every winner's and other's share rounded down to the cent,
the losers take the rest (split equally, leftover cents clockwise from the button). 000: the
announced loser / winner / others percentages; tied players share their hand's portion plus one share
of the others' portion, counted as one participant there (ambiguity 11).

A player who revealed his cards during the hand in a way that affected play may be refused the
jackpot (000-casino C-4); the answer pays him nothing and his share stays in the fund
(interpretation: the rules give the casino a right to refuse, not a redistribution).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..base import EngineError, require
from ..cards import parse_cards
from ..jsonio import KINDS
from . import _hands
from ._cash import (
    button_of,
    cents,
    check_cards,
    check_keys,
    clockwise_key,
    eur,
    flag,
    parse_seats,
    percent,
    rulebook,
    whole,
)

#: 001 §2.16 R-16.5 (seed lines 2880-2937): game -> (category 1, category 2) as the weakest qualifying
#: five cards; "loser must use both hole cards" for Texas Hold'em. Hi-lo versions use the same.
_OMAHA5 = ("Ac Ad Ah As 2c", "9c 9d 9h 9s 2c")
_OMAHA = ("Jc Jd Jh Js 2c", "2c 2d 2h 2s 3c")
_STUD = ("4c 4d 4h 4s 2c", "Ac Ad Ah 2c 2d")
CRITERIA_001: dict[str, tuple[str, str]] = {
    "omaha5": _OMAHA5, "courchevel": _OMAHA5, "omaha5_hilo": _OMAHA5, "courchevel_hilo": _OMAHA5,
    "omaha": _OMAHA, "omaha_hilo": _OMAHA,
    "holdem": ("Ac Ad Ah Kc Kd", "Ac Ad Ah Jc Jd"),
    "stud": _STUD, "stud_hilo": _STUD,
    "soko": ("4c 4d 4h 2c 2d", "Kc 5c 4c 3c 2c"),
}
CRITERIA_TEXT = {
    "omaha5": ("four aces", "four nines"), "omaha": ("four jacks", "four deuces"),
    "holdem": ("aces full of kings, both hole cards", "aces full of jacks, both hole cards"),
    "stud": ("four fours", "aces full"), "soko": ("fours full", "king-high flush"),
}
BOTH_HOLE = {"holdem"}
#: Sökö for the jackpot only: five own cards, every qualifying hand (a king-high flush or better) is
#: above Sökö's own four-card ranks, so the standard ranking orders them (001 R-13.6).
SOKO = _hands.Game("soko", (5, 5), (0, 0), "any", None, "stud", "001 §2.13 R-13.6")
FLOOR_001 = 100000  # 001: Casino Helsinki guarantees a new base of at least €1000
FEE_001 = 100  # 001: €1 per qualifying hand


def _threshold(text: str) -> int:
    return _hands.high_any(parse_cards(text, "criteria"), ())


def _family(game: str) -> str:
    for base in ("omaha5", "courchevel", "omaha", "holdem", "stud", "soko"):
        if game.startswith(base):
            return {"courchevel": "omaha5"}.get(base, base)
    return game


# --------------------------------------------------------------------------------------------- fee


@dataclass(frozen=True)
class Fee:
    amount: int
    rule: str


FEE_KEYS = {"amount", "condition", "minimum_players", "mode"}


def _condition(cfg: Mapping[str, Any], where: str) -> str:
    value = cfg.get("condition", "next_street")
    if value not in ("next_street", "betting_round"):
        raise EngineError(f"{where}.condition", "\"next_street\" (A-2, the default) or \"betting_round\" "
                                                "(a second betting round actually played)")
    return value


def hand_fee(book: str, game: str, cfg: Any, participants: int, beyond: bool, second: bool) -> Fee:
    """The fee one hand at a jackpot-linked table owes (0 with the clause saying why)."""
    if book not in ("000", "001"):
        raise EngineError("jackpot_fee", f"rulebook {book} has no bad-beat jackpot (001 §2.16, 000-casino C-4)")
    check_keys(cfg, FEE_KEYS, "the table's jackpot fee", "jackpot_fee")
    condition = _condition(cfg, "jackpot_fee")
    if cfg.get("mode", "per_hand") not in ("per_hand", "hourly"):
        raise EngineError("jackpot_fee.mode", "\"per_hand\" or \"hourly\" (collected by the hour instead)")
    if book == "001":
        amount = cents(cfg.get("amount", "1.00"), "jackpot_fee.amount")
        minimum = whole(cfg.get("minimum_players", 5), "jackpot_fee.minimum_players", 5, 10)
        clause = "001 §2.16 R-16.9, §3.2 step 4"
        if _family(game) not in CRITERIA_001:
            return Fee(0, f"001 §2.16 R-16.5: {game} has no jackpot criteria, no fee")
    else:
        amount = cents(require(cfg, "amount", "jackpot_fee"), "jackpot_fee.amount")
        minimum = whole(require(cfg, "minimum_players", "jackpot_fee"), "jackpot_fee.minimum_players", 2, 12)
        clause = "000-casino C-4 (collection)"
    if cfg.get("mode", "per_hand") == "hourly":
        return Fee(0, f"{clause}: the fee is collected by the hour at this table, not per hand")
    if not beyond:
        return Fee(0, "001 §2.5 R-5.5: the hand did not progress beyond the initial deal, no jackpot money"
                   if book == "001" else f"{clause}: the hand did not reach the second betting round")
    if condition == "betting_round" and not second:
        return Fee(0, f"{clause}: no second betting round was played (strict reading of A-2)")
    if participants < minimum:
        return Fee(0, f"{clause}: {participants} players took part, fewer than {minimum}")
    reading = "A-2: the next street was dealt" if condition == "next_street" else "a second betting round"
    return Fee(amount, f"{clause}: {participants} players, {reading}; €{eur(amount)} from the main pot after "
                       "rake (A-3), added to the fund at the end of the gaming day")


def jackpot_fee_kind(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The fee a jackpot-linked table owes for a gaming day (per hand or by the hour)."""
    check_keys(doc, {"kind", "rulebook", "game", "mode", "hands", "minutes", "all_consented", "amount",
                     "minimum_players", "condition", "accumulated", "fund"}, "a jackpot_fee")
    book = rulebook(doc, ("000", "001"))
    game = require(doc, "game", "")
    if not isinstance(game, str) or not game:
        raise EngineError("game", "the game played at the table, e.g. \"holdem\"")
    mode = doc.get("mode", "per_hand")
    lines: list[dict[str, Any]] = []
    if mode == "per_hand":
        hands = require(doc, "hands", "")
        if not isinstance(hands, list) or len(hands) > 5000:
            raise EngineError("hands", "the day's hands: a list of {participants, beyond_initial_deal}")
        cfg = {k: doc[k] for k in ("amount", "minimum_players", "condition") if k in doc}
        for i, hand in enumerate(hands):
            where = f"hands[{i}]"
            check_keys(hand, {"participants", "beyond_initial_deal", "second_betting_round"}, "a hand", where)
            n = whole(require(hand, "participants", where), f"{where}.participants", 1, 12)
            beyond = flag(hand, "beyond_initial_deal", where)
            second = flag(hand, "second_betting_round", where, beyond)
            fee = hand_fee(book, game, cfg, n, beyond, second)
            lines.append({"hand": i + 1, "fee": eur(fee.amount), "rule": fee.rule})
        accrued = sum(cents(line["fee"], "fee") for line in lines)
    elif mode in ("hourly_60", "hourly_15"):
        if book != "001":
            raise EngineError("mode", "the hourly fee is a 001 rule (R-16.9); 000-casino collects per hand")
        if doc.get("all_consented") is not True:
            raise EngineError("all_consented", "the hourly fee needs the consent of every player at the table "
                                               "(001 R-16.9): record it as true")
        minutes = whole(require(doc, "minutes", ""), "minutes", 1, 24 * 60)
        block, price = (60, 4000) if mode == "hourly_60" else (15, 1000)
        started = -(-minutes // block)
        accrued = started * price
        lines.append({"periods": started, "fee": eur(accrued),
                      "rule": f"001 §2.16 R-16.9, A-31: €{eur(price)} per started {block} min, {minutes} min "
                              f"played; credited even if the table falls below five players"})
    else:
        raise EngineError("mode", "\"per_hand\", \"hourly_60\" (€40 per started hour) or \"hourly_15\" "
                                  "(€10 per started 15 min)")
    accumulated = cents(doc.get("accumulated", "0.00"), "accumulated") + accrued
    answer: dict[str, Any] = {"lines": lines, "accrued": eur(accrued), "accumulated": eur(accumulated),
                              "rule": "001 R-16.9 / 000-casino C-4: the accumulation is added to the jackpot at "
                                      "the end of the gaming day"}
    if "fund" in doc:
        answer["fund_after_day_end"] = eur(cents(doc["fund"], "fund") + accumulated)
    return answer


# ------------------------------------------------------------------------------------------ payout


def shares_001(category: int, n: int, losers: int, winners: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(each loser, each winner, each other, total) in % of the fund (001 §3.6)."""
    if category == 1:
        s = Fraction(20, n - 2)
        each_l = (40 + (losers - 1) * s) / losers
        each_w = (20 + (winners - 1) * s) / winners
        return each_l, each_w, s, Fraction(80)
    each_l = Fraction(10 + losers - 1, losers)
    each_w = Fraction(5 + winners - 1, winners)
    return each_l, each_w, Fraction(1), Fraction(13 + n)


def shares_000(cfg: Mapping[str, Any], n: int, losers: int, winners: int):
    """000-casino C-4 with the announced percentages; ties: their portion plus one other-share (A11)."""
    lp = percent(require(cfg, "loser", "shares"), "shares.loser")
    wp = percent(require(cfg, "winner", "shares"), "shares.winner")
    op = percent(require(cfg, "others", "shares"), "shares.others")
    if lp + wp + op > 100:
        raise EngineError("shares", "the loser, winner and others percentages add up to more than 100")
    others = n - losers - winners
    slots = others + (losers > 1) + (winners > 1)
    other = op / slots if slots else Fraction(0)
    each_l = (lp + (other if losers > 1 else 0)) / losers
    each_w = (wp + (other if winners > 1 else 0)) / winners
    total = lp + wp + (op if slots else 0)
    return each_l, each_w, other, total


def floor_cents(fund: int, pct: Fraction) -> int:
    exact = fund * pct / 100
    return exact.numerator // exact.denominator


def _fmt_pct(p: Fraction) -> str:
    scaled = p * 1000
    rounded = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    text = f"{rounded // 1000}.{rounded % 1000:03d}".rstrip("0").rstrip(".")
    return text


BB_KEYS = {"kind", "rulebook", "game", "fund", "button", "seats", "board", "minimum_players", "floor",
           "revealed_cards", "shares", "criteria"}


def _criteria(book: str, game: str, doc: Mapping[str, Any]) -> tuple[list[int], bool, list[str]]:
    """Thresholds (category 1 first, as hand values) and whether the loser must use both hole cards."""
    if book == "001":
        family = _family(game)
        if family not in CRITERIA_001:
            raise EngineError("game", f"{game} has no bad-beat criteria at Casino Helsinki (001 R-16.5): "
                                      f"one of {', '.join(sorted(CRITERIA_001))} (and the hi-lo versions)")
        return ([_threshold(t) for t in CRITERIA_001[family]], family in BOTH_HOLE,
                list(CRITERIA_TEXT[family]))
    raw = require(doc, "criteria", "")
    check_keys(raw, {"loser_minimum", "both_hole_cards"}, "the announced criteria", "criteria")
    text = require(raw, "loser_minimum", "criteria")
    cards = parse_cards(text, "criteria.loser_minimum", count=5)
    return [_hands.high_any(cards, ())], flag(raw, "both_hole_cards", "criteria", False), [str(text)]


def bad_beat_kind(doc: Mapping[str, Any]) -> dict[str, Any]:
    check_keys(doc, BB_KEYS, "a bad_beat_jackpot")
    book = rulebook(doc, ("000", "001"))
    game_name = require(doc, "game", "")
    if not isinstance(game_name, str):
        raise EngineError("game", "the game, e.g. \"holdem\"")
    family = _family(game_name)
    game = SOKO if family == "soko" else _hands.GAMES.get(game_name)
    if game is None:
        raise EngineError("game", f"one of {', '.join([*_hands.GAMES, 'soko'])}")
    thresholds, both_hole, criteria_text = _criteria(book, game_name, doc)
    fund = cents(require(doc, "fund", ""), "fund", allow_zero=False)
    button = button_of(doc)
    seats = parse_seats(require(doc, "seats", ""), money=False, minimum=2)
    board = parse_cards(doc.get("board", []), "board", maximum=game.board[1])
    check_cards(seats, board)
    if book == "001":
        minimum = whole(doc.get("minimum_players", 5), "minimum_players", 5, 10)
        floor = cents(doc.get("floor", eur(FLOOR_001)), "floor")
    else:
        minimum = whole(require(doc, "minimum_players", ""), "minimum_players", 2, 12)
        floor = cents(require(doc, "floor", ""), "floor")
    revealed = doc.get("revealed_cards", [])
    names = {s.player for s in seats}
    if not isinstance(revealed, list) or any(r not in names for r in revealed):
        raise EngineError("revealed_cards", "players from `seats` who revealed their cards during the hand")
    participants = [s for s in seats if s.seated]
    n = len(participants)
    base: dict[str, Any] = {"fund": eur(fund), "participants": n, "criteria": criteria_text}
    if book == "001" and n > 10:
        raise EngineError("seats", f"{n} participants: a jackpot table seats at most 10 (001 R-1.3)")
    if n < minimum:
        return {**base, "triggered": False, "new_base": eur(fund),
                "rule": f"001 R-16.2 / 000-casino C-4: {n} participants, fewer than the posted minimum {minimum}"}
    best: dict[int, int] = {}
    qualify: dict[int, int] = {}
    for s in participants:
        if not s.cards:
            continue
        lo, hi = game.hole
        if not lo <= len(s.cards) <= hi or len(s.cards) + len(board) < 5:
            raise EngineError(f"{s.where}.cards", f"{game.name}: {lo}-{hi} own cards and a board of five in all")
        best[s.index] = _hands.high_value(game, s.cards, board)
        qualify[s.index] = (_hands.high_two_hole(s.cards, board) if both_hole and len(board) >= 3
                            else best[s.index])
    if len(best) < 2:
        return {**base, "triggered": False, "new_base": eur(fund),
                "rule": "001 R-16.3: at least two hands meeting the criteria are needed"}
    top = max(best.values())
    winners = [s for s in participants if best.get(s.index) == top]
    limit = thresholds[-1]
    candidates = [s for s in participants if s.index in best and best[s.index] < top
                  and qualify[s.index] >= limit]
    if not candidates:
        return {**base, "triggered": False, "new_base": eur(fund),
                "rule": "001 R-16.5, §3.6: no losing hand meets the criteria"}
    second = max(best[s.index] for s in candidates)
    losers = [s for s in candidates if best[s.index] == second]
    category = next(c for c, t in enumerate(thresholds, 1)
                    if all(qualify[s.index] >= t for s in losers))
    others = [s for s in participants if s not in losers and s not in winners]
    L, W = len(losers), len(winners)
    if book == "001":
        each_l, each_w, each_o, total_pct = shares_001(category, n, L, W)
        rule = f"001 §2.16 R-16.6{'' if category == 1 else '/R-16.7'}, §3.6: category {category}"
    else:
        each_l, each_w, each_o, total_pct = shares_000(require(doc, "shares", ""), n, L, W)
        rule = "000-casino C-4 (distribution), ambiguity 11"
    total = floor_cents(fund, total_pct)
    amounts: dict[int, int] = {}
    for s in winners:
        amounts[s.index] = floor_cents(fund, each_w)
    for s in others:
        amounts[s.index] = floor_cents(fund, each_o)
    rest = total - sum(amounts.values())
    key = clockwise_key(button)
    for i, s in enumerate(sorted(losers, key=lambda x: key(x.seat))):
        amounts[s.index] = rest // L + (1 if i < rest % L else 0)
    payouts = []
    excluded = set(revealed)
    for role, group, pct in (("loser", losers, each_l), ("winner", winners, each_w), ("other", others, each_o)):
        for s in sorted(group, key=lambda x: key(x.seat)):
            line = {"player": s.player, "role": role, "percent": _fmt_pct(pct), "amount": eur(amounts[s.index])}
            if s.player in excluded:
                line["refused"] = eur(amounts[s.index])
                line["amount"] = eur(0)
                line["rule"] = "000-casino C-4: revealed his cards during the hand; the share stays in the fund"
            payouts.append(line)
    paid = sum(a for s_idx, a in amounts.items() if seats[s_idx].player not in excluded)
    remaining = fund - paid
    top_up = max(0, floor - remaining)
    return {
        **base,
        "triggered": True,
        "category": category,
        "losers": [s.player for s in losers],
        "winners": [s.player for s in winners],
        "others": [s.player for s in others],
        "payout_percent": _fmt_pct(total_pct),
        "payout_total": eur(total),
        "payouts": payouts,
        "paid": eur(paid),
        "remaining": eur(remaining),
        "top_up": eur(top_up),
        "new_base": eur(remaining + top_up),
        "rule": f"{rule}; shares and cents per §3.6 (A-5): winners' and others' shares rounded down, "
                "the losers take the rest",
        "floor_rule": "001 R-16.8: the remaining fund is the new base, topped up to the guaranteed minimum"
        if book == "001" else "000-casino C-4: the remaining % is the new jackpot, with the guaranteed minimum",
    }


KINDS["jackpot_fee"] = jackpot_fee_kind
KINDS["bad_beat_jackpot"] = bad_beat_kind
