"""Template filters for the games of `lottery.games` (Keno, Jokeri, ...): class numbers and lines."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy

from lottery.games import CODECS
from lottery.rules.bitmask import mask_to_picks

register = template.Library()


@register.filter
def class_no(class_key, game: str):
    """The winners' class number of a tier: the class itself, or a Keno / Tähdenlento cell's number."""
    if game in CODECS:
        try:
            return CODECS[game].class_no(str(class_key))
        except ValueError:
            return class_key
    return class_key


@register.filter
def line_text(line, game: str) -> str:
    """A stored line (a dict of its columns) as its game shows it."""
    if not line:
        return ""
    if game in CODECS:
        return CODECS[game].line_text(line.get("main_mask", 0), line.get("extra_mask", 0), line.get("plus"),
                                      line.get("flags", 0))
    text = " ".join(str(n) for n in mask_to_picks(int(line.get("main_mask") or 0)))
    if line.get("extra_mask"):
        text += " · " + " ".join(str(n) for n in mask_to_picks(int(line["extra_mask"])))
    return text


@register.filter
def addon_name(game: str) -> str:
    """The add-on of a game of lottery.games (Kunkku, Onnenapila, bonus, Tuplaus); "" otherwise."""
    codec = CODECS.get(game)
    name = codec.addon_name if codec is not None else ""
    return ADDON_LABELS.get(name, name)


# Add-on names that are words rather than proper names (Kunkku, Onnenapila, Tuplaus stay as they are).
ADDON_LABELS = {"bonus": gettext_lazy("Bonus")}


@register.filter
def other_game(game: str) -> bool:
    """One of the games of lottery.games (not a bitmask number game)."""
    return game in CODECS
