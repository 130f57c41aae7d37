"""The one way a page shows a service's refusal (a `compliance.errors.DomainError`).

A view calls the service, catches `DomainError` and hands it here: with the form it re-renders, the
refusal goes beside the form's fields (`exc.add_to_form`); on a redirect it becomes a message on the
next page. Either way the text is `str(exc)`, rendered in the reader's language: the same sentence the
API answers under `detail`.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from .errors import DomainError


def show_refusal(request: HttpRequest, exc: DomainError, form=None) -> None:
    """Show `exc` on the page: on `form` when given (a page that renders the form again), else as an
    error message (a page that redirects)."""
    if form is not None:
        exc.add_to_form(form)
    else:
        messages.error(request, str(exc))
