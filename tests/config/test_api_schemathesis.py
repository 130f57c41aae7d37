"""Schemathesis over the whole API (issue 14, item 6): every operation of the app's own OpenAPI schema
(`/api/schema/`, called through the WSGI app in this process) with generated valid and invalid input,
once with a sales channel's token and once with an Administrator's. Each answer must be no 5xx, a
status code the operation documents, and a body that matches the documented schema.

Bounded so that it runs in a few minutes on two cores: 25 examples per operation, derandomized (the
same inputs every run, so CI is repeatable) and without Hypothesis' shrinking phase (a failure is
reported with the input that found it). The sequences are reset, so the objects made here get the
small ids that Hypothesis tries first: the calls reach real draws, players and sessions, not only 404s.
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
def api_tokens(django_db_reset_sequences):
    """A world to call: the channel "test" with a funded player in an open play session, two draws (one
    open, one an add-on draw linked to it), and the two tokens (role -> clear text)."""
    from players import services as player_services
    from tests.factories import DrawFactory, PlayerFactory, UserFactory, api_token, sales_channel

    channel = sales_channel("test")
    player = PlayerFactory()
    player_services.account_deposit(actor="system:tests", account=player.account, amount_cents=5000,
                                     reference="schemathesis-deposit")
    player_services.session_start(actor="system:tests", player=player)
    DrawFactory(game_code="lotto")
    DrawFactory(game_code="jokeri")
    admin = UserFactory(username="schemathesis-admin")
    from django.contrib.auth.models import Group

    admin.groups.add(Group.objects.get(name=roles.ADMINISTRATOR))
    return {roles.SALES_CHANNEL: api_token(channel.user), roles.ADMINISTRATOR: api_token(admin)}


@pytest.fixture(params=[roles.SALES_CHANNEL, roles.ADMINISTRATOR])
def role(request):
    """The caller: each operation runs once with a sales channel's token, once with an Administrator's."""
    return request.param


def _exercise(operation, token: str) -> str | None:
    """Run one operation's generated cases; the first failure as text, or None."""
    strategy = st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))

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


def test_every_operation_answers_as_documented_without_server_errors(api_tokens, role):
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/", application, headers={"Authorization": f"Token {api_tokens[roles.ADMINISTRATOR]}"}
    )
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 30  # the whole API, not an empty or half-read schema
    failures = [f for op in operations if (f := _exercise(op, api_tokens[role]))]
    assert not failures, "\n\n".join(failures)
