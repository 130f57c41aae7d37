"""The rounds API: a table system posts and reads only the rounds of its tables (issue 19)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino import operations
from casino.models import RecordedRound
from compliance import roles

URL = "/api/v1/casino/rounds/"
PLAYED = timezone.make_aware(dt.datetime(2026, 3, 14, 20, 15))


@pytest.fixture
def tables(published):
    venue = operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                    jurisdiction="FI")
    return [operations.table_create(actor="system:test", venue=venue, code=code, game="roulette",
                                    variant="single_zero_la_partage", min_stake_cents=200, max_stake_cents={},
                                    effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))
            for code in ("r1", "r2")]


@pytest.fixture
def system(make_staff, tables):
    user = make_staff(roles.SALES_CHANNEL)
    operations.table_assign_system(actor="system:test", table=tables[0], user=user)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _round(table, ref):
    return {"table": table, "ref": ref, "played_at": PLAYED.isoformat(), "outcome": {"number": 17},
            "bets": [{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}], "paid": ["360.00"]}


def test_a_table_system_posts_a_batch_to_its_table(system):
    response = system.post(URL, {"rounds": [_round("helsinki/r1", "a"), _round("helsinki/r1", "b")]}, format="json")
    assert (response.status_code, response.data["rounds"]) == (201, 2)


def test_a_table_system_may_not_post_to_another_table(system):
    response = system.post(URL, _round("helsinki/r2", "a"), format="json")
    assert response.status_code == 400 and "rounds[0].table" in response.data["fields"]
    assert not RecordedRound.objects.exists()


def test_a_table_system_reads_only_its_tables_rounds(system, tables):
    operations.rounds_record(actor="system:test", source="api", verify=False,
                             rounds=[_round("helsinki/r1", "mine"), _round("helsinki/r2", "other")])
    response = system.get(URL)
    assert [r["ref"] for r in response.data["results"]] == ["mine"]
