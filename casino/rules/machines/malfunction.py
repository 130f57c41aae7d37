"""Slot-machine malfunction compensation, kind ``malfunction_compensation``.

**Veikkaus, rulebook "000"** (000-lottery §11, RA II):

* ``"case": "interruption"`` (RA II.1): compensation rests only on the data accumulated up to the
  interruption and established beyond dispute. Each item is optional; give those the data shows:

  - ``established_wins`` (a): prizes accumulated up to the interruption (not yet in the credits);
  - ``certain_win`` (b): a certain win was coming but its amount cannot be worked out:
    ``{"smallest_win": "0.40"}``, the smallest winning combination or prize sum of the game
    instructions, or ``{"smallest_win": null}`` when it cannot be calculated from them; the
    compensation is ``max(round_stake, smallest_win)``: always at least the round's stake;
  - ``free_games`` (c): ``{"unplayed": 12, "won_on": [{"stake": "1.00", "games": 10}, ...]}``:
    unplayed free games x the stake of the round that won them; won over several rounds, x the
    **average stake of those rounds**: the simple mean of their stakes (digest A17, W18(ii)), or,
    with ``"mean": "weighted"``, the mean weighted by the free games each round won;
  - ``credits`` (d): the game credits established at the interruption;
  - ``unplayable`` (e): true when the player could not play the game or its part and its result
    cannot be established: the round's stake is refunded.

  (b) and (e) exclude each other (a win was coming, or the result cannot be established);
  ``round_stake`` is required with either. The total is rounded once, down to the cent.

* ``"case": "visual_error"`` (RA II.2): the display showed a wrong prize, number of free games,
  credits or result; the player is credited with the **recorded** values (``recorded``), whatever
  was ``displayed``.

**Billionaire, rulebook "004"** (004 Ch.11 §11.12.3, A32), ``"case": "malfunction"``: a confirmed
malfunction voids the round: every win credited during it is deemed not to have occurred, and the
player gets back the last credit he paid (the round's stake, ``last_stake``). With
``credits_at_malfunction`` the answer gives the credit meter after the correction.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..base import EngineError, money_str, to_cents_down
from ..jsonio import KINDS
from ._common import exact, fields, flag, money, need, whole

RA = "000-lottery RA II"
CASES = {"000": ("interruption", "visual_error"), "004": ("malfunction",)}
INTERRUPTION_KEYS = {"kind", "rulebook", "case", "round_stake", "established_wins", "certain_win", "free_games",
                     "credits", "unplayable"}
VISUAL_KEYS = {"kind", "rulebook", "case", "displayed", "recorded"}
VISUAL_VALUES = ("win", "free_games", "credits", "result")
BILLIONAIRE_KEYS = {"kind", "rulebook", "case", "last_stake", "wins_credited", "credits_at_malfunction"}


def free_games_value(unplayed: int, won_on: list[tuple[Decimal, int]], mean: str = "simple") -> Fraction:
    """RA II.1(c): unplayed free games x the winning round's stake, or x the average stake of the
    winning rounds (simple mean by default, A17; weighted by games won as the alternative). Exact."""
    if mean == "simple":
        average = sum((Fraction(s) for s, _ in won_on), Fraction(0)) / len(won_on)
    else:
        average = sum((Fraction(s) * g for s, g in won_on), Fraction(0)) / sum(g for _, g in won_on)
    return unplayed * average


def _interruption(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, INTERRUPTION_KEYS)
    items: list[dict[str, Any]] = []
    total = Fraction(0)
    certain = doc.get("certain_win")
    unplayable = flag(doc["unplayable"], "unplayable") if doc.get("unplayable") is not None else False
    if certain is not None and unplayable:
        raise EngineError("unplayable", "(b) a certain win was coming and (e) the result cannot be established "
                                        "exclude each other: give one")
    stake = None
    if certain is not None or unplayable:
        stake = money(need(doc, "round_stake"), "round_stake", allow_zero=False)
    elif doc.get("round_stake") is not None:
        stake = money(doc["round_stake"], "round_stake", allow_zero=False)
    if doc.get("established_wins") is not None:
        wins = money(doc["established_wins"], "established_wins")
        total += Fraction(wins)
        items.append({"item": "a", "amount": money_str(wins), "rule": f"{RA}.1(a): established wins"})
    if certain is not None:
        fields(certain, {"smallest_win"}, "certain_win")
        if "smallest_win" not in certain:
            raise EngineError("certain_win.smallest_win", "is required: the amount, or null when the game "
                                                          "instructions do not allow it to be calculated")
        smallest = None if certain["smallest_win"] is None else money(
            certain["smallest_win"], "certain_win.smallest_win", allow_zero=False)
        amount = stake if smallest is None else max(stake, smallest)
        total += Fraction(amount)
        note = ("the smallest win cannot be calculated from the game instructions: the round's stake"
                if smallest is None else f"max(stake {money_str(stake)}, smallest win {money_str(smallest)})")
        items.append({"item": "b", "amount": money_str(amount), "rule": f"{RA}.1(b): always at least the stake",
                      "note": note})
    if doc.get("free_games") is not None:
        fg = doc["free_games"]
        fields(fg, {"unplayed", "won_on", "mean"}, "free_games")
        unplayed = whole(need(fg, "unplayed", "free_games"), "free_games.unplayed", 0, 1_000_000)
        raw = need(fg, "won_on", "free_games")
        if not isinstance(raw, list) or not 1 <= len(raw) <= 10_000:
            raise EngineError("free_games.won_on", "the rounds that won the free games: [{stake, games}, ...]")
        won_on = []
        for i, r in enumerate(raw):
            where = f"free_games.won_on[{i}]"
            fields(r, {"stake", "games"}, where)
            won_on.append((money(need(r, "stake", where), f"{where}.stake", allow_zero=False),
                           whole(need(r, "games", where), f"{where}.games", 1, 1_000_000)))
        won = sum(g for _, g in won_on)
        if unplayed > won:
            raise EngineError("free_games.unplayed", f"{unplayed} unplayed free games, but only {won} were won")
        mean = fg.get("mean", "simple")
        if mean not in ("simple", "weighted"):
            raise EngineError("free_games.mean", "\"simple\" (digest A17, the default) or \"weighted\"")
        value = free_games_value(unplayed, won_on, mean)
        total += value
        items.append({"item": "c", "amount": money_str(to_cents_down(value)), "exact": exact(value),
                      "rule": f"{RA}.1(c): unplayed free games x the winning round's stake"
                              + ("" if len(won_on) == 1 else f" (several rounds: {mean} mean of their stakes, A17)")})
    if doc.get("credits") is not None:
        credits = money(doc["credits"], "credits")
        total += Fraction(credits)
        items.append({"item": "d", "amount": money_str(credits), "rule": f"{RA}.1(d): established game credits"})
    if unplayable:
        total += Fraction(stake)
        items.append({"item": "e", "amount": money_str(stake),
                      "rule": f"{RA}.1(e): the round could not be played and its result cannot be established"})
    if not items:
        raise EngineError("case", "give at least one item the data shows: established_wins, certain_win, "
                                  "free_games, credits or unplayable")
    paid = to_cents_down(total)
    return {"rulebook": "000", "case": "interruption", "items": items, "compensation": money_str(paid),
            "exact": exact(total), "breakage": exact(total - Fraction(paid)),
            "rule": f"{RA}.1: compensation from the data established up to the interruption"}


def _visual_error(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, VISUAL_KEYS)
    recorded = need(doc, "recorded")
    fields(recorded, VISUAL_VALUES, "recorded")
    if not recorded:
        raise EngineError("recorded", f"the values established from the device or game system ({', '.join(VISUAL_VALUES)})")
    displayed = doc.get("displayed") or {}
    fields(displayed, VISUAL_VALUES, "displayed")

    def value(data: Mapping[str, Any], key: str, where: str) -> Any:
        if key == "free_games":
            return whole(data[key], f"{where}.free_games", 0, 1_000_000)
        if key == "result":
            if not isinstance(data[key], str) or not 0 < len(data[key]) <= 200:
                raise EngineError(f"{where}.result", "the draw result as text (cards, number, symbols)")
            return data[key]
        return money_str(money(data[key], f"{where}.{key}"))

    credited = {k: value(recorded, k, "recorded") for k in VISUAL_VALUES if k in recorded}
    shown = {k: value(displayed, k, "displayed") for k in VISUAL_VALUES if k in displayed}
    for key in shown:
        if key not in credited:
            raise EngineError(f"recorded.{key}", "is required: the displayed value is replaced by the recorded one")
    differences = [{"value": k, "displayed": shown[k], "recorded": credited[k]} for k in shown if shown[k] != credited[k]]
    return {"rulebook": "000", "case": "visual_error", "credited": credited, "differences": differences,
            "rule": f"{RA}.2: the recorded values are credited; the displayed ones have no effect"}


def _billionaire(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, BILLIONAIRE_KEYS)
    stake = money(need(doc, "last_stake"), "last_stake", allow_zero=False)
    wins = money(doc.get("wins_credited", "0"), "wins_credited")
    answer: dict[str, Any] = {
        "rulebook": "004", "case": "malfunction",
        "refund": money_str(stake), "wins_voided": money_str(wins), "compensation": money_str(stake),
        "credit_change": money_str(stake - wins) if stake >= wins else "-" + money_str(wins - stake),
        "rule": "004 Ch.11 §11.12.3, A32: the round is void, its wins deemed not to have occurred, "
                "the last credit paid (the round's stake) refunded",
    }
    if doc.get("credits_at_malfunction") is not None:
        credits = money(doc["credits_at_malfunction"], "credits_at_malfunction")
        if credits < wins:
            raise EngineError("credits_at_malfunction", f"is below the wins credited in the round ({money_str(wins)})")
        answer["credits_after"] = money_str(credits - wins + stake)
    return answer


def malfunction_compensation(doc: Mapping[str, Any]) -> dict[str, Any]:
    rulebook = need(doc, "rulebook")
    if rulebook not in CASES:
        raise EngineError("rulebook", "\"000\" (Veikkaus RA II) or \"004\" (Billionaire Ch.11)")
    case = need(doc, "case")
    if case not in CASES[rulebook]:
        raise EngineError("case", f"{case!r} is not one of rulebook {rulebook}'s: {', '.join(CASES[rulebook])}")
    if rulebook == "004":
        return _billionaire(doc)
    return _interruption(doc) if case == "interruption" else _visual_error(doc)


KINDS["malfunction_compensation"] = malfunction_compensation
