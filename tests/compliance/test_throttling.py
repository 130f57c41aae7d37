"""API rates: per user (a channel is a user), low for anonymous callers, named scopes that plain
Django views can use too. 429 answers say when to come back."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from compliance.throttle import hit, too_many_requests


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
        }

    cache.clear()
    yield set_rates
    cache.clear()


def test_the_201st_request_in_a_window_is_refused_with_retry_after(api_client_for, rates):
    rates(user="200/hour")
    api = api_client_for("Auditor")
    statuses = [api.get("/api/v1/me/").status_code for _ in range(201)]
    refused = api.get("/api/v1/me/")
    assert statuses[:200] == [200] * 200 and statuses[200] == 429
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 3600


def test_each_user_has_its_own_count(api_client_for, rates):
    rates(user="2/hour")
    first, second = api_client_for("Auditor"), api_client_for("Auditor")
    for _ in range(2):
        first.get("/api/v1/me/")
    assert (first.get("/api/v1/me/").status_code, second.get("/api/v1/me/").status_code) == (429, 200)


def test_anonymous_callers_have_a_low_rate(db, rates):
    # Every API view needs a permission, so anonymous calls are refused before any rate applies; the
    # anonymous rate guards any view that would answer them (here a view open to all).
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.test import APIRequestFactory
    from rest_framework.views import APIView

    class Open(APIView):
        permission_classes = [AllowAny]

        def get(self, request):
            return Response({})

    rates(anon="3/min")
    view, factory = Open.as_view(), APIRequestFactory()
    statuses = [view(factory.get("/open/")).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_identifier_search_scope_is_counted_for_plain_django_views(make_staff, rates):
    rates(identifier_search="2/hour")
    request = RequestFactory().get("/players/")
    request.user = make_staff("Operator")
    assert [hit(request, "identifier_search") for _ in range(3)] == [True, True, False]
    response = too_many_requests(request)
    assert response.status_code == 429 and int(response["Retry-After"]) > 0


def test_identifier_search_rate_defaults_to_twenty_an_hour(settings):
    from django.conf import settings as live

    assert live.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["identifier_search"] == "20/hour"
