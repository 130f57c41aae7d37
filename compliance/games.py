"""The game-independent part of a game plug-in: what every game of every app declares, and a registry.

DESIGN §1: each game (a lottery game, a table game, a poker form, a slot product) is one package
exporting one spec object, registered with its app; code outside the game's package asks the
registry and never branches on a game's name. This module holds what is common to every app, so
that the lottery (draw-based games, `lottery.games`) and the casino (round-based games) share one
shape:

* ``GameSpec``: the code, the display name (translatable), the kind of rule version the game's rules
  are published under, the names of the codecs it provides (results, lines, rounds, ...), the report
  kinds and the permissions it declares. An app's spec extends it with what its pipeline needs (the
  lottery's ``DrawGameSpec`` adds the settlement strategy, the wager handling and the add-on links;
  a casino table game would add a verification strategy in their place, docs/architecture.md).
* ``GameRegistry[T]``: one per app, filled once (at import of the app's games package); refuses a
  second spec with the same code, answers ``get(code)`` with a clear error for an unknown one.

Nothing here imports a capability app: compliance is the kernel (DESIGN §1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from django.utils.translation import gettext_lazy as _

from .errors import DomainError


class UnknownGame(DomainError):
    """A game code no registry knows (or a game its app does not run through this pipeline)."""

    code = "unknown_game"
    status = 400
    default_message = _("%(game)s is not supported for sales and settlement.")


class DuplicateGame(ValueError):
    """A programming error: two specs with one code registered with the same registry."""


@dataclass(frozen=True)
class GameSpec:
    """What every game declares, whatever its app.

    ``rules_kind``: the kind of rule version its rules are published under (the lottery's rule sets
    are per game code; a casino game would name its table-rules kind). ``codecs``: the names of the
    codec protocols the spec provides (e.g. ``("result", "line", "retail")`` for a draw game,
    ``("round",)`` for a table game). ``report_kinds`` and ``permissions``: the report kinds and the
    permissions (``app_label.codename``) the game adds to its app's."""

    code: str
    name: Any  # a lazily translated string
    rules_kind: str = ""
    codecs: tuple[str, ...] = ()
    report_kinds: tuple[str, ...] = ()
    permissions: tuple[str, ...] = field(default=())


T = TypeVar("T", bound=GameSpec)


class GameRegistry(Generic[T]):
    """The games of one app, by code, in the order they were registered."""

    def __init__(self, app: str):
        self.app = app
        self._specs: dict[str, T] = {}

    def register(self, spec: T) -> T:
        if spec.code in self._specs:
            raise DuplicateGame(f"{self.app}: a game with the code {spec.code!r} is already registered")
        self._specs[spec.code] = spec
        return spec

    def get(self, code: str) -> T:
        """The spec of ``code``; UnknownGame (a DomainError naming the code) when there is none."""
        try:
            return self._specs[code]
        except (KeyError, TypeError):
            raise UnknownGame(game=code) from None

    def find(self, code: str) -> T | None:
        return self._specs.get(code) if isinstance(code, str) else None

    def all(self) -> list[T]:
        return list(self._specs.values())

    def codes(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code in self._specs

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._specs.values()))

    def __len__(self) -> int:
        return len(self._specs)
