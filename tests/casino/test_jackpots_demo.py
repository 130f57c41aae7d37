"""The demo jackpot of `manage.py seed_demo` (issue 19 items 3 and 6): Casino Helsinki's UTH Progressive
with the demo day's contributions and one progressive win, its ledger balanced, nothing added twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from casino import demo_jackpots, jackpots
from casino.models import Discrepancy, Jackpot, JackpotAccrual, JackpotEntry


@pytest.fixture
def seeded(db):
    call_command("seed_demo", stdout=io.StringIO())


def test_casino_helsinki_has_a_progressive_jackpot_on_its_uth_table(seeded):
    j = Jackpot.objects.get(venue__code="casino-helsinki")
    assert (j.versions.get().kind, [t.code for t in j.versions.get().tables.all()]) == ("progressive", ["uth-progressive"])


def test_every_progressive_stake_of_the_demo_day_contributes(seeded):
    stakes = JackpotAccrual.objects.filter(stake_cents=100).count()
    assert stakes == sum(1 + i % 3 for i in range(demo_jackpots.ROUNDS))


def test_the_demo_day_has_one_progressive_win_of_ten_percent_and_a_flush(seeded):
    wins = sorted(JackpotAccrual.objects.filter(win_cents__gt=0).values_list("round__ref", "win_cents"))
    assert [ref for ref, _w in wins] == ["uth-progressive-0010", "uth-progressive-0018"] and wins[0][1] == 5_000


def test_the_demo_pots_shown_agree_with_the_ledger(seeded):
    assert not Discrepancy.objects.filter(round__table__code="uth-progressive").exists()


def test_the_demo_ledger_balances(seeded):
    j = Jackpot.objects.get(venue__code="casino-helsinki")
    assert (jackpots.ledger_problems(j), j.entries.filter(kind="seed").count()) == ([], 1)


def test_a_second_seed_adds_no_jackpot_and_no_ledger_line(seeded):
    counts = (Jackpot.objects.count(), JackpotEntry.objects.count(), JackpotAccrual.objects.count())
    call_command("seed_demo", stdout=io.StringIO())
    assert (Jackpot.objects.count(), JackpotEntry.objects.count(), JackpotAccrual.objects.count()) == counts
