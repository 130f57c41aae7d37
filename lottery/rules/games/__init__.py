"""Per-game draw formats, line validation and classification (digest §3, §5.1-§5.10).

Class-based games (settled by ``class_engine``): lotto, eurojackpot, vikinglotto, milli,
jokeri, lomatonni. Multiplier games (settled by ``multiplier``): keno,
kaikki_tai_ei_mitaan, synttarit, tahdenlento -- their modules also map JSON line buckets
to classified :class:`~lottery.rules.inputs.Bucket` s and give the cap rule.
"""

from __future__ import annotations

from types import ModuleType

from . import (
    eurojackpot,
    jokeri,
    kaikki_tai_ei_mitaan,
    keno,
    lomatonni,
    lotto,
    milli,
    synttarit,
    tahdenlento,
    vikinglotto,
)
from .common import LineClass

CLASS_GAMES: dict[str, ModuleType] = {
    "lotto": lotto,
    "eurojackpot": eurojackpot,
    "vikinglotto": vikinglotto,
    "milli": milli,
    "jokeri": jokeri,
    "lomatonni": lomatonni,
}

MULTIPLIER_GAMES: dict[str, ModuleType] = {
    "keno": keno,
    "kaikki_tai_ei_mitaan": kaikki_tai_ei_mitaan,
    "synttarit": synttarit,
    "tahdenlento": tahdenlento,
}

__all__ = [
    "CLASS_GAMES",
    "MULTIPLIER_GAMES",
    "LineClass",
    "eurojackpot",
    "jokeri",
    "kaikki_tai_ei_mitaan",
    "keno",
    "lomatonni",
    "lotto",
    "milli",
    "synttarit",
    "tahdenlento",
    "vikinglotto",
]
