"""The dashboard is a work queue (issue 18 item 3): what waits for this user now, each a sentence with
a link, from the queues the apps register (compliance.queues); counts beside the navigation entries;
a fixed number of queries however much waits."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from compliance import roles
from compliance.models import ExclusionRegistry, Job
from compliance.registry_services import registry_import_stage
from lottery.models import Draw
from lottery.services import result_enter
from tests.factories import DrawFactory, finnish_id_for

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


def _user(name):
    return get_user_model().objects.get(username=name)


@pytest.fixture
def demo(db):
    """The demo, a working morning later: the operator entered Lotto #1002's result, the compliance
    officer staged a register file, and a payment job failed."""
    call_command("seed_demo", stdout=io.StringIO())
    result_enter(actor=_user("operator"), draw=Draw.objects.get(game__code="lotto", number=1002), numbers=RESULT,
                 draw_method="device", witnesses="Notary A. Laine")
    national = ExclusionRegistry.objects.filter(kind="national").first()
    hetu = finnish_id_for(dt.date(1981, 6, 6), 11)
    registry_import_stage(actor=_user("compliance"), registry=national, file_name="register.csv",
                          data=f"identifier,country,starts,ends,external_id\n{hetu},FI,2024-01-01,,A1\n".encode())
    Job.objects.create(kind="lottery.tasks.pay_draw", key="lottery.pay_draw:999", state=Job.State.FAILED,
                       error="connection refused")
    return national


def _dashboard(client, name) -> str:
    client.force_login(_user(name))
    return client.get(reverse("dashboard")).content.decode()


def _nav(html: str, url_name: str) -> str:
    return html.split(f'data-nav="{url_name}"')[1].split("</a>")[0]


def test_the_operator_sees_their_result_waiting_for_a_second_person_and_may_withdraw_it(demo, client):
    html = _dashboard(client, "operator")
    assert "Your request awaits another person&#x27;s decision: The result of Lotto #1002 awaits confirmation" in html
    assert 'data-work="my-approval-' in html and "Withdraw my request" in html


def test_the_supervisor_is_asked_to_confirm_the_operators_result(demo, client):
    html = _dashboard(client, "supervisor")
    assert "The result of Lotto #1002 awaits confirmation (asked by operator)" in html
    draw = Draw.objects.get(game__code="lotto", number=1002)
    assert f'href="{reverse("lottery:draw", args=[draw.pk])}"' in html.split('data-queue="compliance.approvals"')[1]


def test_the_supervisor_counts_one_approval_in_the_navigation(demo, client):
    assert "(1)" in _nav(_dashboard(client, "supervisor"), "compliance:approvals")


def test_the_supervisor_is_told_of_the_failed_payment_job(demo, client):
    assert "Payment of prizes failed; send it again" in _dashboard(client, "supervisor")


def test_the_second_compliance_officer_is_asked_to_approve_the_register_import(demo, client):
    html = _dashboard(client, "compliance2")
    assert f"The import of register.csv into {demo.name} (1 rows) awaits approval (asked by compliance)" in html
    assert "(1)" in _nav(html, "compliance:approvals")


def test_the_compliance_officer_sees_their_own_import_as_their_request_not_as_a_decision(demo, client):
    html = _dashboard(client, "compliance")
    assert "Your request awaits another person&#x27;s decision: The import of register.csv" in html
    assert 'data-queue="compliance.approvals"' not in html and "(" not in _nav(html, "compliance:approvals")


def test_the_administrator_sees_every_queue_open_to_the_role(demo, client):
    html = _dashboard(client, "admin")
    assert all(text in html for text in (
        "The result of Lotto #1002 awaits confirmation (asked by operator)",
        "The import of register.csv into", "Payment of prizes failed; send it again"))


def test_the_auditor_has_nothing_waiting(demo, client):
    html = _dashboard(client, "auditor")
    assert "data-work-empty" in html and "data-work=" not in html


def test_a_draw_awaiting_its_result_is_on_the_operators_queue_and_counted_on_draws(db, client, make_staff):
    draw = DrawFactory(state="closed")
    client.force_login(make_staff(roles.OPERATOR))
    html = client.get(reverse("dashboard")).content.decode()
    assert f"{draw} awaits its result" in html and "(1)" in _nav(html, "lottery:draws")


def test_a_result_already_entered_no_longer_waits_for_entry(db, client, make_staff):
    operator = make_staff(roles.OPERATOR)
    draw = DrawFactory(state="closed")
    result_enter(actor=operator, draw=draw, numbers=RESULT, draw_method="device", witnesses="W")
    client.force_login(operator)
    assert f"{draw} awaits its result" not in client.get(reverse("dashboard")).content.decode()


def _queries(client, user) -> int:
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("dashboard")).status_code == 200
    return len(captured)


def test_the_dashboard_reads_a_fixed_number_of_queries_however_much_waits(db, client, make_staff):
    supervisor, operator = make_staff(roles.DRAW_SUPERVISOR), make_staff(roles.OPERATOR)
    first = DrawFactory(state="closed")
    result_enter(actor=operator, draw=DrawFactory(state="closed"), numbers=RESULT, draw_method="device", witnesses="W")
    few = _queries(client, supervisor)
    for _ in range(5):
        DrawFactory(state="closed")
        result_enter(actor=operator, draw=DrawFactory(state="closed"), numbers=RESULT, draw_method="device",
                     witnesses="W")
    many = _queries(client, supervisor)
    assert first.pk and many == few and few <= 25


def test_the_operators_queue_reads_in_finnish(db, client, make_staff, language_restored):
    draw = DrawFactory(state="closed")
    client.force_login(make_staff(roles.OPERATOR))
    client.cookies["django_language"] = "fi"
    html = client.get(reverse("dashboard")).content.decode()
    assert f"{draw} odottaa tulostaan" in html and "Sinua odottaa" in html
