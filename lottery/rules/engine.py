"""Typed entry points: settle one round of any game with a rule set's ``params``.

``params`` is a rule set's JSON ``params`` (e.g. from the database); None means the game's
default rule set from :mod:`lottery.rules.rulesets`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .class_engine import settle_class_round
from .errors import RoundInputError
from .games import CLASS_GAMES, MULTIPLIER_GAMES
from .inputs import Bucket, ClassRound
from .multiplier import settle_multiplier_round
from .outcome import RoundOutcome
from .params import Params
from .rulesets import GAMES, default_params


def _params(game: str, params: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if game not in GAMES:
        raise RoundInputError("game", f"unknown game {game!r}; one of {', '.join(GAMES)}")
    return params if params is not None else default_params(game)


def settle_classes(
    game: str, round_input: ClassRound, params: Mapping[str, Any] | None = None
) -> RoundOutcome:
    """Lotto, Eurojackpot, Vikinglotto, Milli, Jokeri, Lomatonni: winners per class -> prizes."""
    p = _params(game, params)
    if game not in CLASS_GAMES:
        raise RoundInputError("game", f"{game} is a multiplier game: settle it from line buckets")
    return settle_class_round(game, round_input, p)


def settle_buckets(
    game: str, buckets: Sequence[Bucket], params: Mapping[str, Any] | None = None
) -> RoundOutcome:
    """Keno, Kaikki tai ei mitään, Synttärit, Tähdenlento: classified line buckets -> prizes."""
    p = Params(_params(game, params))
    module = MULTIPLIER_GAMES.get(game)
    if module is None:
        raise RoundInputError("game", f"{game} is settled by class: give winners per class")
    step, mode = p.rounding()
    seen: set[int] = set()
    for b in buckets:
        if b.index in seen:
            raise RoundInputError(f"lines[{b.index}]", "duplicate bucket index")
        seen.add(b.index)
        if b.count < 1:
            raise RoundInputError(f"lines[{b.index}].count", "must be a whole number ≥ 1")
        if b.stake <= 0:
            raise RoundInputError(f"lines[{b.index}].stake", "must be positive")
    return settle_multiplier_round(game, buckets, module.classes(p), module.cap_rule(p), step, mode)
