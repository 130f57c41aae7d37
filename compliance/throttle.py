"""Request rates (DESIGN §7; settings `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`).

The API's throttle classes are DRF's, reading their rates from the settings at each request (DRF's
own read them once at import, so a changed setting would be ignored). Rates are "N/s", "N/min",
"N/hour" or "N/day"; counts live in the default cache, which must be shared (Redis, `CACHE_URL`) in
production so that a limit holds across processes and hosts.

- `user`: every authenticated caller, per user; a sales channel is a user, so this is per channel.
- `anon`: callers without credentials, per address.
- named scopes, e.g. `identifier_search`: a DRF view opts in with `throttle_scope = "identifier_search"`
  (ScopedRateThrottle is among the default classes); a plain Django view calls `hit(request, scope)`
  and answers `too_many_requests(request)` when it returns False.

A refused API call is 429 with a `Retry-After` header (seconds).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from django.http import HttpResponse
from django.utils.translation import gettext as _
from rest_framework import throttling
from rest_framework.settings import api_settings


class _RatesFromSettings:
    @property
    def THROTTLE_RATES(self):  # noqa: N802 (DRF's attribute name)
        return api_settings.DEFAULT_THROTTLE_RATES


class AnonRateThrottle(_RatesFromSettings, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(_RatesFromSettings, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(_RatesFromSettings, throttling.ScopedRateThrottle):
    pass


def hit(request, scope: str) -> bool:
    """Count one request of `scope` for this user (or address, when anonymous) with the same cache
    and rate as the API. True when it is within the rate; False when the caller must wait (the
    request is then not counted). Usable from any Django view; the wait is kept on the request for
    `too_many_requests`."""
    throttle = ScopedRateThrottle()
    allowed = throttle.allow_request(request, SimpleNamespace(throttle_scope=scope))
    if not allowed:
        request.throttle_wait = throttle.wait()
    return allowed


def too_many_requests(request) -> HttpResponse:
    """The 429 answer of a plain Django view after `hit` returned False, with Retry-After."""
    response = HttpResponse(_("Too many requests. Try again later."), status=429, content_type="text/plain")
    wait = getattr(request, "throttle_wait", None)
    response["Retry-After"] = str(max(1, math.ceil(wait))) if wait else "60"
    return response
