"""The jackpots over the API (read only, issue 19 item 3): a table system reads only the jackpots linked
to its tables, with the terms in force, the posted balance and what is accrued and not posted."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino import operations
from compliance import roles
from tests.casino.conftest import JACKPOT_DAY
from tests.casino.jackpot_rounds import played, record, uth_round

URL = "/api/v1/casino/jackpots/"


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def system_of(make_staff):
    def make(*tables):
        user = make_staff(roles.SALES_CHANNEL)
        for table in tables:
            operations.table_assign_system(actor="system:test", table=table, user=user)
        return _client(user)

    return make


def test_a_table_system_reads_the_jackpot_of_its_table(system_of, progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    data = system_of(uth_table).get(URL).data["results"]
    assert [(j["code"], j["pot_cents"], j["pending_contributions_cents"], j["terms"]["contribution_rate"])
            for j in data] == [("uth-progressive", 1_000_000, 25, "0.250000")]


def test_a_table_system_of_another_table_reads_no_jackpot(system_of, progressive, helsinki):
    other = operations.table_create(actor="system:test", venue=helsinki, code="r1", game="roulette",
                                    variant="single_zero_la_partage", min_stake_cents=200, max_stake_cents={})
    assert system_of(other).get(URL).data["results"] == []


def test_staff_who_record_rounds_read_every_jackpot(make_staff, progressive):
    data = _client(make_staff(roles.CASINO_INSPECTOR)).get(URL).data["results"]
    assert [j["terms"]["tables"] for j in data] == [["helsinki/uth1"]]


def test_an_auditor_without_the_round_permission_is_refused(make_staff, progressive):
    assert _client(make_staff(roles.AUDITOR)).get(URL).status_code == 403


def test_the_api_offers_no_write(system_of, uth_table, progressive):
    assert system_of(uth_table).post(URL, {}, format="json").status_code == 405
