"""Demo casino operations of `manage.py seed_demo` (issue 19 item 6)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from casino import demo_jackpots
from casino.models import Discrepancy, RecordedRound, RoundBatch, Venue
from compliance.models import AuditEvent


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def test_demo_has_the_three_venues_with_tables(seeded):
    venues = {v.code: v for v in Venue.objects.all()}
    assert set(venues) == {"pelisali-itis", "casino-helsinki", "billionaire"}
    assert all(v.tables.exists() for v in venues.values())


def test_demo_rounds_are_verified_and_only_the_planted_ones_are_discrepancies(seeded):
    assert set(RoundBatch.objects.values_list("state", flat=True)) == {RoundBatch.State.VERIFIED}
    wrong = {f"{code}-{n:04d}" for code in ("pelisali-itis", "casino-helsinki", "billionaire") for n in (8, 24, 42)}
    found = set(Discrepancy.objects.values_list("round__ref", flat=True))
    assert found == wrong | {"casino-helsinki-0051"}


def test_the_excluded_players_round_is_a_player_refused_discrepancy(seeded):
    kinds = set(Discrepancy.objects.filter(round__ref="casino-helsinki-0051").values_list("kind", flat=True))
    assert "player_refused" in kinds


def test_demo_discrepancies_are_significant_events(seeded):
    assert AuditEvent.objects.filter(action="casino.discrepancy_found", significant=True).count() == Discrepancy.objects.count()


def test_second_seed_adds_no_rounds(seeded):
    count = RecordedRound.objects.count()
    call_command("seed_demo", stdout=io.StringIO())
    assert RecordedRound.objects.count() == count == 180 + demo_jackpots.ROUNDS  # the jackpot's day too
