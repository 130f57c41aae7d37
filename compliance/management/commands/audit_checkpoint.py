"""Write a signed checkpoint of the audit chain outside the database (the Celery beat job
"Write an audit checkpoint" does the same every five minutes)."""

import sys

from django.core.management.base import BaseCommand

from compliance.audit import checkpoint_write
from compliance.checkpoints import get_store


class Command(BaseCommand):
    help = (
        "Verify the audit events since the newest checkpoint and append a signed checkpoint (sequence, "
        "seal, time, key id, signature) to AUDIT_CHECKPOINT_STORE. Exit 1 when the chain does not verify; "
        "--list prints the newest checkpoints instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--list", type=int, metavar="N", help="Print the newest N checkpoints (JSON lines).")

    def handle(self, *args, **options):
        if options["list"] is not None:
            for cp in get_store().latest(max(0, options["list"])):
                self.stdout.write(cp.to_json())
            return
        checkpoint, report = checkpoint_write()
        if not report.ok:
            self.stderr.write(
                f"No checkpoint written: the audit chain is BROKEN at seq={report.bad_seq}: {report.reason}."
            )
            sys.exit(1)
        if checkpoint is None:
            self.stdout.write(f"No checkpoint written: the chain ends at seq {report.last_seq}, as the newest "
                              "checkpoint already records." if report.last_seq else
                              "No checkpoint written: the audit chain is empty.")
        else:
            self.stdout.write(self.style.SUCCESS(f"Checkpoint written to {report.store}: {checkpoint.to_json()}"))
