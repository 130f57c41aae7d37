from django.core.management.base import BaseCommand

from lottery.services import load_default_rulesets


class Command(BaseCommand):
    help = "Publish the prize rule versions of the digest that are not in the database yet (idempotent)."

    def handle(self, *args, **options):
        for ruleset, created in load_default_rulesets():
            self.stdout.write(f"{'published' if created else 'present  '} {ruleset}")
