"""Template filters that ask a draw's game (its spec in `lottery.games.registry`): class numbers,
lines, add-on names and prize class names."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from lottery.games import registry

register = template.Library()


@register.filter
def class_no(class_key, game: str):
    """The winners' class number of a tier: the class itself, or a Keno / Tähdenlento cell's number."""
    spec = registry.find(game)
    if spec is None:
        return class_key
    try:
        return spec.codec.class_no(str(class_key))
    except ValueError:
        return class_key


@register.simple_tag
def class_name(game: str, class_key, label: str = "") -> str:
    """A prize class's name in the active language, as the game's spec gives it."""
    spec = registry.find(game)
    return spec.class_name(str(class_key), label) if spec is not None else (label or str(class_key))


@register.filter
def line_text(line, game: str) -> str:
    """A stored line (a dict of its columns) as its game shows it."""
    spec = registry.find(game)
    if not line or spec is None:
        return ""
    return spec.codec.line_text(line.get("main_mask", 0), line.get("extra_mask", 0), line.get("plus"),
                                line.get("flags", 0))


@register.filter
def addon_name(game: str) -> str:
    """The add-on played on a game's lines (Kunkku, Onnenapila, bonus, Tuplaus); "" for none."""
    spec = registry.find(game)
    name = spec.codec.addon_name if spec is not None else ""
    return ADDON_LABELS.get(name, name)


# Add-on names that are words rather than proper names (Kunkku, Onnenapila, Tuplaus stay as they are).
ADDON_LABELS = {"bonus": gettext_lazy("Bonus")}


@register.filter
def other_game(game: str) -> bool:
    """The game's lines are described in its own terms (Keno, Jokeri, ...), not as numbers only."""
    spec = registry.find(game)
    return spec is not None and spec.codec.describes_picks
