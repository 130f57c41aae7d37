"""Demo casino data of `manage.py seed_demo`: every built-in variant published, two checks, nothing
duplicated on a second run."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from casino.models import CasinoRuleVersion, RoundCheck
from casino.selectors import variant_choices


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def test_demo_publishes_every_variant_as_version_1(seeded):
    assert set(CasinoRuleVersion.objects.values_list("rulebook", "game", "variant")) == set(variant_choices())
    assert set(CasinoRuleVersion.objects.values_list("version", flat=True)) == {1}


def test_demo_checks_show_the_stake_limit_overpayment(seeded):
    check = RoundCheck.objects.get(variant="game_hall_a")
    # 15 € on a straight where 10 € is the limit: 5 € returned, 10 € at 30:1; the table paid 465 €.
    assert (check.total_return_cents, check.difference_cents) == (31500, 15000)
    assert RoundCheck.objects.get(variant="single_zero_la_partage").difference_cents == 0


def test_second_seed_adds_no_versions_or_checks(seeded):
    counts = (CasinoRuleVersion.objects.count(), RoundCheck.objects.count())
    call_command("seed_demo", stdout=io.StringIO())
    assert (CasinoRuleVersion.objects.count(), RoundCheck.objects.count()) == counts
