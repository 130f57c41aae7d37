"""Jackpot postings under real concurrency (PostgreSQL row locks): the same gaming day posted by several
workers at once is posted once; a posting and a removal that lock the same two jackpots take them in
the same order and both finish; the ledger balances after."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from casino import jackpots, operations
from casino.models import Jackpot, JackpotDay, JackpotEntry
from tests.casino.conftest import JACKPOT_DAY, JACKPOT_FROM, jackpot_terms
from tests.casino.jackpot_rounds import played, record, uth_round

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL")


def _run(worker, n: int) -> list[BaseException]:
    errors: list[BaseException] = []
    barrier = threading.Barrier(n)

    def target(i: int) -> None:
        try:
            barrier.wait()
            worker(i)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def _post_before(j, day):
    j.refresh_from_db()
    while jackpots.next_day(j) < day:
        jackpots.jackpot_post_day(jackpot=j, day=jackpots.next_day(j))
        j.refresh_from_db()


def test_the_same_day_posted_by_four_workers_at_once_is_posted_once(progressive, uth_table):
    record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i), pot_cents=1_000_000 + 25 * i) for i in range(6)])
    _post_before(progressive, JACKPOT_DAY)
    postings: list[int] = []

    def worker(i: int) -> None:
        result = jackpots.jackpot_post_day(jackpot=Jackpot.objects.get(pk=progressive.pk), day=JACKPOT_DAY)
        postings.append(result.posted.pk)

    errors = _run(worker, 4)
    assert (errors, len(set(postings)), JackpotDay.objects.filter(day=JACKPOT_DAY).count()) == ([], 1, 1)
    assert (JackpotEntry.objects.filter(kind="contribution").count(), jackpots.ledger_problems(progressive)) == (1, [])


def test_the_beat_job_run_twice_at_once_posts_each_day_once(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    errors = _run(lambda i: jackpots.post_due_days(), 2)
    days = list(JackpotDay.objects.values_list("day", flat=True))
    assert (errors, len(days), len(set(days)), jackpots.ledger_problems(progressive)) == ([], len(set(days)), len(days), [])


def test_a_posting_and_a_removal_that_lock_the_same_two_jackpots_both_finish(progressive, uth_table):
    other = operations.table_create(actor="system:test", venue=uth_table.venue, code="uth9",
                                    game="ultimate_texas_holdem", variant="standard", min_stake_cents=100,
                                    max_stake_cents={}, effective_from=timezone.make_aware(JACKPOT_FROM))
    heir = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="heir", tables=[other],
                                   effective_from=timezone.make_aware(JACKPOT_FROM), **jackpot_terms(seed_cents=1_000))
    # New terms that send the overflow to `heir`: a posting of `progressive` locks every next pot its
    # versions name, so both writers below lock the same two rows (in primary-key order).
    jackpots.jackpot_version_create(actor="system:test", jackpot=progressive, tables=[uth_table],
                                    effective_from=timezone.now() + dt.timedelta(seconds=1),
                                    **jackpot_terms(max_cents=1_000_010, overflow="next_pot", overflow_to=heir))
    record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i), pot_cents=1_000_000 + 25 * i) for i in range(3)])
    _post_before(progressive, JACKPOT_DAY)

    def worker(i: int) -> None:
        if i == 0:
            jackpots.jackpot_post_day(jackpot=Jackpot.objects.get(pk=progressive.pk), day=JACKPOT_DAY)
        else:
            jackpots.jackpot_remove(actor="system:test", jackpot=Jackpot.objects.get(pk=heir.pk),
                                    destination="jackpot", to=Jackpot.objects.get(pk=progressive.pk), note="merged")

    errors = _run(worker, 2)
    assert (errors, jackpots.ledger_problems(progressive), jackpots.ledger_problems(heir)) == ([], [], [])
