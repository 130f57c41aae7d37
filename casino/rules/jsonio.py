"""One JSON document in, one JSON answer out: the core of ``python manage.py casino_compute``.

A round (docs/casino.md)::

    {"kind": "round", "rulebook": "000", "venue": "casino", "game": "roulette", "variant": "single_zero",
     "bets": [{"type": "straight", "numbers": [17], "stake": "25.00", "box": 1, "player": "P1"}],
     "outcome": {"number": 17}}

Every key of a bet other than ``type``, ``stake``, ``box``, ``player`` and ``player_age`` goes to the
engine as the bet's ``params``. ``rules`` (optional) replaces the variant's rule data with a published
rule version's. Money is a decimal string both ways. Bad input raises :class:`EngineError` naming the
field; nothing is computed from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import kinds, registry
from .base import Bet, EngineError, RoundResult, money_str, parse_money, require, settle_round
from .venues import venue_from_json

BET_KEYS = {"type", "stake", "box", "player", "player_age"}
ROUND_KEYS = {"kind", "rulebook", "venue", "game", "variant", "bets", "outcome", "rules"}
MAX_BETS = 500  # bets in one round

#: Other kinds register here (complaint deadlines, poker hands, ...): kind -> function(doc) -> answer.
KINDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {}


def compute(doc: Any) -> dict[str, Any]:
    if not isinstance(doc, Mapping):
        raise EngineError("$", "the input must be a JSON object")
    kind = require(doc, "kind", "")
    if kind == "round":
        return round_json(doc)
    registry.engines()  # imports every game module, which registers its own kinds (slot_gamble, ...)
    kinds.load()  # and the poker and machine packages, whose modules register theirs
    if kind in KINDS:
        return KINDS[kind](doc)
    raise EngineError("kind", f"{kind!r} is not one of: {', '.join(['round', *sorted(KINDS)])}")


def parse_bet(index: int, raw: Any) -> Bet:
    """One bet of the JSON round (`bets[index]`), checked."""
    where = f"bets[{index}]"
    if not isinstance(raw, Mapping):
        raise EngineError(where, "a bet is a JSON object with `type` and `stake`")
    bet_type = require(raw, "type", where)
    if not isinstance(bet_type, str) or not bet_type:
        raise EngineError(f"{where}.type", "a bet type name")
    stake = parse_money(require(raw, "stake", where), f"{where}.stake")
    box = raw.get("box")
    if box is not None and (isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= 99):
        raise EngineError(f"{where}.box", "a box number from 1 to 99")
    player = raw.get("player")
    if player is not None and (not isinstance(player, str) or not 0 < len(player) <= 64):
        raise EngineError(f"{where}.player", "a player reference of 1-64 characters")
    age = raw.get("player_age")
    if age is not None and (isinstance(age, bool) or not isinstance(age, int) or not 0 <= age <= 130):
        raise EngineError(f"{where}.player_age", "the player's age in whole years")
    params = {k: v for k, v in raw.items() if k not in BET_KEYS}
    return Bet(index=index, type=bet_type, stake=stake, box=box, player=player, player_age=age, params=params)


def parse_round(doc: Mapping[str, Any]):
    unknown = set(doc) - ROUND_KEYS
    if unknown:
        raise EngineError(sorted(unknown)[0], f"is not a round field ({', '.join(sorted(ROUND_KEYS))})")
    rulebook = require(doc, "rulebook", "")
    if not isinstance(rulebook, str):
        raise EngineError("rulebook", "one of \"000\", \"002\", \"004\"")
    engine = registry.get(rulebook, require(doc, "game", ""))
    variant_code = require(doc, "variant", "")
    if variant_code not in engine.variants:
        raise EngineError("variant", f"{variant_code!r} is not one of: {', '.join(engine.variants)}")
    variant = doc.get("rules") or engine.variants[variant_code]
    if not isinstance(variant, Mapping):
        raise EngineError("rules", "the rule data of a published version: a JSON object")
    venue = venue_from_json(rulebook, require(doc, "venue", ""))
    raw_bets = require(doc, "bets", "")
    if not isinstance(raw_bets, list) or not raw_bets:
        raise EngineError("bets", "a non-empty list of bets")
    if len(raw_bets) > MAX_BETS:
        raise EngineError("bets", "at most 500 bets in one round")
    bets = [parse_bet(i, b) for i, b in enumerate(raw_bets)]
    outcome = require(doc, "outcome", "")
    if not isinstance(outcome, Mapping):
        raise EngineError("outcome", "what the table produced: a JSON object")
    return engine, variant, venue, bets, outcome


def round_json(doc: Mapping[str, Any]) -> dict[str, Any]:
    engine, variant, venue, bets, outcome = parse_round(doc)
    return result_json(settle_round(engine, variant, venue, bets, outcome))


def result_json(result: RoundResult) -> dict[str, Any]:
    bets = []
    for r in result.bets:
        item = {
            "status": r.status,
            "stake": money_str(r.stake),
            "valid_stake": money_str(r.valid_stake),
            "added_stake": money_str(r.added_stake),
            "payout": money_str(r.payout),
            "returned": money_str(r.returned + r.voided_excess),
            "winnings": money_str(r.winnings - r.capped_excess),
            "voided_excess": money_str(r.voided_excess),
            "capped_excess": money_str(r.capped_excess),
            "category": r.category,
            "rule": r.rule,
        }
        if r.note:
            item["note"] = r.note
        if r.violations:
            item["violations"] = list(r.violations)
        bets.append(item)
    return {
        "bets": bets,
        "payout_per_bet": [b["payout"] for b in bets],
        "voided_excess": money_str(result.voided_excess),
        "capped_excess": money_str(result.capped_excess),
        "total_return": money_str(result.total_return),
        "capped": result.capped,
    }
