"""Player refusals in the reader's language: the API answers in the caller's, and a screening reason
logged in English shows in Finnish to a Finnish reader (issue 16 item 3)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from compliance import roles
from compliance.models import ScreeningDecision
from compliance.screening import reason_message
from players import services
from players.errors import Refused
from tests.factories import PlayerFactory

from .conftest import ACTOR, ref

ENGLISH_WORDS = {"this", "would", "exceed", "deposit", "limit", "per", "day", "remains"}


pytestmark = pytest.mark.usefixtures("language_restored")


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


def _over_the_daily_limit(player) -> Refused:
    services.limit_set(actor=ACTOR, player=player, kind="deposit", period="day", amount_cents=50_00)
    try:
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=60_00, reference=ref())
    except Refused as exc:
        return exc
    raise AssertionError("the deposit was not refused")


def test_a_deposit_over_the_limit_is_refused_in_finnish_without_english_words(make_player):
    refusal = _over_the_daily_limit(make_player())
    with translation.override("fi"):
        finnish = str(refusal)
    assert (finnish, _words(finnish) & ENGLISH_WORDS) == (
        "Tämä ylittäisi talletusrajan 50,00\u00a0€ päivässä; jäljellä on 50,00\u00a0€.", set())


def test_the_api_answers_a_refusal_in_the_callers_language(api_client_for):
    player = PlayerFactory()
    channel = api_client_for(roles.SALES_CHANNEL)
    channel.post(f"/api/v1/players/{player.pk}/limits/", {"kind": "deposit", "period": "day", "amount_cents": 50_00},
                 format="json")
    answer = channel.post(f"/api/v1/players/{player.pk}/deposits/", {"amount_cents": 60_00, "reference": "d1"},
                          format="json", HTTP_ACCEPT_LANGUAGE="sv").json()
    assert (answer["code"], answer["detail"], answer["reasons"][0]["message"]) == (
        "deposit_limit",
        "Detta skulle överskrida insättningsgränsen på 50,00\u00a0€ per dag; 50,00\u00a0€ återstår.",
        answer["detail"],
    )


def test_a_logged_reason_is_stored_in_english_and_shown_in_the_readers_language(make_player):
    player = make_player()
    _over_the_daily_limit(player)
    reason = ScreeningDecision.objects.filter(person=player.person, allowed=False).latest("pk").reasons[0]
    with translation.override("fi"):
        shown = str(reason_message(reason))
    assert (reason["message"], shown) == (
        "This would exceed the deposit limit of 50.00\u00a0€ per day; 50.00\u00a0€ remains.",
        "Tämä ylittäisi talletusrajan 50,00\u00a0€ päivässä; jäljellä on 50,00\u00a0€.",
    )


def test_the_player_page_shows_a_logged_reason_in_the_readers_language(staff_client, make_player):
    player = make_player()
    _over_the_daily_limit(player)
    client = staff_client(roles.COMPLIANCE_OFFICER)
    client.cookies["django_language"] = "fi"
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert ("ylittäisi talletusrajan" in page, "exceed the deposit limit" in page) == (True, False)
