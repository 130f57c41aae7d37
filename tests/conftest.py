"""Shared fixtures: staff users by role, API clients, and the audit triggers around table flushes."""

from __future__ import annotations

import pytest
from django.db import connections
from django.test import TransactionTestCase
from django.utils import translation

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


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: a request with a language cookie or Accept-Language
    leaves that language active in the worker's thread, and the next test on that worker would read
    Finnish where it expects English."""
    from django.conf import settings

    if not settings.configured:  # the rules engine's tests without Django
        yield
        return
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def broker_down(monkeypatch):
    """Publishing fails as kombu does when the broker is unreachable; `.up()` brings it back."""
    from kombu.exceptions import OperationalError as BrokerError

    from compliance.tasks import report_generate
    from lottery import tasks as lottery_tasks

    tasks = (report_generate, lottery_tasks.settle_run, lottery_tasks.pay_draw, lottery_tasks.pay_refunds)
    real = {task.name: task.apply_async for task in tasks}
    state = {"tries": 0}

    def refuse(*args, **kwargs):
        state["tries"] += 1
        raise BrokerError("[Errno 111] Connection refused")

    class Switch:
        tries = property(lambda self: state["tries"])

        def up(self):
            for task in tasks:
                monkeypatch.setattr(task, "apply_async", real[task.name])

    for task in tasks:
        monkeypatch.setattr(task, "apply_async", refuse)
    return Switch()


@pytest.fixture(autouse=True)
def _jobs_in_process(request):
    """Jobs run in-process in every test but the `worker` ones, also when CI gives the suite a broker
    (the worker tests start their own worker): a test that commits a change sees its job done."""
    from django.conf import settings

    if not settings.configured or request.node.get_closest_marker("worker"):
        yield
        return
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _own_audit_checkpoints(tmp_path_factory):
    """Each test writes and reads audit checkpoints in a file of its own: the database is rolled back
    after each test, the checkpoint store outside it is not."""
    from django.conf import settings

    if not settings.configured:  # the rules engine's tests without Django
        yield
        return
    import uuid

    from django.test import override_settings

    path = tmp_path_factory.getbasetemp() / "audit" / f"{uuid.uuid4().hex}.jsonl"
    with override_settings(AUDIT_CHECKPOINT_STORE=str(path)):
        yield


@pytest.fixture
def language_restored():
    """For tests that send a language (Accept-Language, the language cookie): LocaleMiddleware leaves it
    active in the thread and nothing deactivates it, so restore the one before the test."""
    with translation.override(translation.get_language()):
        yield
