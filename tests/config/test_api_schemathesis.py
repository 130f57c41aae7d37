"""Schemathesis over the whole API (issue 14, item 6): every operation of the app's own OpenAPI schema
(`/api/schema/`, called through the WSGI app in this process) with generated valid and invalid input,
once with a sales channel's token and once with an Administrator's. Each answer must be no 5xx, a
status code the operation documents, and a body that matches the documented schema.

Bounded so that it runs in a few minutes on two cores: 25 examples per operation, derandomized (the
same inputs every run, so CI is repeatable) and without Hypothesis' shrinking phase (a failure is
reported with the input that found it). A third of the cases of an operation with an `{id}` use the id
of an object made here (a draw, the player, its play session, an audit event), so the calls reach
real objects and not only 404s; the test's transaction is rolled back afterwards (`db`: the WSGI app
runs in this process, on this connection).
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from compliance import roles

pytestmark = pytest.mark.schemathesis

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def same_connection():
    """The WSGI requests run on the test's connection, inside its transaction: like Django's test client,
    keep the end of a request from closing the connection (PostgreSQL would lose the transaction)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db, same_connection):
    """What the calls reach: the channel "test" with a funded player in an open play session, a Lotto
    and a Jokeri draw, the two tokens (role -> clear text) and, by the first segment of a path, the
    id of an object to put in its `{id}`."""
    from django.contrib.auth.models import Group

    from compliance.models import AuditEvent
    from players import services as player_services
    from tests.factories import DrawFactory, PlayerFactory, UserFactory, api_token, sales_channel

    channel = sales_channel("test")
    player = PlayerFactory()
    player_services.account_deposit(actor="system:tests", account=player.account, amount_cents=5000,
                                     reference="schemathesis-deposit")
    session = player_services.session_start(actor="system:tests", player=player)
    draw = DrawFactory(game_code="lotto")
    DrawFactory(game_code="jokeri")
    admin = UserFactory(username="schemathesis-admin")
    admin.groups.add(Group.objects.get(name=roles.ADMINISTRATOR))
    tokens = {roles.SALES_CHANNEL: api_token(channel.user), roles.ADMINISTRATOR: api_token(admin)}
    ids = {"draws": draw.pk, "players": player.pk, "play-sessions": session.pk,
           "audit-events": AuditEvent.objects.order_by("-pk").values_list("pk", flat=True).first()}
    return {"tokens": tokens, "ids": ids}


@pytest.fixture(params=[roles.SALES_CHANNEL, roles.ADMINISTRATOR])
def role(request):
    """The caller: each operation runs once with a sales channel's token, once with an Administrator's."""
    return request.param


def _exercise(operation, token: str, ids: dict) -> str | None:
    """Run one operation's generated cases; the first failure as text, or None."""
    strategies = [operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)]
    known = ids.get(operation.path.split("/")[3])  # /api/v1/<segment>/{id}/...
    if "{id}" in operation.path and known is not None:
        strategies.append(operation.as_strategy(GenerationMode.POSITIVE, path_parameters={"id": known}))
    strategy = st.one_of(*strategies)

    @settings(
        max_examples=25,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case):
        case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)

    try:
        run()
    except (Exception, BaseExceptionGroup) as exc:  # every failing operation is reported
        return f"{operation.label}: {exc}"
    return None


def test_every_operation_answers_as_documented_without_server_errors(world, role):
    from config.wsgi import application

    tokens = world["tokens"]
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/", application, headers={"Authorization": f"Token {tokens[roles.ADMINISTRATOR]}"}
    )
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30  # the whole API, not an empty or half-read schema
    failures = [f for op in operations if (f := _exercise(op, tokens[role], world["ids"]))]
    assert not failures, "\n\n".join(failures)
