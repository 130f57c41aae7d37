"""The draw pipeline for the six games that are not bitmask number games.

Keno, Kaikki tai ei mitään, Tähdenlento and Synttärit (multiplier games: stake × multiplier with
caps), Jokeri and Lomatonni (fixed-prize class games, also add-on games of Lotto, Vikinglotto and
Eurojackpot, §2). The four number games keep their own code paths (`lottery.formats`,
`lottery.matching`, `lottery.services.settlement`, `lottery.services.retail`); those modules hand
these games over here through small dispatch hooks:

* `codec(game)`: formats of results and lines (`base.GameCodec`), one module per game;
* `lottery.games.settlement`: counting (path A), writing winners (path B) and the check;
* `lottery.games.retail`: the retail sales files of these games;
* `lottery.games.wagers`: lines from sales channels, add-on lines in linked add-on draws.
"""

from __future__ import annotations

from .base import FLAG_ADDON, GameCodec, LineValues
from .jokeri import CODEC as JOKERI
from .kaikki import CODEC as KAIKKI
from .keno import CODEC as KENO
from .lomatonni import CODEC as LOMATONNI
from .synttarit import CODEC as SYNTTARIT
from .tahdenlento import CODEC as TAHDENLENTO

CODECS: dict[str, GameCodec] = {c.code: c for c in (KENO, KAIKKI, TAHDENLENTO, SYNTTARIT, JOKERI, LOMATONNI)}
#: The games of this package, in the order of §1.
OTHER_GAMES: tuple[str, ...] = ("keno", "kaikki_tai_ei_mitaan", "synttarit", "jokeri", "lomatonni", "tahdenlento")
#: Games played as add-ons to a main draw (§2).
ADDON_GAMES: tuple[str, ...] = ("jokeri", "lomatonni")


def codec(game: str) -> GameCodec:
    return CODECS[game]


def fixed_columns() -> list[str]:
    return ["ticket", "sold_at", "terminal"]


def fee_columns(game: str) -> list[str]:
    return ["stake_cents", "addon_cents"] if CODECS[game].addon_name else ["stake_cents"]


def retail_header(game: str) -> list[str]:
    """The columns of the game's retail sales file, in order."""
    return [*fixed_columns(), *(c.name for c in CODECS[game].csv_columns), *fee_columns(game)]


__all__ = ["ADDON_GAMES", "CODECS", "FLAG_ADDON", "OTHER_GAMES", "GameCodec", "LineValues", "codec", "retail_header"]


def result_text_of(numbers) -> str | None:
    """The text of a canonical result of one of these games (told apart by their keys), else None."""
    keys = set(numbers or {})
    for c in CODECS.values():
        if keys and keys == set(c.result_fields):
            return c.result_text(numbers)
    return None
