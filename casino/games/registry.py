"""The casino's game registry: one TableGameSpec per table game family."""

from __future__ import annotations

from compliance.games import GameRegistry, UnknownGame

from .spec import TableGameSpec

REGISTRY: GameRegistry[TableGameSpec] = GameRegistry("casino")


def family_of(game: str) -> TableGameSpec:
    """The family whose engines include the engine game `game` (UnknownGame when none does)."""
    for spec in REGISTRY:
        if game in spec.engines:
            return spec
    raise UnknownGame(game=game)


def engine_games() -> tuple[str, ...]:
    return tuple(g for spec in REGISTRY for g in spec.engines)
