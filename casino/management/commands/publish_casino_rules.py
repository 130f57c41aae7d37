"""publish_casino_rules: publish a table game variant's rule data as its next version (or, with
--builtin, the engines' own data of every variant that has none yet); --dry-run shows the house edge
of the new data beside the version in force and publishes nothing (docs/casino.md "Rule versions")."""

import datetime as dt
import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from casino import services
from casino.rules import registry, versions
from casino.rules.base import EngineError
from casino.selectors import EdgeReport, house_edges, version_at
from compliance.errors import DomainError

EXIT_BAD_INPUT = 2


def _bad(message: str) -> CommandError:
    return CommandError(f"Not published: {message}", returncode=EXIT_BAD_INPUT)


def _when(text: str) -> dt.datetime:
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise _bad(f"--effective-from {text!r} is not a date and time such as 2026-12-01T00:00") from None
    return timezone.make_aware(value) if timezone.is_naive(value) else value


class Command(BaseCommand):
    help = (
        "Publish a casino rule version: --rulebook 000 --game roulette --variant single_zero_zero_loses "
        "--file data.json --effective-from 2026-12-01T00:00 (operator's zone unless an offset is given) --by USER. "
        "--dry-run prints the house edge of the new data beside the version in force. --builtin publishes the "
        "engines' own data of every variant without a version, as its version 1. Bad input: exit 2."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rulebook")
        parser.add_argument("--game")
        parser.add_argument("--variant")
        parser.add_argument("--file", help="the variant's rule data: one JSON object")
        parser.add_argument("--effective-from", required=True)
        parser.add_argument("--by", help="user name of the person publishing (casino.publish_rules)")
        parser.add_argument("--source", default="", help="where the rules come from (a rulebook, a decision)")
        parser.add_argument("--dry-run", action="store_true", help="show the edges, publish nothing")
        parser.add_argument("--builtin", action="store_true", help="publish every variant's built-in data")

    def handle(self, *args, **o):
        effective_from = _when(o["effective_from"])
        if o["builtin"]:
            actor = self._actor(o["by"])
            try:
                published = services.publish_builtin_variants(actor=actor, effective_from=effective_from,
                                                              source=o["source"])
            except DomainError as exc:
                raise _bad(self._why(exc)) from exc
            self.stdout.write(f"Published {len(published)} built-in variant(s) as version 1.")
            return
        missing = [f"--{k}" for k in ("rulebook", "game", "variant", "file") if not o[k]]
        if missing:
            raise _bad(f"{', '.join(missing)} required (or --builtin)")
        try:
            with open(o["file"], encoding="utf-8") as fh:
                rules = json.load(fh)
        except (OSError, ValueError) as exc:
            raise _bad(f"cannot read {o['file']}: {exc}") from exc
        if o["dry_run"]:
            self._preview(o["rulebook"], o["game"], o["variant"], rules)
            return
        actor = self._actor(o["by"])
        try:
            version, created = services.rule_version_publish(
                actor=actor, rulebook=o["rulebook"], game=o["game"], variant=o["variant"],
                effective_from=effective_from, rules=rules, source=o["source"] or f"published from {o['file']}")
        except DomainError as exc:
            raise _bad(self._why(exc)) from exc
        self.stdout.write(f"{'Published' if created else 'Already published'}: {version} "
                          f"(from {timezone.localtime(version.effective_from):%Y-%m-%d %H:%M}, {version.rules_sha256})")

    def _actor(self, username):
        if not username:
            raise _bad("--by USER is required")
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None or not user.has_perm("casino.publish_rules"):
            raise _bad(f"{username!r} is not an active user allowed to publish casino rules (casino.publish_rules)")
        return user

    @staticmethod
    def _why(exc: DomainError) -> str:
        lines = [exc.detail] + [f"  {field}: {m}" for field, ms in exc.field_messages().items() for m in ms]
        return "\n".join(lines)

    def _preview(self, rulebook, game, variant, rules):
        if not isinstance(rules, dict):
            raise _bad("the file must hold one JSON object")
        try:
            registry.get(rulebook, game)
        except EngineError as exc:
            raise _bad(f"{exc.field}: {exc.message}") from exc
        current = version_at(rulebook, game, variant, timezone.now())
        new = house_edges(rulebook, game, rules)
        old = house_edges(rulebook, game, current.rules) if current else EdgeReport(None)
        label = f"version {current.version}" if current else "no version in force"
        self.stdout.write(f"House edge (%) of {rulebook} {game} {variant}: new data beside {label}")
        if new.error:
            self.stdout.write(f"  the new data lacks a value: {new.error}")
        if new.edges is None and not new.error:
            self.stdout.write("  the engines compute no house edge for this game")
        before = {e.bet: e for e in old.edges or ()}
        for e in new.edges or ():
            was = before.get(e.bet)
            self.stdout.write(f"  {e.bet:<24} {e.percent:>12}  {was.percent if was else '-':>12}  ({e.exact})")
        if current:
            for cell in versions.lowered_cells(current.rules, rules):
                self.stdout.write(f"  refused on publishing: {cell.path} {cell.before} -> {cell.after or 'gone'}")
        self.stdout.write("Dry run: nothing published.")
