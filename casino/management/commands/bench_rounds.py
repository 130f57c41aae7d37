"""Benchmark of recorded rounds (issue 19 item 7): N rounds over the realistic mix of the game
families (their `mix_percent`: roulette 40 %, blackjack 25 %, baccarat 15 %, house poker 15 %, wheel
and dice 5 %), each paid as its engine says except a known set of wrong payouts, imported through the
real file path (`casino.operations.rounds_import_file`, JSON Lines; files of at most --batch-rounds
rounds, one batch each) and verified through the real job body (`casino.verification.verify_batch`,
with its processes). The last line printed is JSON: rounds, import_s, verify_s, rounds_per_s,
peak_mb, injected, found, false_alarms, read_s (a bare read of the same rounds: the columns the job
reads, read and decoded as it reads them, nothing computed) and verify_vs_read, then the processes'
CPU seconds (import_cpu_s, verify_cpu_s: this process and the processes it forked; import_db_cpu_s:
the database server's process of the import, when it runs on this machine), the processes that
verified and the batches. Uses its own venue (`bench-<time>`) in the configured database.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import override_settings
from django.utils import timezone

from casino import operations, verification
from casino.games import REGISTRY, spec
from casino.models import Discrepancy, Table
from casino.services import publish_builtin_variants

ACTOR = "system:bench_rounds"
RULES_FROM = dt.datetime(2026, 1, 1)


def _peak_mb() -> float:
    """The largest resident size of this process and of the processes it forked and waited for."""
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def _cpu() -> float:
    """CPU seconds of this process and of the processes it forked and waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _db_cpu() -> float | None:
    """CPU seconds of this connection's database server process, when the server runs on this machine
    (Linux /proc); None otherwise."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT NULL")
        (pid,) = cursor.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError, TypeError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Generate, import and verify N casino rounds with known wrong payouts; print timings as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=19)
        parser.add_argument("--batch-rounds", type=int, default=1_000_000,
                            help="rounds per file and batch (a batch holds at most 2,000,000)")
        parser.add_argument("--processes", type=int, default=None,
                            help="processes that verify a batch (default: CASINO_VERIFY_PROCESSES)")

    def handle(self, *args, rounds: int, seed: int, batch_rounds: int, processes: int | None, **options):
        if not 1 <= rounds <= 10_000_000:
            raise CommandError("--rounds: from 1 to 10,000,000")
        if not 1 <= batch_rounds <= operations.MAX_ROUNDS_PER_BATCH:
            raise CommandError(f"--batch-rounds: from 1 to {operations.MAX_ROUNDS_PER_BATCH:,}")
        # With DEBUG on (`make`), Django keeps every query's SQL: the bulk INSERTs' text is not the import's memory.
        chosen = {} if processes is None else {"CASINO_VERIFY_PROCESSES": processes}
        with override_settings(DEBUG=False, **chosen):
            self.run(rounds, seed, batch_rounds)

    def run(self, rounds: int, seed: int, batch_rounds: int) -> None:
        rng = random.Random(seed)
        publish_builtin_variants(actor=ACTOR, effective_from=timezone.make_aware(RULES_FROM), source="bench_rounds")
        stamp = timezone.now().strftime("%Y%m%d%H%M%S%f")
        venue = operations.venue_create(actor=ACTOR, code=f"bench-{stamp}", name=f"Benchmark {stamp}",
                                        kind="casino", jurisdiction="FI")
        families = list(REGISTRY)
        weights = [f.mix_percent for f in families]
        tables: dict[tuple[str, str], Table] = {}
        played = timezone.make_aware(dt.datetime(2026, 6, 1, 18, 0))
        injected = max(10, rounds // 1000)
        wrong = set(rng.sample(range(rounds), min(injected, rounds)))
        batches, import_s, import_cpu, import_db_cpu = [], 0.0, 0.0, 0.0
        for start in range(0, rounds, batch_rounds):
            spool = tempfile.TemporaryFile()
            digest = hashlib.sha256()
            for i in range(start, min(rounds, start + batch_rounds)):
                family = rng.choices(families, weights)[0]
                doc = family.sample(rng, "000", "casino")
                key = (doc["game"], doc["variant"])
                if key not in tables:
                    tables[key] = operations.table_create(
                        actor=ACTOR, venue=venue, code=f"{doc['game'][:28]}-{len(tables)}", game=doc["game"],
                        variant=doc["variant"], min_stake_cents=100, max_stake_cents={},
                        effective_from=timezone.make_aware(RULES_FROM))
                due = family.verification.verify(rulebook="000", game=doc["game"], variant=doc["variant"], rules=None,
                                                 venue="casino", bets=doc["bets"], outcome=doc["outcome"],
                                                 paid_cents=[0] * len(doc["bets"])).due_cents
                paid = list(due)
                if i in wrong:
                    paid[0] = max(0, paid[0] + rng.choice((-1, 1)) * rng.randint(1, 5000))
                    if paid[0] == due[0]:
                        paid[0] += 100
                line = json.dumps({
                    "table": f"{venue.code}/{tables[key].code}", "ref": f"b{i}",
                    "played_at": (played + dt.timedelta(seconds=i)).isoformat(), "bets": doc["bets"],
                    "outcome": doc["outcome"], "paid": [f"{c // 100}.{c % 100:02d}" for c in paid]}).encode() + b"\n"
                spool.write(line)
                digest.update(line)
            started, cpu, db_cpu = time.perf_counter(), _cpu(), _db_cpu()
            batches.append(operations.rounds_import_file(actor=ACTOR, file=spool, name="bench.jsonl",
                                                         sha256=digest.hexdigest(), verify=False))
            import_s += time.perf_counter() - started
            import_cpu += _cpu() - cpu
            db_after = _db_cpu()
            import_db_cpu = None if db_cpu is None or db_after is None or import_db_cpu is None else (
                import_db_cpu + db_after - db_cpu)
            spool.close()
            self.stderr.write(f"batch {len(batches)}: {batches[-1].rounds} rounds imported, "
                              f"{time.perf_counter() - started:.1f} s")
        spec.clear_caches()  # the verification computes its own answers
        started, cpu = time.perf_counter(), _cpu()
        for batch in batches:
            one = time.perf_counter()
            verification.verify_batch(batch.pk)
            self.stderr.write(f"batch {batch.pk}: verified, {time.perf_counter() - one:.1f} s")
        verify_s = time.perf_counter() - started
        verify_cpu = _cpu() - cpu
        started = time.perf_counter()
        for batch in batches:
            verification.read_only(batch.pk)
        read_s = time.perf_counter() - started
        refs = {int(ref[1:]) for ref in Discrepancy.objects.filter(round__batch__in=batches)
                .values_list("round__ref", flat=True)}
        result = {
            "rounds": rounds, "import_s": round(import_s, 2), "verify_s": round(verify_s, 2),
            "rounds_per_s": round(rounds / (import_s + verify_s)), "peak_mb": _peak_mb(),
            "injected": len(wrong), "found": len(refs & wrong), "false_alarms": len(refs - wrong),
            "read_s": round(read_s, 2), "verify_vs_read": round(verify_s / read_s, 2) if read_s else None,
            "import_cpu_s": round(import_cpu, 2), "verify_cpu_s": round(verify_cpu, 2),
            "import_db_cpu_s": None if import_db_cpu is None else round(import_db_cpu, 2),
            "processes": verification.processes(10**9), "batches": len(batches),
        }
        self.stdout.write(json.dumps(result))
