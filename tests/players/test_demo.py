"""Demo players of `manage.py seed_demo`: one of each kind, and nothing duplicated on a second run."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from players.models import LedgerEntry, Person


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def _person(last_name: str) -> Person:
    return Person.objects.select_related("player__account").get(last_name=last_name)


def test_demo_has_a_verified_funded_player(seeded):
    aino = _person("Virtanen")
    assert (aino.kyc_status, aino.player.account.balance_cents > 0) == ("verified", True)


def test_demo_has_an_unverified_player(seeded):
    assert _person("Korhonen").kyc_status == "unverified"


def test_demo_has_a_self_excluded_player(seeded):
    assert _person("Nieminen").self_exclusions.exists()


def test_demo_has_a_player_on_the_exclusion_register_whose_deposit_was_refused(seeded):
    jari = _person("Mäkelä")
    assert jari.screening_decisions.filter(allowed=False, reasons__0__code="registry_excluded").exists()


def test_second_seed_adds_no_ledger_entries(seeded):
    before = LedgerEntry.objects.count()
    call_command("seed_demo", stdout=io.StringIO())
    assert LedgerEntry.objects.count() == before


def test_demo_has_an_api_user_with_the_sales_channel_role(seeded):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="channel")
    assert (list(user.groups.values_list("name", flat=True)), user.has_usable_password()) == (["Sales channel"], False)
