"""Irreversible steps ask first and say what will happen (issue 18 item 5): the first POST answers with
a page naming the consequence and changes nothing; the second, confirmed, does it (compliance.confirm)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from compliance import roles
from compliance.models import Approval
from compliance.registry_services import ban_add, ban_lift_request
from lottery.models import Draw, DrawState
from lottery.services import result_enter
from tests.factories import DrawFactory, OperatorRegistryFactory, finnish_id_for
from tests.lottery.support import add_line

LOTTO = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}


@pytest.fixture
def supervisor(client, make_staff):
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    return client


def _cancel(client, draw, **extra):
    return client.post(reverse("lottery:draw-cancel", args=[draw.pk]), {"cancel-reason": "drum broke", **extra})


def test_cancelling_first_says_how_many_wagers_are_refunded_and_changes_nothing(supervisor):
    draw = DrawFactory(state="closed")
    for numbers in ((1, 2, 3, 4, 5, 6, 7), (2, 3, 4, 5, 6, 7, 8)):
        add_line(draw, numbers, stake_cents=100)
    response = _cancel(supervisor, draw)
    html = response.content.decode()
    assert f"Cancelling {draw} refunds 2 wagers (2.00 € in total); this cannot be undone." in html.replace("\xa0", " ")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED


def test_the_confirmation_page_carries_the_reason_typed(supervisor):
    draw = DrawFactory(state="closed")
    html = _cancel(supervisor, draw).content.decode()
    assert 'name="cancel-reason" value="drum broke"' in html and 'name="confirmed" value="yes"' in html


def test_a_confirmed_cancellation_cancels(supervisor):
    draw = DrawFactory(state="closed")
    _cancel(supervisor, draw, confirmed="yes")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CANCELLED


def test_confirming_a_result_first_names_the_numbers_and_the_settlement(supervisor, make_staff):
    draw = DrawFactory(state="closed", jackpot_cents=1)
    result_enter(actor=make_staff(roles.OPERATOR), draw=draw, numbers=LOTTO, draw_method="device", witnesses="W")
    html = supervisor.post(reverse("lottery:draw-confirm", args=[draw.pk])).content.decode()
    assert "as the result of" in html and "starts its settlement" in html and "1 2 3 4 5 6 7" in html
    assert Draw.objects.get(pk=draw.pk).state == DrawState.RESULT_ENTERED


def test_an_approval_is_decided_only_once_confirmed(client, make_staff):
    officer, other = make_staff(roles.COMPLIANCE_OFFICER), make_staff(roles.COMPLIANCE_OFFICER)
    ban = ban_add(actor=officer, registry=OperatorRegistryFactory(name="Operator bans"), reason="r",
                  national_id=finnish_id_for(dt.date(1981, 1, 1), 12))
    approval = ban_lift_request(actor=officer, entry=ban, reason="appeal granted")
    client.force_login(other)
    url = reverse("compliance:approval-decide", args=[approval.pk])
    html = client.post(url, {"decision": "approve"}).content.decode()
    assert "Lifting a ban of Operator bans early awaits approval" in html
    assert Approval.objects.get(pk=approval.pk).state == Approval.State.REQUESTED
    client.post(url, {"decision": "approve", "confirmed": "yes"})
    assert Approval.objects.get(pk=approval.pk).state == Approval.State.APPROVED
