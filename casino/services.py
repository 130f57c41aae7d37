"""Casino writes. Each takes `actor=` and records its audit event in the same transaction
(docs/casino.md "Rule versions" and "Round check")."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.rules import jsonio, registry, versions
from casino.rules.base import EngineError, TableGame, money_str, parse_money
from compliance.audit import audit_record
from compliance.errors import InvalidInput, RuleRefused, StateConflict, lazy_format
from compliance.money import euros_to_cents

from .messages import engine_message
from .models import CasinoRuleVersion, RoundCheck
from .selectors import version_at

#: Lowered cells named in a refusal; the rest are counted.
REFUSAL_CELLS_SHOWN = 20


def _engine(rulebook: Any, game: Any, variant: Any) -> TableGame:
    """The engine of a (rulebook, game) that has the variant; InvalidInput naming the field
    (`rulebook`, `game` or `variant`)."""
    try:
        if not isinstance(rulebook, str) or not isinstance(game, str):
            raise EngineError("rulebook" if not isinstance(rulebook, str) else "game", "a name such as \"000\"")
        engine = registry.get(rulebook, game)
        if variant not in engine.variants:
            raise EngineError("variant", f"{variant!r} is not one of: {', '.join(engine.variants)}")
    except EngineError as exc:
        reason = _reason(exc)
        raise InvalidInput(_("%(where)s: %(reason)s"), fields={exc.field: [reason]}, where=exc.field,
                           reason=reason) from None
    return engine


def _reason(exc: EngineError):
    """The engine's English message in the reader's language (casino.messages), rendered when shown."""
    template, params = engine_message(exc)
    return lazy_format(template, **params) if params else template


def engine_refusal(exc: EngineError) -> InvalidInput:
    """The engine's refusal as the services' error: the field as the engine names it (`bets[2].stake`),
    the message in the reader's language."""
    reason = _reason(exc)
    return InvalidInput(_("The round is not valid: %(where)s: %(reason)s"), code="invalid_round",
                        fields={exc.field: [reason]}, where=exc.field, reason=reason)


def _aware(value: Any, field: str) -> dt.datetime:
    if not isinstance(value, dt.datetime) or timezone.is_naive(value):
        raise InvalidInput(_("%(field)s must be a date and time with its zone."), fields={field: [
            _("A date and time with its zone, such as 2026-12-01T00:00+02:00.")]}, field=field)
    return value


# ---------------------------------------------------------------------------------------- rule versions


class OddsLowered(RuleRefused):
    code = "odds_lowered"
    default_message = _("A new rule version may raise the odds of the version it supersedes, never lower them.")


@transaction.atomic
def rule_version_publish(
    *, actor, rulebook: str, game: str, variant: str, effective_from: dt.datetime, rules: Any, source: str = "",
    request=None,
) -> tuple[CasinoRuleVersion, bool]:
    """Publish the next version of a variant's rules. The same data and date as the latest version:
    nothing happens (it, False). A later version takes effect after the latest one and not in the
    past (rounds already played keep their rules; only a variant's first version may be dated back);
    it may not lower any payout ratio of the version it supersedes (`casino.rules.versions`)."""
    _engine(rulebook, game, variant)
    if not isinstance(rules, Mapping) or not rules:
        raise InvalidInput(_("The rule data must be a JSON object."), fields={"rules": [_("A JSON object.")]})
    effective_from = _aware(effective_from, "effective_from")
    rules = json.loads(versions.canonical_json(rules))
    sha = versions.fingerprint(rules)
    latest = (CasinoRuleVersion.objects.select_for_update()
              .filter(rulebook=rulebook, game=game, variant=variant).order_by("-version").first())
    if latest is not None:
        if latest.rules_sha256 == sha and latest.effective_from == effective_from:
            return latest, False
        if effective_from <= latest.effective_from:
            raise StateConflict(
                _("Version %(version)s of %(game)s %(variant)s takes effect on %(date)s; a new version must take "
                  "effect after it."), fields={"effective_from": [_("Later than the version in force.")]},
                version=latest.version, game=game, variant=variant,
                date=timezone.localtime(latest.effective_from).strftime("%Y-%m-%d %H:%M"))
        if effective_from < timezone.now():
            raise StateConflict(
                _("A new version cannot take effect in the past: rounds already played keep their rules."),
                fields={"effective_from": [_("Now or later.")]})
        lowered = versions.lowered_cells(latest.rules, rules)
        if lowered:
            raise OddsLowered(
                _("Version %(version)s of %(game)s %(variant)s pays more on: %(cells)s. A new version may raise "
                  "the odds, never lower them."),
                fields={"rules": [_lowered_text(c) for c in lowered[:REFUSAL_CELLS_SHOWN]]},
                extra={"cells": [{"cell": c.path, "before": c.before, "after": c.after} for c in lowered]},
                version=latest.version, game=game, variant=variant,
                cells=", ".join(c.path for c in lowered[:REFUSAL_CELLS_SHOWN])
                + (f" (+{len(lowered) - REFUSAL_CELLS_SHOWN})" if len(lowered) > REFUSAL_CELLS_SHOWN else ""))
    try:
        with transaction.atomic():
            version = CasinoRuleVersion.objects.create(
                rulebook=rulebook, game=game, variant=variant, version=(latest.version + 1) if latest else 1,
                effective_from=effective_from, rules=rules, rules_sha256=sha, source=source[:255],
                published_by=actor if isinstance(actor, str) else actor.get_username())
    except IntegrityError:  # another publisher of the same variant got there first
        raise StateConflict(_("Another version of this variant was published at the same time; try again.")) from None
    audit_record(actor=actor, action="casino.rule_version_published", obj=version, significant=True, request=request,
                 after={"rulebook": rulebook, "game": game, "variant": variant, "version": version.version,
                        "effective_from": effective_from.isoformat(), "rules_sha256": sha})
    return version, True


def _lowered_text(cell: versions.LoweredCell) -> str:
    if cell.after is None:
        return str(_("%(cell)s: %(before)s is gone") % {"cell": cell.path, "before": cell.before})
    return str(_("%(cell)s: %(before)s lowered to %(after)s") % {"cell": cell.path, "before": cell.before,
                                                                 "after": cell.after})


def publish_builtin_variants(*, actor, effective_from: dt.datetime, source: str = "") -> list[CasinoRuleVersion]:
    """Publish the engines' own data of every variant that has no version yet, as its version 1
    (idempotent: a variant with a version is left alone). The versions published now."""
    published = []
    existing = set(CasinoRuleVersion.objects.values_list("rulebook", "game", "variant").distinct())
    for (rulebook, game), engine in sorted(registry.engines().items()):
        for code, data in engine.variants.items():
            if (rulebook, game, code) in existing:
                continue
            version, created = rule_version_publish(
                actor=actor, rulebook=rulebook, game=game, variant=code, effective_from=effective_from,
                rules=dict(data), source=source or f"built-in data of casino.rules ({type(engine).__module__})")
            if created:
                published.append(version)
    return published


# ------------------------------------------------------------------------------------------ round check


def _paid(paid: Any, count: int) -> list[Decimal | None] | None:
    if paid is None:
        return None
    if not isinstance(paid, Sequence) or isinstance(paid, str) or len(paid) != count:
        raise engine_refusal(EngineError("paid", f"one amount (or null) per bet: {count}"))
    return [None if value in (None, "") else parse_money(value, f"paid[{i}]", allow_zero=True)
            for i, value in enumerate(paid)]


@transaction.atomic
def round_check(
    *, actor, venue: Any, rulebook: str, game: str, variant: str, bets: Any, outcome: Any, paid: Any = None,
    round_at: dt.datetime | None = None, request=None,
) -> RoundCheck:
    """Compute a recorded round with the rule version in force when it was played and record the
    check (who, when, the round, the answer, the version) with its audit event. `paid` is what was
    actually paid per bet (decimal strings, None where not known): the answer then gives each bet's
    and the round's difference (paid minus due: positive is overpaid). Bad input: InvalidInput with
    the field as the engine names it; nothing is recorded."""
    _engine(rulebook, game, variant)
    round_at = timezone.now() if round_at is None else _aware(round_at, "round_at")
    version = version_at(rulebook, game, variant, round_at)
    if version is None:
        raise InvalidInput(
            _("No rule version of %(game)s %(variant)s (rulebook %(rulebook)s) was in force at %(when)s."),
            fields={"variant": [_("No rule version in force at that time.")]}, code="no_rule_version",
            game=game, variant=variant, rulebook=rulebook,
            when=timezone.localtime(round_at).strftime("%Y-%m-%d %H:%M"))
    doc = {"kind": "round", "rulebook": rulebook, "venue": venue, "game": game, "variant": variant, "bets": bets,
           "outcome": outcome}
    try:
        answer = jsonio.round_json({**doc, "rules": version.rules})
        amounts = _paid(paid, len(answer["bets"]))
    except EngineError as exc:
        raise engine_refusal(exc) from None
    paid_total = difference = None
    if amounts is not None:
        paid_total = difference = Decimal("0.00")
        for bet, amount in zip(answer["bets"], amounts):
            if amount is None:
                continue
            bet["paid"] = money_str(amount)
            bet["difference"] = money_str(amount - Decimal(bet["payout"]))
            paid_total += amount
            difference += amount - Decimal(bet["payout"])
        answer["paid_total"] = money_str(paid_total)
        answer["difference"] = money_str(difference)
    check = RoundCheck.objects.create(
        checked_by=None if isinstance(actor, str) else actor,
        checked_by_name=actor if isinstance(actor, str) else actor.get_username(),
        rulebook=rulebook, game=game, variant=variant, round_at=round_at, rule_version=version,
        round_input={**doc, "paid": None if amounts is None else [None if a is None else money_str(a) for a in amounts]},
        answer=answer, total_return_cents=euros_to_cents(answer["total_return"]),
        paid_total_cents=euros_to_cents(paid_total), difference_cents=euros_to_cents(difference),
    )
    audit_record(actor=actor, action="casino.round_checked", obj=check, request=request,
                 significant=bool(difference),
                 data={"rule_version": version.pk, "rules_sha256": version.rules_sha256,
                       "round_at": round_at.isoformat(), "total_return": answer["total_return"],
                       "difference": answer.get("difference"),
                       "answer_sha256": versions.fingerprint(answer)})
    return check
