"""casino_compute --input FILE: one JSON document in (a round or another kind), its JSON answer out
(docs/casino.md). Needs no database."""

from casino.rules import jsonio
from casino.rules.base import EngineError
from compliance.jsoncommand import JsonComputeCommand


class Command(JsonComputeCommand):
    help = (
        "Compute one casino round (or another kind: slot_gamble, pots, icm, machine_config, ...). Reads a "
        "JSON document from FILE (or - for stdin) and prints the JSON answer. Malformed input: a message "
        "naming the field, exit 2."
    )
    requires_system_checks = []
    requires_migrations_checks = False
    engine_errors = (EngineError,)

    def answer(self, data, options):
        return jsonio.compute(data)
