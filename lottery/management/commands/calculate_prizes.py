"""calculate_prizes --input FILE: one JSON round in, one JSON result out (docs/prize-engine.md)."""

import datetime as dt
import json
import sys

from django.core.management.base import BaseCommand

from lottery.models import RuleSet
from lottery.rules.errors import RulesError
from lottery.selectors import prize_calculation

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Compute the prizes of one round. Reads a JSON round from FILE (or - for stdin) and prints the "
        "JSON result. Malformed input: a message naming the field, exit status 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("--input", required=True, metavar="FILE", help="JSON round, or - for stdin")
        parser.add_argument("--rules-version", help="rule version (default: the round's, else in force on --date)")
        parser.add_argument("--date", type=dt.date.fromisoformat, help="draw date (default: today, operator zone)")

    def _fail(self, field: str, message: str):
        self.stderr.write(f"error: {field}: {message}")
        sys.exit(EXIT_BAD_INPUT)

    def handle(self, *args, **options):
        path = options["input"]
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as exc:
            self._fail("--input", f"cannot read {path}: {exc.strerror}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self._fail("$", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except ValueError as exc:  # a number of more than 4,300 digits
            self._fail("$", f"not valid JSON: {exc}")
        if not isinstance(data, dict):
            self._fail("$", "the round input must be a JSON object")
        try:
            _, result = prize_calculation(data, version=options["rules_version"], on=options["date"])
        except RuleSet.DoesNotExist as exc:
            self._fail("rules_version", str(exc))
        except RulesError as exc:
            self._fail(getattr(exc, "field", "$"), getattr(exc, "message", str(exc)))
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
