import json
import sys

from django.core.management.base import BaseCommand

from compliance.audit import verify_chain


class Command(BaseCommand):
    help = "Verify the audit hash chain. Exits 0 when intact; 1, naming the first bad row, when not."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args, **options):
        report = verify_chain()
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict()))
        elif report.ok:
            self.stdout.write(self.style.SUCCESS(f"Audit chain intact: {report.checked} events verified."))
        else:
            self.stderr.write(
                f"Audit chain BROKEN at event id={report.bad_id} seq={report.bad_seq}: {report.reason} "
                f"({report.checked} events verified before it)."
            )
        if not report.ok:
            sys.exit(1)
