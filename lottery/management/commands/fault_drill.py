"""The fault drill (issue 15, item 7): kill the workers during settlement and payout, let the product
recover by itself, and compare every result, payout and ledger entry with a clean run.

    python manage.py fault_drill --trials 50 [--lines 20000] [--seed 1] [--part settlement|payout|both]
    python manage.py fault_drill --trials 5 --broker-outage

Needs PostgreSQL (a database of its own) and a real broker (CELERY_BROKER_URL; --broker-outage starts
a private redis-server instead); exits 2 naming what is missing. Prints a line per trial and, last, a
line of JSON: trials, identical, double, missing, timeouts, kills by phase and timings. Exits 1 when a
trial is not identical or a payment is double or missing. How it kills and what it sets:
lottery/drill/harness.py.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from lottery.drill.harness import DrillRefused, Options, as_json, run_drill


class Command(BaseCommand):
    help = "Kill workers during settlement and payout N times and compare every trial with a clean run."

    def add_arguments(self, parser):
        parser.add_argument("--trials", type=int, default=3)
        parser.add_argument("--lines", type=int, default=20_000, help="random retail lines per draw")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--timeout", type=float, default=60.0,
                            help="seconds a trial waits for the settlement, and then the payment, to finish")
        parser.add_argument("--part", choices=["settlement", "payout", "both"], default="both",
                            help="where the kills land")
        parser.add_argument("--workers", type=int, default=2, help="worker nodes")
        parser.add_argument("--stale", type=int, default=3, help="LOTTERY_SETTLEMENT_STALE_SECONDS of the workers")
        parser.add_argument("--beat-every", type=int, default=2,
                            help="seconds between runs of the periodic tasks that run each minute")
        parser.add_argument("--broker-outage", action="store_true",
                            help="stop a private broker during settlement, payment and a report request")

    def handle(self, *args, **o):
        if o["trials"] < 1 or o["lines"] < 100 or o["workers"] < 1 or o["timeout"] <= 0 or o["stale"] < 1 \
                or o["beat_every"] < 1:
            raise CommandError("--trials, --workers, --stale and --beat-every must be at least 1, --lines at least "
                               "100 and --timeout positive", returncode=2)
        opts = Options(trials=o["trials"], lines=o["lines"], seed=o["seed"], timeout=o["timeout"], part=o["part"],
                       workers=o["workers"], stale=o["stale"], beat_every=o["beat_every"],
                       broker_outage=o["broker_outage"])
        try:
            summary = run_drill(opts, self.stdout)
        except DrillRefused as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(as_json(summary))
        if summary["identical"] != summary["trials"] or summary["double"] or summary["missing"]:
            raise CommandError("not every trial was identical to the clean run", returncode=1)
