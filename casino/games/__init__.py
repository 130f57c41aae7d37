"""The casino's table game families, registered once (docs/architecture.md, "A round-based casino
game"). Adding a family: its module exporting SPEC, and its line here."""

from . import baccarat, blackjack, house_poker, roulette, wheel_and_dice
from .registry import REGISTRY

for _module in (roulette, blackjack, baccarat, house_poker, wheel_and_dice):
    REGISTRY.register(_module.SPEC)
