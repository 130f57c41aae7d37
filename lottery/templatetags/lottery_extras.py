"""Template filters of the draw pages: money in cents and number masks."""

from __future__ import annotations

from django import template

from lottery.formats import result_text
from lottery.rules.bitmask import mask_to_picks

register = template.Library()


@register.filter
def euros(amount_cents) -> str:
    """12345 -> '123.45' (integer arithmetic; thousands separated by a thin space)."""
    if amount_cents in (None, ""):
        return "–"
    value = int(amount_cents)
    sign = "-" if value < 0 else ""
    whole, cents = divmod(abs(value), 100)
    return f"{sign}{whole:,}".replace(",", "\u202f") + f".{cents:02d}"


@register.filter
def picks(mask) -> str:
    if mask in (None, ""):
        return ""
    return " ".join(str(n) for n in mask_to_picks(int(mask)))


@register.filter
def result_numbers(numbers) -> str:
    return result_text(numbers or {})
