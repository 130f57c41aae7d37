"""casino_compute --input FILE: one JSON document in (a round or another kind), its JSON answer out
(docs/casino.md). Needs no database."""

import json
import sys

from django.core.management.base import BaseCommand

from casino.rules import jsonio
from casino.rules.base import EngineError

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Compute one casino round (or another kind: slot_gamble, ...). Reads a JSON document from FILE "
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
        try:
            answer = jsonio.compute(data)
        except EngineError as exc:
            self._fail(exc.field, exc.message)
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
