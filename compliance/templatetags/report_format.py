"""Filters of the PDF report templates (templates/compliance/reports/)."""

from django import template

from compliance.reports.kinds import euros as _euros

register = template.Library()


@register.filter
def euros(cents) -> str:
    """Integer cents as euros, '1 234.56' (no-break space between thousands); '–' for none."""
    return _euros(cents) or "–"
