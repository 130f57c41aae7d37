"""The bulk path of recorded rounds on PostgreSQL: a file of rounds through the real import and the
real verification job, with contiguous ids, the player index rows and every planted discrepancy."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import time

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from casino import operations, verification
from casino.models import Discrepancy, RecordedRound, RoundPlayer, RoundVerification
from compliance.models import AuditEvent
from tests.factories import PersonFactory

pytestmark = pytest.mark.postgres

PLAYED = timezone.make_aware(dt.datetime(2026, 3, 14, 20, 0))


@pytest.fixture(autouse=True)
def _postgres_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("only meaningful on PostgreSQL")


def test_a_file_of_rounds_goes_in_whole_and_every_wrong_payout_is_found(published, monkeypatch):
    monkeypatch.setattr(operations, "INSERT_CHUNK", 700)  # several chunks in both passes
    monkeypatch.setattr(verification, "CHUNK", 500)
    venue = operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                    jurisdiction="FI")
    operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                            variant="single_zero_la_partage", min_stake_cents=200, max_stake_cents={},
                            effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))
    person = PersonFactory()
    lines = []
    for i in range(3000):
        number = i % 37
        paid = "360.00" if number == 17 else "0.00"
        if i % 250 == 0:
            paid = "1.00" if paid == "0.00" else "359.00"
        bet = {"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}
        if i % 100 == 0:
            bet["person"] = person.pk
        lines.append(json.dumps({"table": "helsinki/r1", "ref": f"r{i}", "played_at": (PLAYED + dt.timedelta(seconds=i)).isoformat(),
                                 "bets": [bet], "outcome": {"number": number}, "paid": [paid]}))
    batch = operations.rounds_import_file(actor="system:test", file=io.BytesIO("\n".join(lines).encode()),
                                          name="rounds.jsonl", verify=False)
    ids = list(RecordedRound.objects.filter(batch=batch).order_by("id").values_list("id", flat=True))
    verification.verify_batch(batch.pk)
    found = set(Discrepancy.objects.values_list("round__ref", flat=True))
    assert (len(ids), RoundPlayer.objects.count(), RoundVerification.objects.count()) == (3000, 30, 3000)
    assert found == {f"r{i}" for i in range(0, 3000, 250)}


def test_bench_rounds_finds_every_injected_payout_and_no_false_alarm(published):
    out = io.StringIO()
    call_command("bench_rounds", "--rounds", "1500", stdout=out)
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert (result["rounds"], result["found"], result["false_alarms"]) == (1500, result["injected"], 0)


def _rounds_file(count: int, wrong_every: int) -> tuple[bytes, set[str]]:
    lines, wrong = [], set()
    for i in range(count):
        number = i % 37
        paid = "360.00" if number == 17 else "0.00"
        if i % wrong_every == 0:
            paid, _ = ("1.00" if paid == "0.00" else "359.00"), wrong.add(f"r{i}")
        lines.append(json.dumps({"table": "helsinki/r1", "ref": f"r{i}", "played_at": (PLAYED + dt.timedelta(seconds=i)).isoformat(),
                                 "bets": [{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}],
                                 "outcome": {"number": number}, "paid": [paid]}))
    return "\n".join(lines).encode(), wrong


@pytest.fixture
def batch_of_1200(published, monkeypatch, settings):
    monkeypatch.setattr(verification, "CHUNK", 100)  # twelve chunks for the processes to share
    settings.CASINO_VERIFY_PROCESSES = 2
    venue = operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                    jurisdiction="FI")
    operations.table_create(actor="system:test", venue=venue, code="r1", game="roulette",
                            variant="single_zero_la_partage", min_stake_cents=200, max_stake_cents={},
                            effective_from=timezone.make_aware(dt.datetime(2026, 1, 1)))
    data, wrong = _rounds_file(1200, 100)
    return operations.rounds_import_file(actor="system:test", file=io.BytesIO(data), name="r.jsonl", verify=False), wrong


def _chunks_by_process(monkeypatch, tmp_path, *, die_unless=None):
    """Record which process verified each chunk (forked processes share the file); a process other
    than `die_unless` exits at its first chunk, as a killed one would."""
    log = tmp_path / "chunks"
    real = verification._verify_chunk

    def recorded(rounds, *args):
        if die_unless is not None and os.getpid() != die_unless:
            os._exit(9)
        with open(log, "a") as out:
            out.write(f"{os.getpid()} {rounds[0].pk}\n")
        time.sleep(0.05)  # a chunk takes a while, so the forked process is up before the first takes them all
        return real(rounds, *args)

    monkeypatch.setattr(verification, "_verify_chunk", recorded)
    return lambda: [line.split() for line in log.read_text().splitlines()]


@pytest.mark.django_db(transaction=True)
def test_two_processes_share_the_chunks_and_verify_each_round_once(batch_of_1200, monkeypatch, tmp_path):
    batch, wrong = batch_of_1200
    chunks = _chunks_by_process(monkeypatch, tmp_path)
    verification.verify_batch(batch.pk)
    batch.refresh_from_db()
    by = chunks()
    assert (len({pid for pid, _first in by}), len(by), len({first for _pid, first in by})) == (2, 12, 12)
    assert (batch.state, batch.verified, RoundVerification.objects.count(), batch.discrepancies) == (
        "verified", 1200, 1200, len(wrong))
    assert set(Discrepancy.objects.values_list("round__ref", flat=True)) == wrong
    assert AuditEvent.objects.filter(action="casino.discrepancy_found").count() == len(wrong)


@pytest.mark.django_db(transaction=True)
def test_the_chunks_of_a_forked_process_that_dies_are_verified_by_the_job(batch_of_1200, monkeypatch, tmp_path):
    batch, wrong = batch_of_1200
    chunks = _chunks_by_process(monkeypatch, tmp_path, die_unless=os.getpid())
    verification.verify_batch(batch.pk)
    batch.refresh_from_db()
    assert {pid for pid, _first in chunks()} == {str(os.getpid())}
    assert (batch.state, batch.verified, RoundVerification.objects.count(), Discrepancy.objects.count()) == (
        "verified", 1200, 1200, len(wrong))


@pytest.mark.django_db(transaction=True)
def test_a_chunk_another_process_wrote_part_of_meanwhile_is_not_written_twice(batch_of_1200, monkeypatch):
    batch, wrong = batch_of_1200
    real_read = verification._read
    raced = []

    def read_then_race(batch_id, first, last):
        rounds = real_read(batch_id, first, last)
        if not raced:  # a process of a run presumed dead writes the chunk's first round meanwhile
            raced.append(rounds[0].pk)
            verifications, discrepancies, _accrued = verification._verify_chunk(rounds[:1], verification._Context(), {})
            assert verification._write(batch_id, rounds[:1], verifications, discrepancies)
        return rounds

    monkeypatch.setattr(verification, "_read", read_then_race)
    verification.verify_batch(batch.pk, workers=1)
    batch.refresh_from_db()
    assert (batch.verified, RoundVerification.objects.count(), Discrepancy.objects.count()) == (1200, 1200, len(wrong))
