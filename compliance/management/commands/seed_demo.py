import importlib

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

# Each app may offer demo data in `<app>.demo.seed(stdout)`; they run in dependency order.
DEMO_MODULES = ["players.demo", "compliance.demo", "lottery.demo", "casino.demo"]


class Command(BaseCommand):
    help = "Load demo staff and demo data. Safe to run again: nothing is duplicated."

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
        from compliance.demo import seed_staff

        users = seed_staff(options["password"])
        for name in DEMO_MODULES:
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name == name:
                    continue
                raise
            module.seed(stdout=self.stdout)
        self.stdout.write("")
        self.stdout.write("Demo staff logins (password: %s)" % options["password"])
        for u in users:
            self.stdout.write(f"  {u['username']:<12} {u['role']:<20} API token {u['token'] or '(issued earlier)'}")
