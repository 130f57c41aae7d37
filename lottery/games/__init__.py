"""The lottery's games: one module per game, each exporting one spec (`spec.DrawGameSpec`), all
registered here, once, with the lottery's registry (`registry`).

Each game module holds its codec (results, lines, the retail file, the check computation's tables)
and names its settlement strategy: the four number games (`lotto`, `eurojackpot`, `vikinglotto`,
`milli`) share `numbers.NumberCodec` and the set-based `bitmask.BitmaskSettlement`; Keno, Kaikki tai
ei mitään, Synttärit, Jokeri, Lomatonni and Tähdenlento are `base.GameCodec`s settled by
`buckets.BucketSettlement`. Adding a game: docs/architecture.md, "Adding a game".

Imports point down only: `lottery.rules`, `lottery.models`, `lottery.formats`, `lottery.matching`,
`lottery.pipeline` and `compliance`; never `lottery.services` (which asks the registry).
"""

from __future__ import annotations

from . import (
    eurojackpot,
    jokeri,
    kaikki,
    keno,
    lomatonni,
    lotto,
    milli,
    registry,
    synttarit,
    tahdenlento,
    vikinglotto,
)

for _module in (lotto, eurojackpot, vikinglotto, milli, keno, kaikki, synttarit, jokeri, lomatonni, tahdenlento):
    registry.register(_module.SPEC)

__all__ = ["registry"]
