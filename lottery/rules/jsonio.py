"""JSON round I/O: ``calculate_round(data, params) -> dict`` (pure; see docs/prize-engine.md).

Input amounts are decimal strings in euros, classes are strings ("1", "2", ...). Every
output amount is a decimal string with two decimals. Invalid input raises
:class:`RoundInputError` whose ``field`` is a dotted path into the input
(``winners.3``, ``lines[2].stake``, ``plussa.boosted.4``).

The ``calculate_prizes --input FILE`` management command is meant to be a thin wrapper::

    data = json.load(open(path))
    try:
        print(json.dumps(calculate_round(data, params_from_db_or_none), indent=2, ensure_ascii=False))
    except RulesError as exc:
        raise CommandError(str(exc))
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .engine import settle_buckets, settle_classes
from .errors import InvalidResult, RoundInputError
from .games import MULTIPLIER_GAMES
from .inputs import Bucket, CentralPrize, ClassRound
from .money import parse_amount, to_decimal
from .outcome import ClassOutcome, RoundOutcome
from .params import Params, deep_merge
from .rulesets import GAMES, default_params

__all__ = ["RoundInputError", "calculate_round"]

_COMMON_KEYS = {"game", "rules_version", "param_overrides", "description"}
_CLASS_KEYS = _COMMON_KEYS | {
    "turnover",
    "jackpot",
    "jackpot_to_highest_class",
    "rollover_in",
    "winners",
    "plussa",
    "common_pools",
    "central",
    "prize_pool",
    "lines_in_draw",
    "tuplaus",
}
_MULTIPLIER_KEYS = _COMMON_KEYS | {"lines", "result", "turnover"}


def calculate_round(data: dict[str, Any], params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Settle one round described by ``data`` and return the JSON-ready result.

    ``params`` is the rule set's ``params`` (as stored); None uses the game's default rule
    set. ``data.param_overrides`` (optional) is merged over it for a what-if calculation.
    """
    if not isinstance(data, Mapping):
        raise RoundInputError("$", "the round input must be a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RoundInputError("game", f"unknown game {game!r}; one of {', '.join(GAMES)}")
    rule_params: dict[str, Any] = dict(params) if params is not None else default_params(game)
    explain_prefix: list[str] = []
    overrides = data.get("param_overrides")
    if overrides is not None:
        if not isinstance(overrides, Mapping):
            raise RoundInputError("param_overrides", "must be an object")
        rule_params = deep_merge(rule_params, overrides)
        explain_prefix.append(
            "Rule parameters overridden for this calculation: " + ", ".join(_paths(overrides))
        )
    version = data.get("rules_version")
    if version is not None and not isinstance(version, str):
        raise RoundInputError("rules_version", "must be a string")

    if game in MULTIPLIER_GAMES:
        _no_unknown_keys(data, _MULTIPLIER_KEYS)
        outcome = _multiplier_round(game, data, rule_params)
    else:
        _no_unknown_keys(data, _CLASS_KEYS)
        outcome = settle_classes(game, _class_round(game, data, rule_params), rule_params)

    out: dict[str, Any] = {"game": game}
    if version is not None:
        out["rules_version"] = version
    out["classes"] = {c.key: _class_json(c) for c in outcome.classes}
    if outcome.lines is None:
        out["merges"] = [
            {
                "classes": list(m.classes),
                "winners": m.winners,
                "pool": _s(m.pool),
                "prize": _s(m.prize),
                "paid": _s(m.paid),
                "breakage": _s(m.breakage),
            }
            for m in outcome.merges
        ]
    if outcome.lines is not None:
        out["lines"] = _lines_json(data, outcome)
    out["totals"] = {k: _s(v) for k, v in outcome.totals.items()}
    out["explain"] = explain_prefix + list(outcome.explain)
    return out


# -----------------------------------------------------------------------------------------------
# input
# -----------------------------------------------------------------------------------------------


def _no_unknown_keys(data: Mapping[str, Any], allowed: set[str]) -> None:
    for key in data:
        if key not in allowed:
            raise RoundInputError(
                str(key), f"unknown field for this game (allowed: {', '.join(sorted(allowed))})"
            )


def _paths(d: Mapping[str, Any], prefix: str = "") -> list[str]:
    out: list[str] = []
    for k, v in d.items():
        path = f"{prefix}{k}"
        out += _paths(v, path + ".") if isinstance(v, Mapping) and v else [path]
    return out


def _mapping(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RoundInputError(key, "must be an object keyed by class")
    return value


MAX_COUNT = 10**12  # winners or lines of one round: far above any game's, small enough to compute with


def _count(value: Any, field: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_COUNT:
        raise RoundInputError(field, f"{value} is too large (at most {MAX_COUNT})")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RoundInputError(field, f"must be a whole number ≥ 0, got {value!r}")
    return value


def _amount(value: Any, field: str) -> Decimal:
    return to_decimal(parse_amount(value, field))


def _counts(data: Mapping[str, Any], key: str, field: str) -> dict[str, int]:
    return {str(k): _count(v, f"{field}.{k}") for k, v in _mapping(data, key).items()}


def _class_round(game: str, data: Mapping[str, Any], params: Mapping[str, Any]) -> ClassRound:
    p = Params(params)
    uses_turnover = any(c.text("kind") == "share" for c in p.items("classes"))
    if "turnover" in data:
        turnover = _amount(data["turnover"], "turnover")
    elif uses_turnover and not (p.text("base", "turnover") == "prize_pool" and "prize_pool" in data):
        raise RoundInputError("turnover", f"is required for {game} (shares are computed from it)")
    else:
        turnover = Decimal("0.00")
    plussa = _mapping(data, "plussa")
    for key in plussa:
        if key not in ("boosted", "turnover"):
            raise RoundInputError(f"plussa.{key}", "unknown field (allowed: boosted, turnover)")
    tuplaus = _mapping(data, "tuplaus")
    for key in tuplaus:
        if key != "doubled":
            raise RoundInputError(f"tuplaus.{key}", "unknown field (allowed: doubled)")
    central: dict[str, CentralPrize] = {}
    for key, value in _mapping(data, "central").items():
        if not isinstance(value, Mapping) or "prize" not in value:
            raise RoundInputError(f"central.{key}", 'must be an object {"prize": "...", "winners": n}')
        winners = value.get("winners")
        central[str(key)] = CentralPrize(
            _amount(value["prize"], f"central.{key}.prize"),
            None if winners is None else _count(winners, f"central.{key}.winners"),
        )
    flag = data.get("jackpot_to_highest_class", False)
    if not isinstance(flag, bool):
        raise RoundInputError("jackpot_to_highest_class", "must be true or false")
    lines_in_draw = data.get("lines_in_draw")
    return ClassRound(
        turnover=turnover,
        winners=_counts(data, "winners", "winners"),
        jackpot=None if data.get("jackpot") is None else _amount(data["jackpot"], "jackpot"),
        jackpot_to_highest_class=flag,
        rollover_in={
            str(k): _amount(v, f"rollover_in.{k}") for k, v in _mapping(data, "rollover_in").items()
        },
        plussa_boosted=_counts(plussa, "boosted", "plussa.boosted"),
        plussa_turnover=None
        if plussa.get("turnover") is None
        else _amount(plussa["turnover"], "plussa.turnover"),
        common_pools={
            str(k): _amount(v, f"common_pools.{k}") for k, v in _mapping(data, "common_pools").items()
        },
        central=central,
        prize_pool=None if data.get("prize_pool") is None else _amount(data["prize_pool"], "prize_pool"),
        lines_in_draw=None if lines_in_draw is None else _count(lines_in_draw, "lines_in_draw"),
        tuplaus=_counts(tuplaus, "doubled", "tuplaus.doubled"),
    )


def _multiplier_round(game: str, data: Mapping[str, Any], params: Mapping[str, Any]) -> RoundOutcome:
    module = MULTIPLIER_GAMES[game]
    p = Params(params)
    lines = data.get("lines")
    if not isinstance(lines, list) or not lines:
        raise RoundInputError("lines", "must be a non-empty list of line buckets")
    result = None
    if data.get("result") is not None:
        if not isinstance(data["result"], Mapping):
            raise RoundInputError("result", "must be an object")
        try:
            result = module.result_from_json(data["result"], p)
        except InvalidResult as exc:
            raise RoundInputError("result", str(exc)) from None
    buckets: list[Bucket] = []
    for i, line in enumerate(lines):
        if not isinstance(line, Mapping):
            raise RoundInputError(f"lines[{i}]", "must be an object")
        buckets.append(module.bucket_from_json(line, i, p, result))
    if "turnover" in data:
        _amount(data["turnover"], "turnover")
    return settle_buckets(game, buckets, params)


# -----------------------------------------------------------------------------------------------
# output
# -----------------------------------------------------------------------------------------------


def _s(value: Decimal) -> str:
    return f"{value:.2f}"


def _class_json(c: ClassOutcome) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": c.label,
        "winners": c.winners,
        "rollover_in": _s(c.rollover_in),
        "pool": _s(c.pool),
        "allocated": _s(c.allocated),
        "topup": _s(c.topup),
        "extra": _s(c.extra),
        "prize": None if c.prize is None else _s(c.prize),
        "paid": _s(c.paid),
        "breakage": _s(c.breakage),
        "rollover_out": _s(c.rollover_out),
        "capped": c.capped,
        "merged_with": list(c.merged_with),
    }
    if c.imported:
        out["imported"] = True
        out["central_winners"] = c.central_winners
    if c.plussa is not None:
        out["plussa"] = {
            "boosted": c.plussa.boosted,
            "prize": _s(c.plussa.prize),
            "basis": _s(c.plussa.basis),
            "limited": c.plussa.limited,
            "extra": _s(c.plussa.extra),
            "breakage": _s(c.plussa.breakage),
        }
    if c.tuplaus is not None:
        out["tuplaus"] = {
            "doubled": c.tuplaus.doubled,
            "prize": _s(c.tuplaus.prize),
            "extra": _s(c.tuplaus.extra),
        }
    return out


def _lines_json(data: Mapping[str, Any], outcome: RoundOutcome) -> list[dict[str, Any]]:
    assert outcome.lines is not None
    out: list[dict[str, Any]] = []
    for line, given in zip(outcome.lines, data["lines"]):
        item = dict(given)
        item.update(
            {
                "class": line.class_key,
                "calculated": _s(line.calculated),
                "prize": _s(line.prize),
                "paid": _s(line.paid),
            }
        )
        out.append(item)
    return out
