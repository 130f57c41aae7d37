"""Money in templates: integer cents shown as euros without ever becoming a float."""

from django import template
from django.conf import settings

register = template.Library()


@register.filter
def cents(value) -> str:
    """123456 -> "1 234.56 EUR"; None -> "—"."""
    if value is None or value == "":
        return "—"
    value = int(value)
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 100)
    return f"{sign}{whole:,}.{part:02d} {settings.OPERATOR_CURRENCY}".replace(",", "\u202f")


@register.filter
def seconds_as_minutes(value) -> str:
    if value is None:
        return "—"
    minutes, seconds = divmod(int(value), 60)
    return f"{minutes} min {seconds:02d} s" if seconds else f"{minutes} min"
