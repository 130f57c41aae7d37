"""`{% load money %}`: the one template filter for amounts in cents (compliance/money.py).

`{{ x|money }}` -> "1 234,56 €" in the active language; `{{ x|money:False }}` leaves the symbol out where
the heading already says "(€)"; no amount (None, "") -> "–".
"""

from django import template

from compliance.money import MISSING, cents_value, format_cents

register = template.Library()


@register.filter
def money(value, symbol=True) -> str:
    cents = cents_value(value)
    return MISSING if cents is None else format_cents(cents, symbol=bool(symbol))
