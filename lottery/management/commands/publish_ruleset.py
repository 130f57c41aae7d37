import datetime as dt
import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from lottery.services import RuleSetConflict, RuleSetRefused, ruleset_publish

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Publish a new prize rule version from a JSON file "
        '{"game", "version", "effective_from": "YYYY-MM-DD", "params": {...}} on behalf of a staff user.'
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--by", required=True, help="user name of the Administrator publishing it")

    def handle(self, *args, file, by, **options):
        user = get_user_model().objects.filter(username=by, is_active=True).first()
        if user is None or not user.has_perm("lottery.add_ruleset"):
            raise CommandError(f"{by!r} is not an active user allowed to publish rule sets (lottery.add_ruleset).")
        try:
            with open(file, encoding="utf-8") as fh:
                data = json.load(fh)
            if not isinstance(data, dict):
                raise ValueError(_("the file must hold one JSON object"))
            ruleset, created = ruleset_publish(
                actor=user,
                game=data["game"],
                version=data["version"],
                effective_from=dt.date.fromisoformat(data["effective_from"]),
                params=data["params"],
                source=data.get("source", f"published from {file}"),
            )
        except KeyError as exc:
            raise CommandError(_("Not published: the file has no “%(field)s” field.") % {"field": exc.args[0]},
                               returncode=EXIT_BAD_INPUT) from exc
        except (OSError, TypeError, ValueError, RuleSetConflict, RuleSetRefused) as exc:  # JSONDecodeError: ValueError
            raise CommandError(_("Not published: %(reason)s") % {"reason": exc}, returncode=EXIT_BAD_INPUT) from exc
        self.stdout.write(f"{'Published' if created else 'Already published'}: {ruleset}")
