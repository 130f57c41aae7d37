"""Shared fixtures: staff users by role, API clients, and the audit triggers around table flushes."""

from __future__ import annotations

import pytest
from django.db import connections
from django.test import TransactionTestCase

from compliance import triggers

# Django models are imported inside the fixtures, so that the pure rules-engine tests can also run
# without Django (`pytest -p no:django tests/lottery/rules`).

_original_teardown = TransactionTestCase._fixture_teardown


def _teardown_keeping_audit_triggers(self):
    """Tests that commit (transactional tests, live server) end by emptying every table, which the
    append-only triggers rightly refuse. Only here, in the test harness, are they lifted for the
    flush and put back straight after."""
    aliases = list(self._databases_names(include_mirrors=False))
    for alias in aliases:
        triggers.drop(connections[alias])
    try:
        _original_teardown(self)
    finally:
        for alias in aliases:
            triggers.install(connections[alias])


TransactionTestCase._fixture_teardown = _teardown_keeping_audit_triggers


@pytest.fixture
def make_staff(db):
    """make_staff("Auditor") -> a saved user holding that role (or none, with role=None)."""

    from django.contrib.auth.models import Group

    from tests.factories import UserFactory

    def make(role: str | None, **kwargs):
        user = UserFactory(**kwargs)
        if role is not None:
            user.groups.add(Group.objects.get(name=role))
        return user

    return make


@pytest.fixture
def staff_client(client, make_staff):
    """staff_client("Operator") -> a Django test client signed in as a user with that role."""

    def make(role: str | None, **kwargs):
        user = make_staff(role, **kwargs)
        client.force_login(user)
        client.user = user
        return client

    return make


@pytest.fixture
def api_client_for(make_staff):
    """api_client_for("Auditor") -> a DRF client authenticated by the user's API token."""

    from rest_framework.test import APIClient

    from compliance import roles
    from tests.factories import api_token, sales_channel

    def make(role: str | None, channel: str = "test"):
        # A sales channel's client acts as the channel's own API user (the players of PlayerFactory
        # belong to the channel "test"); `channel=` names another channel.
        user = sales_channel(channel).user if role == roles.SALES_CHANNEL else make_staff(role)
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
        api.user = user
        return api

    return make


@pytest.fixture(autouse=True)
def _media_in_tmp(tmp_path):
    """Stored uploads and reports go to the test's own folder, never to var/media."""
    from django.conf import settings

    if not settings.configured:  # the rules engine's tests without Django
        yield
        return
    from django.test import override_settings

    with override_settings(MEDIA_ROOT=tmp_path / "media"):
        yield


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: API throttle counts are keyed by user id, and ids are
    reused after each test's rollback."""
    from django.conf import settings

    if settings.configured:  # not in the rules engine's tests without Django
        from django.core.cache import cache

        cache.clear()
    yield
