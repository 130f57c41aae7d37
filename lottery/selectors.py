"""Lottery reads shared by pages, commands and the API."""

from __future__ import annotations

import datetime as dt

from .models import RuleSet


def ruleset_effective(game: str, on: dt.date) -> RuleSet | None:
    """The version in force on a date: the latest effective_from on or before it."""
    return RuleSet.objects.filter(game=game, effective_from__lte=on).order_by("-effective_from").first()


def ruleset_for_round(game: str, version: str | None, on: dt.date) -> RuleSet:
    if version:
        found = RuleSet.objects.filter(game=game, version=version).first()
        if found is None:
            raise RuleSet.DoesNotExist(f"{game} has no rule version {version!r}")
        return found
    found = ruleset_effective(game, on)
    if found is None:
        raise RuleSet.DoesNotExist(f"{game} has no rule version in force on {on:%Y-%m-%d}")
    return found


def prize_calculation(data: dict, *, version: str | None = None, on: dt.date | None = None) -> tuple[RuleSet, dict]:
    """Compute one round (the `calculate_prizes` JSON format) with the rule version named by
    `version`, else the round's `rules_version`, else the one in force on `on` (default today).

    Raises `lottery.rules.errors.RulesError` (a `RoundInputError` names the field) or
    `RuleSet.DoesNotExist`. The result names the version used.
    """
    from django.utils import timezone

    from .rules.errors import RoundInputError
    from .rules.jsonio import calculate_round
    from .rules.rulesets import GAMES

    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RoundInputError("game", f"unknown game {game!r}; one of {', '.join(GAMES)}")
    ruleset = ruleset_for_round(game, version or data.get("rules_version"), on or timezone.localdate())
    result = calculate_round({**data, "rules_version": ruleset.version}, ruleset.params)
    result["rules_version"] = ruleset.version
    return ruleset, result
