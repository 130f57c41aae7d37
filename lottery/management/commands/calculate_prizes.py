"""calculate_prizes --input FILE: one JSON round in, one JSON result out (docs/prize-engine.md)."""

import datetime as dt

from compliance.jsoncommand import BadInput, JsonComputeCommand
from lottery.models import RuleSet
from lottery.rules.errors import RulesError
from lottery.selectors import prize_calculation


class Command(JsonComputeCommand):
    help = (
        "Compute the prizes of one round. Reads a JSON round from FILE (or - for stdin) and prints the "
        "JSON result. Malformed input: a message naming the field, exit status 2."
    )
    input_help = "JSON round, or - for stdin"
    engine_errors = (RulesError,)

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--rules-version", help="rule version (default: the round's, else in force on --date)")
        parser.add_argument("--date", type=dt.date.fromisoformat, help="draw date (default: today, operator zone)")

    def answer(self, data, options):
        if not isinstance(data, dict):
            raise BadInput("$", "the round input must be a JSON object")
        try:
            _, result = prize_calculation(data, version=options["rules_version"], on=options["date"])
        except RuleSet.DoesNotExist as exc:
            raise BadInput("rules_version", str(exc)) from exc
        return result
