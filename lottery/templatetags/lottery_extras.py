"""Template filters of the draw pages: number masks and results (money: `{% load money %}`)."""

from __future__ import annotations

from django import template

from lottery.games.registry import result_text
from lottery.rules.bitmask import mask_to_picks

register = template.Library()


@register.filter
def picks(mask) -> str:
    if mask in (None, ""):
        return ""
    return " ".join(str(n) for n in mask_to_picks(int(mask)))


@register.filter
def result_numbers(numbers) -> str:
    return result_text(numbers or {})
