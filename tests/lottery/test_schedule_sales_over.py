"""A draw whose sales period is already over cannot be scheduled (issue 18 item 5): it could never open
for sales and would wait in "planned" for ever. Refused by the service, beside the field on the page
and under `fields` in the API."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from compliance import roles
from lottery.models import Draw
from lottery.services import DrawInputError, draw_schedule


def _times(close: dt.datetime) -> dict:
    return {"sales_open_at": close - dt.timedelta(days=6), "sales_close_at": close,
            "draw_at": close + dt.timedelta(minutes=45)}


def test_the_service_refuses_a_draw_whose_sales_have_closed(db, make_staff):
    user = make_staff(roles.DRAW_SUPERVISOR)
    with pytest.raises(DrawInputError) as refused:
        draw_schedule(actor=user, game="lotto", number=5, **_times(timezone.now() - dt.timedelta(minutes=5)))
    assert "sales_close_at" in refused.value.fields and not Draw.objects.exists()


def test_the_service_plans_a_draw_whose_sales_close_later(db, make_staff):
    user = make_staff(roles.DRAW_SUPERVISOR)
    draw = draw_schedule(actor=user, game="lotto", number=5, **_times(timezone.now() + dt.timedelta(minutes=5)))
    assert draw.state == "planned"


def test_a_draw_of_the_past_is_planned_at_the_time_it_was_planned(db):
    close = timezone.now() - dt.timedelta(days=1)
    draw = draw_schedule(actor="system:test", game="lotto", number=6, now=close - dt.timedelta(days=6), **_times(close))
    assert draw.sales_close_at == close


def _local(value: dt.datetime) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%dT%H:%M")


def test_the_form_shows_the_refusal_beside_the_sales_close_field_and_keeps_the_input(staff_client):
    close = timezone.now() - dt.timedelta(hours=2)
    times = _times(close)
    response = staff_client(roles.OPERATOR).post(reverse("lottery:draw-new"), {
        "game": "lotto", "number": 77, **{k: _local(v) for k, v in times.items()}, "jackpot": "1000000.00"})
    form = response.context["form"]
    assert response.status_code == 200 and not Draw.objects.exists()
    assert "sales period is already over" in " ".join(form.errors["sales_close_at"])
    assert f'value="{_local(close)}"' in response.content.decode()


def test_the_api_refuses_it_with_a_field_error(api_client_for):
    close = timezone.now() - dt.timedelta(minutes=1)
    body = {"game": "lotto", "number": 8, **{k: v.isoformat() for k, v in _times(close).items()}}
    response = api_client_for(roles.DRAW_SUPERVISOR).post("/api/v1/draws/", body, format="json")
    assert response.status_code == 400 and "sales_close_at" in response.json()["fields"]
    assert not Draw.objects.exists()
