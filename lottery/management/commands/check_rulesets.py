"""check_rulesets: every published rule version against this release's check tables."""

import sys

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from lottery.models import RuleSet
from lottery.services.rulesets import check_tables_message, ruleset_check_tables

EXIT_DIFFERENT = 2


class Command(BaseCommand):
    help = (
        "Compare every published prize rule version with the tables of the settlement's check computation "
        "of this release (run it after deploying a release that changes them). Prints each version whose "
        "tables differ, naming the cells, and exits with status 2; status 0 when every version agrees."
    )

    def handle(self, *args, **options):
        failing = 0
        for ruleset in RuleSet.objects.order_by("game", "effective_from"):
            cells = ruleset_check_tables(ruleset)
            if cells:
                failing += 1
                self.stderr.write(check_tables_message(ruleset.game, ruleset.version, cells, published=True))
        if failing:
            sys.exit(EXIT_DIFFERENT)
        self.stdout.write(_("Every published rule version has the tables of the check computation."))
