"""Pure prize rules engine for the ten Veikkaus lottery games (digest ``spec/000-lottery.md``).

No Django and no database: the engine takes winner counts per class, or buckets of
classified lines, plus a rule set's JSON ``params``, and returns pools, prizes, caps,
rollovers and breakage. See ``docs/prize-engine.md`` and ``lottery/rules/NOTES.md``.

Public API
----------
* :func:`calculate_round` -- JSON in, JSON out (the ``calculate_prizes`` command's core).
* :func:`settle_classes`, :func:`settle_buckets` -- typed equivalents.
* :mod:`lottery.rules.games` -- per-game result/line validation and classification:
  ``games.lotto.validate_result(...)``, ``games.keno.classify(line, result)``, ...
* :func:`picks_to_mask`, :func:`mask_to_picks`, :func:`hits` -- bitmask helpers.
* :data:`DEFAULT_RULESETS`, :func:`default_params` -- the rule parameters.
* Errors: :class:`RulesError` and its subclasses.
"""

from __future__ import annotations

from . import games
from .bitmask import contains, hits, mask_to_picks, picks_to_mask
from .engine import settle_buckets, settle_classes
from .errors import InvalidParams, InvalidPicks, InvalidResult, RoundInputError, RulesError
from .inputs import Bucket, CentralPrize, ClassRound
from .jsonio import calculate_round
from .outcome import ClassOutcome, LineOutcome, MergeOutcome, RoundOutcome
from .rulesets import DEFAULT_RULESETS, GAMES, default_params, default_ruleset

__all__ = [
    "DEFAULT_RULESETS",
    "GAMES",
    "Bucket",
    "CentralPrize",
    "ClassOutcome",
    "ClassRound",
    "InvalidParams",
    "InvalidPicks",
    "InvalidResult",
    "LineOutcome",
    "MergeOutcome",
    "RoundInputError",
    "RoundOutcome",
    "RulesError",
    "calculate_round",
    "contains",
    "default_params",
    "default_ruleset",
    "games",
    "hits",
    "mask_to_picks",
    "picks_to_mask",
    "settle_buckets",
    "settle_classes",
]
