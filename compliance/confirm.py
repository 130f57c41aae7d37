"""A confirmation step for irreversible actions (issue 18 item 5): the first POST of such an action
answers with a page that says what will happen ("Cancelling Lotto #1002 refunds 1,234 wagers; this
cannot be undone") and a form that posts the same fields again with `confirmed=yes`; only that second
POST does it. A plain page, so it works without JavaScript and under the strict Content Security Policy.

    if needs_confirmation(request):
        return confirmation_page(request, title=..., consequence=..., action_label=..., back_url=...)
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRMED = "confirmed"
# Fields never carried over to the confirmation form.
_SKIP = {"csrfmiddlewaretoken", CONFIRMED}


def needs_confirmation(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRMED) != "yes"


def confirmation_page(request: HttpRequest, *, title: Any, consequence: Any, action_label: Any, back_url: str,
                      danger: bool = True) -> HttpResponse:
    """The page that asks: the consequence in a sentence, the same fields as posted (hidden), a button
    that confirms and a link back that does nothing."""
    fields = [(name, value) for name in request.POST for value in request.POST.getlist(name) if name not in _SKIP]
    return render(request, "compliance/confirm.html", {
        "title": title, "consequence": consequence, "action_label": action_label, "back_url": back_url,
        "fields": fields, "danger": danger, "action_url": request.path,
    })
