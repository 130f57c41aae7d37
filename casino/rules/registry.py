"""The table-game registry: every module of ``casino.rules.games`` exporting ``ENGINES``.

Code outside a game's module asks the registry; it never branches on a game's name (DESIGN §1).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from . import games as _games_pkg
from .base import EngineError, TableGame


@cache
def engines() -> dict[tuple[str, str], TableGame]:
    found: dict[tuple[str, str], TableGame] = {}
    for info in sorted(pkgutil.iter_modules(_games_pkg.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{_games_pkg.__name__}.{info.name}")
        for engine in getattr(module, "ENGINES", ()):
            key = (engine.rulebook, engine.game)
            if key in found:
                raise RuntimeError(f"two engines register rulebook {key[0]} game {key[1]}")
            found[key] = engine
    return found


def get(rulebook: str, game: str) -> TableGame:
    table = engines()
    if (rulebook, game) not in table:
        known = sorted(g for (r, g) in table if r == rulebook)
        if not known:
            raise EngineError("rulebook", f"{rulebook!r} is not one of: {', '.join(sorted({r for r, _ in table}))}")
        raise EngineError("game", f"{game!r} is not a game of rulebook {rulebook}: {', '.join(known)}")
    return table[(rulebook, game)]
