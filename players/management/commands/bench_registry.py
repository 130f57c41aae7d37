"""Benchmark: import N register entries (stage + approved swap) and time screening look-ups.

It lives in players because its look-ups are of people (players.Person), as screening makes them.

Run it on a database of its own (it creates a registry and two users and leaves them there):
    DATABASE_URL=postgres://.../bench_h5 python manage.py bench_registry --entries 1000000
The last line printed is JSON with import_s and lookup_ms (p50/p95/p99).
"""

import datetime as dt
import json
import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone

from compliance.approvals import approval_decide
from compliance.identity import identifier_hash
from compliance.models import Approval, ExclusionRegistry
from compliance.registries import check_registries
from compliance.registry_services import registry_import_stage
from players.models import Person

REGISTRY = "Benchmark register"


def _pct(values, p):
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * p / 100))], 3)


class Command(BaseCommand):
    help = "Import N synthetic register entries and time the registry look-up of screening."

    def add_arguments(self, parser):
        parser.add_argument("--entries", type=int, default=1_000_000)
        parser.add_argument("--lookups", type=int, default=2000)
        parser.add_argument("--seed", type=int, default=6)
        parser.add_argument("--skip-import", action="store_true",
                            help="Only time look-ups against the register a previous run loaded.")

    def handle(self, *args, **o):
        n, rng = o["entries"], random.Random(o["seed"])
        result = {"entries": n, "vendor": connection.vendor}
        registry = self._registry()
        if not o["skip_import"]:
            result.update(self._import(registry, n))
        now = timezone.now()
        with transaction.atomic():  # as in screening: inside the caller's transaction, a savepoint per registry
            self._lookups(n, rng, now, 100)  # warm-up: plans and caches, not counted
            samples = self._lookups(n, rng, now, o["lookups"])
        result["lookup_ms"] = {
            "p50": _pct(samples, 50), "p95": _pct(samples, 95), "p99": _pct(samples, 99),
            "mean": round(statistics.mean(samples), 3), "n": len(samples),
        }
        self.stdout.write(json.dumps(result))

    def _registry(self):
        registry, _ = ExclusionRegistry.objects.get_or_create(
            name=REGISTRY, defaults={"source": "bench_registry", "kind": "national"}
        )
        ExclusionRegistry.objects.exclude(pk=registry.pk).update(active=False)  # measure this register alone
        return registry

    def _import(self, registry, n) -> dict:
        User = get_user_model()
        users = []
        for name in ("bench-importer", "bench-approver"):
            user, _ = User.objects.get_or_create(username=name)
            user.groups.add(Group.objects.get(name="Compliance officer"))  # the handler checks the permission
            users.append(User.objects.get(pk=user.pk))
        t0 = time.perf_counter()
        lines = ["identifier,country,starts,ends,external_id"]
        for i in range(n):
            lines.append(f"BX{i:09d},SE,2024-01-{1 + i % 28:02d},{'' if i % 3 else '2030-12-31'},R{i}")
        data = ("\n".join(lines) + "\n").encode()
        self.stdout.write(f"generated {n} rows ({len(data) / 1e6:.1f} MB) in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        batch = registry_import_stage(actor=users[0], registry=registry, data=data, file_name=f"bench-{n}.csv")
        stage_s = time.perf_counter() - t0
        approval = Approval.objects.get(target_type="compliance.registryimport", target_id=str(batch.pk))
        t1 = time.perf_counter()
        approval_decide(actor=users[1], approval=approval, approve=True, note="benchmark")
        apply_s = time.perf_counter() - t1
        self.stdout.write(f"staged in {stage_s:.1f} s, applied (swap) in {apply_s:.1f} s")
        return {"import_s": round(stage_s + apply_s, 2), "stage_s": round(stage_s, 2), "apply_s": round(apply_s, 2)}

    def _lookups(self, n, rng, now, count) -> list[float]:
        samples = []
        for k in range(count):
            i = rng.randrange(n) if k % 2 else n + k  # half hits, half misses
            person = Person(first_name="Bench", last_name=f"P{k}", birth_date=dt.date(1980, 1, 1),
                            national_id_hash=identifier_hash(f"BX{i:09d}", "SE"), jurisdiction="FI")
            person.name_normalised = f"bench p{k}"
            started = time.perf_counter()
            check_registries(person, now)
            samples.append((time.perf_counter() - started) * 1000)
        return samples
