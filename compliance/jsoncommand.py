"""The one shape of the JSON-in, JSON-out commands (`casino_compute`, `lottery_compute`,
`calculate_prizes`): read a JSON document from `--input FILE` (or `-` for stdin), hand it to a pure
engine, print the answer. Bad input is one line `error: <field>: <message>` on stderr and exit status
2; nothing is computed from it."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Raised by `answer` for input the engine's own errors do not cover (a missing rule version)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


class JsonComputeCommand(BaseCommand):
    """Subclasses set `engine_errors` (exceptions carrying `field` and `message`) and implement `answer`."""

    engine_errors: tuple[type[BaseException], ...] = ()
    input_help = "JSON document, or - for stdin"

    def add_arguments(self, parser):
        parser.add_argument("--input", required=True, metavar="FILE", help=self.input_help)

    def answer(self, data: Any, options: dict) -> Any:
        raise NotImplementedError

    def fail(self, field: str, message: str):
        self.stderr.write(f"error: {field}: {message}")
        sys.exit(EXIT_BAD_INPUT)

    def read(self, path: str) -> Any:
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as exc:
            self.fail("--input", f"cannot read {path}: {exc.strerror}")
        except UnicodeDecodeError:
            self.fail("--input", f"{path} is not UTF-8 text")
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            self.fail("$", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except ValueError as exc:  # a number of more than 4,300 digits
            self.fail("$", f"not valid JSON: {exc}")

    def handle(self, *args, **options):
        data = self.read(options["input"])
        try:
            result = self.answer(data, options)
        except BadInput as exc:
            self.fail(exc.field, exc.message)
        except self.engine_errors as exc:
            self.fail(getattr(exc, "field", "$") or "$", getattr(exc, "message", None) or str(exc))
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
