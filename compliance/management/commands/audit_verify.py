import json
import sys

from django.core.management.base import BaseCommand

from compliance.audit import CHECKPOINTS_VERIFIED, verify_chain


class Command(BaseCommand):
    help = (
        "Verify the audit chain: every seal against the audit keys (AUDIT_HMAC_KEYS), the links, key "
        "rotations, the head, and the newest signed checkpoints (AUDIT_CHECKPOINT_STORE). Exits 0 when "
        "intact; 1, naming the first bad row and why, when not."
    )

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")
        parser.add_argument(
            "--checkpoints", type=int, default=CHECKPOINTS_VERIFIED,
            help=f"How many of the newest checkpoints to compare (default {CHECKPOINTS_VERIFIED}; 0: all).",
        )

    def handle(self, *args, **options):
        report = verify_chain(checkpoints=max(0, options["checkpoints"]))
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict()))
        elif report.ok:
            if report.checkpoint_seq is None:
                against = f"no checkpoint in {report.store} yet"
            else:
                against = (
                    f"{report.checkpoints} checkpoint(s) of {report.store} match, the newest at seq "
                    f"{report.checkpoint_seq} ({report.checkpoint_time})"
                )
            self.stdout.write(
                self.style.SUCCESS(f"Audit chain intact: {report.checked} events verified up to seq {report.last_seq}; "
                                   f"{against}.")
            )
        else:
            where = f"event id={report.bad_id} seq={report.bad_seq}" if report.bad_id else f"seq={report.bad_seq}"
            self.stderr.write(
                f"Audit chain BROKEN at {where}: {report.reason} ({report.checked} events verified before it)."
            )
        if not report.ok:
            sys.exit(1)
