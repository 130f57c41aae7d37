"""lottery_compute --input FILE: one JSON document of a lottery-side kind (pool shares, Nettiarvat,
Rahapika, additional draws) in, its JSON answer out (docs/instant-and-pools.md). Needs no database.

A separate command from ``calculate_prizes``: that one settles a round against a rule set it looks
up in the database, and its input has no ``kind``; these kinds have no rule set and must run where
there is no database (an auditor re-running a draw from its recorded seed).
"""

import json
import sys

from django.core.management.base import BaseCommand

from lottery.rules.compute import KINDS, compute
from lottery.rules.errors import RulesError

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        f"Compute one lottery-side kind ({', '.join(sorted(KINDS))}). Reads a JSON document from FILE "
        "(or - for stdin) and prints the JSON answer. Malformed input: a message naming the field, exit 2."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--input", required=True, metavar="FILE", help="JSON document, or - for stdin")

    def _fail(self, field: str, message: str):
        self.stderr.write(f"error: {field}: {message}")
        sys.exit(EXIT_BAD_INPUT)

    def handle(self, *args, **options):
        path = options["input"]
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as exc:
            self._fail("--input", f"cannot read {path}: {exc.strerror}")
        except UnicodeDecodeError:
            self._fail("--input", f"{path} is not UTF-8 text")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self._fail("$", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except ValueError as exc:  # a number of more than 4,300 digits
            self._fail("$", f"not valid JSON: {exc}")
        try:
            answer = compute(data)
        except RulesError as exc:
            self._fail(getattr(exc, "field", "$"), getattr(exc, "message", str(exc)))
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
