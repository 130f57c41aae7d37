"""Complaint deadlines and the daily venue report on PostgreSQL: two deadline jobs at once mark each
overdue deadline once (row locks and conditional updates under READ COMMITTED), and the report's sums
over rounds written by COPY and verified by the real job."""

from __future__ import annotations

import datetime as dt
import io
import json
import threading

import pytest
from django.db import connection
from django.utils import timezone

from casino import complaints, operations, verification
from casino.venue_reports import VENUE_DAY, venue_day_rows
from compliance.models import AuditEvent

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def _postgres_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("only meaningful on PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_two_deadline_jobs_at_once_mark_each_overdue_deadline_once():
    venue = operations.venue_create(actor="system:test", code="billionaire", name="Casino Billionaire",
                                    kind="foreign_casino", jurisdiction="UA")
    for i in range(8):
        complaints.complaint_record(actor="system:test", venue=venue, received_on=dt.date(2021, 3, 1), channel="written",
                                    player_name=f"Player {i}", subject="x", winnings_cents=100 + i)
    barrier = threading.Barrier(2)
    results: list[dict] = []
    errors: list[BaseException] = []

    def run():
        try:
            barrier.wait()
            results.append(complaints.complaints_mark_overdue(today=dt.date(2021, 6, 1)))
        except BaseException as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    marked = {action: AuditEvent.objects.filter(action=action, significant=True).count()
              for action in ("casino.complaint_answer_overdue", "casino.complaint_payment_overdue")}
    assert (errors, sum(r["answers"] for r in results), sum(r["payments"] for r in results), marked) == (
        [], 8, 8, {"casino.complaint_answer_overdue": 8, "casino.complaint_payment_overdue": 8})


def test_the_daily_report_sums_rounds_written_by_copy(published):
    venue = operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                    jurisdiction="FI")
    operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                            variant="single_zero_la_partage", min_stake_cents=100,
                            max_stake_cents={"roulette_inside_1": 5_000}, win_cap_cents=20_000,
                            effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))
    start = timezone.make_aware(dt.datetime(2026, 3, 14, 12, 0))
    lines, stakes, voided, capped, wins = [], 0, 0, 0, 0
    for i in range(1200):
        stake = 80 if i % 3 == 0 else 10  # euros; a third above the 50 € limit
        number = 17 if i % 37 == 0 else 3
        valid = min(stake, 50)
        stakes += stake
        voided += stake - valid
        if number == 17:  # straight up 35:1, cut to the 200 € cap
            wins += 1
            capped += valid * 35 - min(valid * 35, 200)
        paid = f"{stake + min(valid * 35, 200)}.00" if number == 17 else f"{stake - valid}.00"
        lines.append(json.dumps({"table": "helsinki/r1", "ref": f"r{i}", "played_at": (start + dt.timedelta(seconds=i)).isoformat(),
                                 "bets": [{"type": "straight", "numbers": [17], "stake": f"{stake}.00"}],
                                 "outcome": {"number": number}, "paid": [paid]}))
    batch = operations.rounds_import_file(actor="system:test", file=io.BytesIO("\n".join(lines).encode()),
                                          name="rounds.jsonl", verify=False)
    verification.verify_batch(batch.pk)
    (row,) = venue_day_rows(VENUE_DAY.prepare({"since": "2026-03-14", "until": "2026-03-14"}))
    assert (row["rounds"], row["stakes_cents"], row["voided_excess_cents"], row["capped_excess_cents"],
            row["difference_cents"], row["discrepancies_open"], wins > 0) == (
        1200, stakes * 100, voided * 100, capped * 100, 0, 0, True)
