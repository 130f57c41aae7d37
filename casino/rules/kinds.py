"""Packages whose modules register JSON kinds in :data:`casino.rules.jsonio.KINDS` when imported.

``casino.rules.poker`` (issue "Poker": pots, rake, tournaments, ICM, ...) and
``casino.rules.machines`` (slot machines, malfunction compensation, slot tournaments) hold one
module per family; each module registers its kinds at import. :func:`load` imports them all once.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

PACKAGES = ("casino.rules.poker", "casino.rules.machines")
#: Single modules that register kinds (complaint deadlines).
MODULES = ("casino.rules.complaints",)


@cache
def load() -> None:
    for name in PACKAGES:
        package = importlib.import_module(name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{name}.{info.name}")
    for name in MODULES:
        importlib.import_module(name)
