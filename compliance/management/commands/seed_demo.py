from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from compliance.demo import seed_staff, seeders_in_order


class Command(BaseCommand):
    help = ("Load demo staff and the demo data every app registers (compliance.demo.register_demo), "
            "in dependency order. Safe to run again: nothing is duplicated.")

    def add_arguments(self, parser):
        parser.add_argument("--password", default=getattr(settings, "DEMO_PASSWORD", "valvoja-demo"))

    def handle(self, *args, **options):
        # The demo staff share a published password and include an Administrator: never on a
        # production installation, which runs with DEBUG off.
        if not getattr(settings, "DEMO_DATA_ALLOWED", False):
            raise CommandError(
                "seed_demo refuses to run when DEBUG is false: the demo staff have a published "
                "password. Set DEBUG=true only on a developer machine.",
                returncode=2,
            )
        users = seed_staff(options["password"])
        for seeder in seeders_in_order():
            seeder.seed(self.stdout)
        self.stdout.write("")
        self.stdout.write("Demo staff logins (password: %s)" % options["password"])
        for u in users:
            self.stdout.write(f"  {u['username']:<12} {u['role']:<20} API token {u['token'] or '(issued earlier)'}")
