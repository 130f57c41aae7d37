"""Lottery writes. Each takes `actor=` and records its audit event in the same transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.db import transaction

from compliance.audit import audit_record

from ..models import RuleSet


def params_fingerprint(params: dict[str, Any]) -> str:
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class RuleSetConflict(ValueError):
    """A version of that name exists with other parameters: versions are immutable."""


@transaction.atomic
def ruleset_publish(
    *, actor, game: str, version: str, effective_from: dt.date, params: dict[str, Any], source: str = ""
) -> tuple[RuleSet, bool]:
    """Publish a rule version. Publishing the same version again with the same parameters does
    nothing (returns it, False); with different parameters it is refused."""
    fingerprint = params_fingerprint(params)
    existing = RuleSet.objects.filter(game=game, version=version).first()
    if existing is not None:
        if existing.params_sha256 != fingerprint or existing.effective_from != effective_from:
            raise RuleSetConflict(
                f"{game} rule version {version} is already published with other parameters or date; "
                "publish a new version instead."
            )
        return existing, False
    _check_params_shape(game, params)
    ruleset = RuleSet.objects.create(
        game=game,
        version=version,
        effective_from=effective_from,
        params=params,
        params_sha256=fingerprint,
        source=source,
        created_by=actor if isinstance(actor, str) else actor.get_username(),
    )
    audit_record(
        actor=actor,
        action="lottery.ruleset_published",
        obj=ruleset,
        after={"game": game, "version": version, "effective_from": effective_from, "params_sha256": fingerprint},
        significant=True,
    )
    return ruleset, True


def _check_params_shape(game: str, params: dict[str, Any]) -> None:
    """Refuse parameters whose structure differs from the game's digest version (a missing or
    misspelt key would otherwise only show up in a settlement)."""
    from lottery.rules.rulesets import GAMES, default_params

    if game not in GAMES:
        raise ValueError(f"Unknown game {game!r}; one of {', '.join(GAMES)}.")

    def walk(reference: Any, candidate: Any, path: str) -> None:
        if isinstance(reference, dict):
            if not isinstance(candidate, dict):
                raise ValueError(f"{path or 'params'} must be an object")
            missing = sorted(set(reference) - set(candidate))
            unknown = sorted(set(candidate) - set(reference))
            if missing or unknown:
                raise ValueError(f"{path or 'params'}: missing {missing or '-'}, unknown {unknown or '-'}")
            for key in reference:
                walk(reference[key], candidate[key], f"{path}.{key}" if path else key)

    walk(default_params(game), params, "")


def load_default_rulesets(*, actor="system:load_rulesets") -> list[tuple[RuleSet, bool]]:
    """Publish every version of the digest that is not in the database yet (idempotent)."""
    from lottery.rules.rulesets import DEFAULT_RULESETS

    return [
        ruleset_publish(
            actor=actor,
            game=r["game"],
            version=r["version"],
            effective_from=dt.date.fromisoformat(r["effective_from"]),
            params=r["params"],
            source="shared/spec/000-lottery.md (digest of the Veikkaus rules)",
        )
        for r in DEFAULT_RULESETS
    ]
