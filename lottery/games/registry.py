"""The lottery's game registry: one `DrawGameSpec` per game, registered in `lottery.games`.

Code outside a game's module asks here (``get(code)``, ``all()``, ``addon_games()``, ...) and the
spec it gets; it never tests a game's code (`tests/lottery/test_game_registry.py` walks the source).
"""

from __future__ import annotations

from compliance.games import GameRegistry

from .spec import DrawGameSpec

REGISTRY: GameRegistry[DrawGameSpec] = GameRegistry("lottery")


def register(spec: DrawGameSpec) -> DrawGameSpec:
    return REGISTRY.register(spec)


def get(code: str) -> DrawGameSpec:
    """The spec of ``code``; `compliance.games.UnknownGame` (a DomainError) when no game has it."""
    return REGISTRY.get(code)


def find(code: str) -> DrawGameSpec | None:
    return REGISTRY.find(code)


def all() -> list[DrawGameSpec]:  # noqa: A001 - the registry's own vocabulary: registry.all()
    return REGISTRY.all()


def codes() -> tuple[str, ...]:
    return REGISTRY.codes()


def addon_games() -> tuple[str, ...]:
    """Games played as add-ons of another game (§2), in registration order."""
    named = {code for spec in REGISTRY for code in spec.addons}
    return tuple(code for code in REGISTRY.codes() if code in named)


def main_games_with_addons() -> tuple[str, ...]:
    return tuple(spec.code for spec in REGISTRY if spec.addons)


def of_result(numbers) -> DrawGameSpec | None:
    """The game whose canonical result has exactly these keys (a stored result names no game)."""
    keys = set(numbers or {})
    for spec in REGISTRY:
        if keys and keys == set(spec.codec.canonical_fields):
            return spec
    return None


def result_fields() -> tuple[str, ...]:
    """Every result field of every game (form fields, API fields), in first-seen order."""
    out: dict[str, None] = {}
    for spec in REGISTRY:
        out.update(dict.fromkeys(spec.codec.result_fields))
    return tuple(out)


def result_text(numbers) -> str:
    """The text of a stored (canonical) result, by its game's codec; "" for none."""
    spec = of_result(numbers)
    return spec.codec.result_text(numbers) if spec is not None else ""
