"""Billionaire's slot-machine gamble (double-up) feature, 004 Ch.11 §11.5 (docs/casino/gamble.md).

Not a table round: registered as the JSON kind ``slot_gamble``. After a win the player guesses the colour
(red/black) of a face-down card; a right guess doubles the win, a wrong one annuls it; the player may
collect at any time and may go on until the machine's attempts are used ("usually 5 in a row") or its
maximum win is reached. Input::

    {"kind": "slot_gamble", "win": 40, "max_attempts": 5, "max_win": 10000, "denomination": "0.10",
     "attempts": [{"guess": "red", "card": "Kh"}, {"guess": "black", "card": "2c"}]}

``win`` (credits) is the base-game win the gamble starts from; ``max_attempts`` and ``max_win`` (credits)
are the machine's settings, required (the rulebook gives neither as a rule: "usually 5", "the machine's
maximum win in its paytable"); ``denomination`` (optional) is the value of one credit, to state the
result in money; ``attempts`` are the guesses in order with the card the machine turned. An attempt the
rules did not allow (beyond ``max_attempts``, or once the maximum win is reached) is reported in
``violations`` and settled as if it had not been made. A doubling above the maximum win is cut to it
(interpretation: the gamble "continues until the maximum win is reached"). The answer::

    {"steps": [{"attempt": 1, "guess": "red", "card": "Kh", "colour": "red", "correct": true,
                "win_before": 40, "win_after": 80}, ...],
     "result": "collected" | "annulled", "final_win": 160, "final_amount": "16.00",
     "rule": "004 Ch.11 §11.5", "violations": [...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..base import EngineError, money_str, parse_money, require
from ..cards import parse_card
from ..jsonio import KINDS
from ._data import whole

RULE = "004 Ch.11 §11.5"
KEYS = {"kind", "rulebook", "win", "max_attempts", "max_win", "denomination", "attempts"}
MAX_CREDITS = 10**12


def slot_gamble(doc: Mapping[str, Any]) -> dict[str, Any]:
    extra = set(doc) - KEYS
    if extra:
        raise EngineError(sorted(extra)[0], f"is not a field of a slot_gamble ({', '.join(sorted(KEYS))})")
    if doc.get("rulebook", "004") != "004":
        raise EngineError("rulebook", "the slot gamble is rulebook \"004\" (Billionaire)")
    win = whole(require(doc, "win", ""), "win", 1, MAX_CREDITS)
    max_attempts = whole(require(doc, "max_attempts", ""), "max_attempts", 1, 100)
    max_win = whole(require(doc, "max_win", ""), "max_win", 1, MAX_CREDITS)
    denomination = parse_money(doc["denomination"], "denomination") if "denomination" in doc else None
    attempts = require(doc, "attempts", "")
    if not isinstance(attempts, list) or len(attempts) > 1000:
        raise EngineError("attempts", "a list of {guess, card}, in order (empty: collected at once)")
    steps, violations = [], []
    current = min(win, max_win)
    result = "collected"
    made = 0
    for i, att in enumerate(attempts):
        where = f"attempts[{i}]"
        if not isinstance(att, Mapping) or set(att) != {"guess", "card"}:
            raise EngineError(where, "an object with `guess` (\"red\" or \"black\") and `card` (e.g. \"Kh\")")
        guess = att["guess"]
        if guess not in ("red", "black"):
            raise EngineError(f"{where}.guess", "\"red\" or \"black\"")
        try:
            card = parse_card(att["card"]) if isinstance(att["card"], str) else None
        except ValueError as exc:
            raise EngineError(f"{where}.card", str(exc)) from None
        if card is None or card.joker:
            raise EngineError(f"{where}.card", "the card the machine turned, e.g. \"Kh\" (no joker)")
        if result == "annulled":
            raise EngineError(where, "no attempt can follow a wrong guess: the win was annulled")
        if made >= max_attempts or current >= max_win:
            why = f"{made} attempts already made (at most {max_attempts})" if made >= max_attempts \
                else f"the maximum win {max_win} is reached"
            violations.append(f"{where}: not allowed, {why}; settled as if not made")
            continue
        made += 1
        colour = "red" if card.suit in "hd" else "black"
        before = current
        if guess == colour:
            current = min(2 * current, max_win)
        else:
            current, result = 0, "annulled"
        steps.append({"attempt": made, "guess": guess, "card": str(card), "colour": colour,
                      "correct": guess == colour, "win_before": before, "win_after": current})
    answer: dict[str, Any] = {"steps": steps, "result": result, "final_win": current, "rule": RULE}
    if win > max_win:
        violations.append(f"win: {win} is above the machine's maximum win {max_win}; the gamble starts from it")
    if denomination is not None:
        answer["final_amount"] = money_str(denomination * Decimal(current))
    answer["violations"] = violations
    return answer


KINDS["slot_gamble"] = slot_gamble
