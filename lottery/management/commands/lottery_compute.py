"""lottery_compute --input FILE: one JSON document of a lottery-side kind (pool shares, Nettiarvat,
Rahapika, additional draws) in, its JSON answer out (docs/instant-and-pools.md). Needs no database.

A separate command from ``calculate_prizes``: that one settles a round against a rule set it looks
up in the database, and its input has no ``kind``; these kinds have no rule set and must run where
there is no database (an auditor re-running a draw from its recorded seed).
"""

from compliance.jsoncommand import JsonComputeCommand
from lottery.rules.compute import KINDS, compute
from lottery.rules.errors import RulesError


class Command(JsonComputeCommand):
    help = (
        f"Compute one lottery-side kind ({', '.join(sorted(KINDS))}). Reads a JSON document from FILE "
        "(or - for stdin) and prints the JSON answer. Malformed input: a message naming the field, exit 2."
    )
    requires_system_checks = []
    requires_migrations_checks = False
    engine_errors = (RulesError,)

    def answer(self, data, options):
        return compute(data)
