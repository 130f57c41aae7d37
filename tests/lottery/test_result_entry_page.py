"""The result entry on the draw page keeps what was typed and says what it expects (issue 18 item 5),
and the person who entered a result can withdraw it before it is confirmed (item 3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from compliance import roles
from compliance.models import Approval, AuditEvent
from lottery.models import Draw, DrawResult, DrawState, ResultStatus
from lottery.services import FourEyesError, result_confirm, result_enter, result_withdraw
from tests.factories import DrawFactory

LOTTO = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}
WITNESSES = "Notary A. Laine and the draw officer K. Salo"


@pytest.fixture
def operator(client, make_staff):
    user = make_staff(roles.OPERATOR)
    client.force_login(user)
    client.user = user
    return client


def _enter(client, draw, **fields):
    data = {"enter-numbers": "1 2 3 4 5 6", "enter-additional": "8", "enter-plus": "3",
            "enter-draw_method": "device", "enter-witnesses": WITNESSES, **fields}
    return client.post(reverse("lottery:draw-enter", args=[draw.pk]), data)


def test_a_refused_result_keeps_every_field_the_witnesses_included(operator):
    draw = DrawFactory(state="closed")
    response = _enter(operator, draw)  # six numbers: Lotto draws seven
    html = response.content.decode()
    assert response.status_code == 200 and Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED
    assert 'value="1 2 3 4 5 6"' in html and WITNESSES in html and 'value="8"' in html
    assert 'value="device" selected' in html


def test_a_refused_result_says_why_and_the_expected_format(operator):
    draw = DrawFactory(state="closed")
    html = _enter(operator, draw).content.decode()
    assert "data-form-errors" in html
    assert "7 different numbers from 1 to 40, separated by spaces" in html


def test_a_missing_witness_is_shown_beside_its_field(operator):
    draw = DrawFactory(state="closed")
    html = _enter(operator, draw, **{"enter-numbers": "1 2 3 4 5 6 7", "enter-witnesses": ""}).content.decode()
    assert 'data-field-error="witnesses"' in html and 'value="1 2 3 4 5 6 7"' in html


def test_an_accepted_result_goes_back_to_the_draw_page(operator):
    draw = DrawFactory(state="closed")
    response = _enter(operator, draw, **{"enter-numbers": "1 2 3 4 5 6 7"})
    assert response.status_code == 302 and Draw.objects.get(pk=draw.pk).state == DrawState.RESULT_ENTERED


def test_a_refused_cancellation_keeps_the_page_and_shows_the_missing_reason(client, make_staff):
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    draw = DrawFactory(state="closed")
    response = client.post(reverse("lottery:draw-cancel", args=[draw.pk]), {"cancel-reason": ""})
    assert response.status_code == 200 and 'data-field-error="reason"' in response.content.decode()
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED


# -- withdrawing an entered result -------------------------------------------------------------------

def _entered(draw, user):
    return result_enter(actor=user, draw=draw, numbers=LOTTO, draw_method="device", witnesses="W. Itness")


def test_the_enterer_withdraws_the_result_and_the_draw_awaits_its_result_again(db, enterer):
    draw = DrawFactory(state="closed")
    result = _entered(draw, enterer)
    result_withdraw(actor=enterer, draw=draw, reason="typed 7 for 1")
    approval = Approval.objects.get(kind="lottery.result")
    assert (Draw.objects.get(pk=draw.pk).state, DrawResult.objects.get(pk=result.pk).status, approval.state) == (
        DrawState.CLOSED, ResultStatus.REJECTED, Approval.State.CANCELLED)


def test_withdrawing_is_audited_as_a_withdrawal(db, enterer):
    draw = DrawFactory(state="closed")
    _entered(draw, enterer)
    result_withdraw(actor=enterer, draw=draw, reason="typed 7 for 1")
    event = AuditEvent.objects.get(action="lottery.result_withdrawn")
    assert (event.actor_repr, event.data["reason"], event.object_id) == (enterer.username, "typed 7 for 1", str(draw.pk))


def test_only_the_enterer_may_withdraw(db, enterer, confirmer):
    draw = DrawFactory(state="closed")
    _entered(draw, enterer)
    with pytest.raises(FourEyesError):
        result_withdraw(actor=confirmer, draw=draw)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.RESULT_ENTERED


def test_a_confirmed_result_cannot_be_withdrawn(db, enterer, confirmer):
    draw = DrawFactory(state="closed", jackpot_cents=1)
    _entered(draw, enterer)
    result_confirm(actor=confirmer, draw=draw)
    with pytest.raises(Exception) as refused:
        result_withdraw(actor=enterer, draw=draw)
    assert getattr(refused.value, "code", "") == "draw_state"


def test_the_draw_page_offers_the_withdrawal_to_the_enterer_only(operator, make_staff, client):
    draw = DrawFactory(state="closed")
    _entered(draw, operator.user)
    html = operator.get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert 'data-action="withdraw"' in html and 'data-action="reject"' not in html
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    other = client.get(reverse("lottery:draw", args=[draw.pk])).content.decode()
    assert 'data-action="withdraw"' not in other and 'data-action="reject"' in other


def test_an_operator_withdraws_from_the_draw_page(operator):
    draw = DrawFactory(state="closed")
    _entered(draw, operator.user)
    response = operator.post(reverse("lottery:draw-withdraw", args=[draw.pk]), {"withdraw-reason": "wrong plus"})
    assert response.status_code == 302 and Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED
