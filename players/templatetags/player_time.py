"""Play time in templates (money has its own filter: `{% load money %}`, compliance/templatetags)."""

from django import template

register = template.Library()


@register.filter
def seconds_as_minutes(value) -> str:
    if value is None:
        return "—"
    minutes, seconds = divmod(int(value), 60)
    return f"{minutes} min {seconds:02d} s" if seconds else f"{minutes} min"
