"""The spec of a draw-based lottery game: what the draw pipeline asks a game for.

`compliance.games.GameSpec` holds what every game of every app declares (code, name, rule-version
kind, codecs, report kinds, permissions); a lottery game adds:

* ``codec`` (`lottery.games.base.GameCodec`): results (parse, text, form and API fields), lines
  (parse, text, describe, API fields, wager lines), the retail sales file (its format and columns,
  whether PostgreSQL loads it with COPY), the check computation's tables;
* ``settlement`` (`SettlementStrategy`): path A (the counts), path B (the winners, an independent
  second computation) and the check; two implementations: `lottery.games.bitmask.BitmaskSettlement`
  (set-based, bitmask and bit_count in SQL, chunks read side by side on PostgreSQL) and
  `lottery.games.buckets.BucketSettlement` (grouped buckets the engine classifies);
* ``rules``: the pure prize engine module (`lottery.rules.games.<game>`);
* ``central_inputs``: its draws take inputs from the central system (Eurojackpot, Vikinglotto);
* ``addons``: the games played as add-ons of this one (§2); a game is an add-on game when some
  registered game names it (`lottery.games.registry.addon_games`);
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from compliance.games import GameSpec

from ..models import SettlementRun
from ..pipeline import Check, Claim


class SettlementStrategy(Protocol):
    """How a game's draws are settled. `lottery.services.settlement` claims the run, checks the
    preconditions and then asks the strategy; it finishes the run when the check finds no problem."""

    #: Path B may read the chunks on worker connections while path A counts (PostgreSQL).
    parallel_ok: bool

    def count(self, claim: Claim) -> None:
        """Path A and the engine: tier counts, engine input and result, tier results and the chunk
        plan, stored on the run (``claim.own``)."""

    def write(self, claim: Claim) -> None:
        """Path B: the winners of every pending chunk with their prizes, one transaction per chunk."""

    def count_and_write(self, claim: Claim) -> Check:
        """Both side by side (only when ``parallel_ok``); returns the check."""

    def check(self, run: SettlementRun) -> Check:
        """The written winners counted per class against path A and the engine: (counts, problems)."""


@dataclass(frozen=True)
class DrawGameSpec(GameSpec):
    codec: Any = None
    settlement: Any = None
    rules: ModuleType | None = None
    addons: tuple[str, ...] = ()
    central_inputs: bool = False  # the draw takes inputs from a central system (common pools, §29-§30)
    rules_kind: str = "lottery.ruleset"
    codecs: tuple[str, ...] = ("result", "line", "retail")

    def class_name(self, key: str, label: str = "") -> str:
        """The name of a prize class (a tier) in the active language (`GameCodec.class_name`)."""
        return self.codec.class_name(str(key), label)
