"""Lottery writes. Each takes `actor=` and records its audit event in the same transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from compliance.audit import audit_record
from compliance.errors import InvalidInput, RuleRefused, StateConflict
from lottery.rules.rulesets import DEFAULT_RULESETS, GAMES, default_params

from ..check_tables import CellDifference, differences
from ..models import GAME_CHOICES, RuleSet

#: Cells listed in a refusal; the rest are counted.
REFUSAL_CELLS_SHOWN = 20


def params_fingerprint(params: dict[str, Any]) -> str:
    canonical = json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class RuleSetConflict(StateConflict, ValueError):
    """A version of that name exists with other parameters: versions are immutable."""

    code = "ruleset_conflict"


class RuleSetInvalid(InvalidInput, ValueError):
    """The parameters' structure differs from the game's digest version."""

    code = "ruleset_invalid"


class RuleSetRefused(RuleRefused, ValueError):
    """The rule version has tables the settlement's check computation does not have, or has
    differently (`lottery.check_tables`): every settlement under it would halt. ``differences``
    names the cells; the message (translated) names them and says what to do."""

    def __init__(self, game: str, version: str, cells: list[CellDifference]):
        self.game, self.version, self.differences = game, version, cells
        super().__init__(_check_tables_message_lazy(game, version, cells), code="ruleset_check_tables")


def check_tables_message(game: str, version: str, cells: list[CellDifference], *, published: bool = False) -> str:
    """Why a rule version cannot be settled: one line per differing cell (at most
    REFUSAL_CELLS_SHOWN), and what to do (``published``: the version is already published, e.g.
    before a release that changed a check table)."""
    name = dict(GAME_CHOICES).get(game, game)
    lines = [_("%(game)s rule version %(version)s: its tables differ from those of the settlement's check "
               "computation, so every settlement under it would halt.") % {"game": name, "version": version}]
    for d in cells[:REFUSAL_CELLS_SHOWN]:
        lines.append(_("%(game)s %(cell)s: rule set says %(ruleset)s, the check computation has %(check)s")
                     % {"game": name, "cell": d.cell, "ruleset": "—" if d.ruleset is None else d.ruleset,
                        "check": "—" if d.check is None else d.check})
    hidden = len(cells) - REFUSAL_CELLS_SHOWN
    if hidden > 0:
        lines.append(ngettext("… and %(count)d more cell", "… and %(count)d more cells", hidden) % {"count": hidden})
    if published:
        lines.append(_("“—” is no prize or no such cell. Ship a release whose check tables include them, then "
                       "run the settlement again."))
    else:
        lines.append(_("“—” is no prize or no such cell. Publish only tables the check computation knows, or "
                       "ship a release whose check tables include them, then publish the version again."))
    return "\n".join(lines)


_check_tables_message_lazy = lazy(check_tables_message, str)


def ruleset_check_tables(ruleset: RuleSet) -> list[CellDifference]:
    """The cells where a published version differs from the check computation of this release (a
    version published before a release that changed a check table)."""
    return differences(ruleset.game, ruleset.params)


@transaction.atomic
def ruleset_publish(
    *, actor, game: str, version: str, effective_from: dt.date, params: dict[str, Any], source: str = ""
) -> tuple[RuleSet, bool]:
    """Publish a rule version. Publishing the same version again with the same parameters does
    nothing (returns it, False); with different parameters it is refused. A version whose tables the
    settlement's check computation does not have, or has differently, is refused (`RuleSetRefused`,
    naming the cells): it could not be settled."""
    fingerprint = params_fingerprint(params)
    existing = RuleSet.objects.filter(game=game, version=version).first()
    if existing is not None:
        if existing.params_sha256 != fingerprint or existing.effective_from != effective_from:
            raise RuleSetConflict(
                gettext_lazy("%(game)s rule version %(version)s is already published with other parameters or "
                             "date; publish a new version instead."),
                game=game, version=version,
            )
        return existing, False
    _check_params_shape(game, params)
    cells = differences(game, params)
    if cells:
        raise RuleSetRefused(game, version, cells)
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
    if game not in GAMES:
        raise RuleSetInvalid(gettext_lazy("Unknown game %(game)s; one of %(games)s."),
                             game=game, games=", ".join(GAMES))

    def walk(reference: Any, candidate: Any, path: str) -> None:
        if isinstance(reference, dict):
            if not isinstance(candidate, dict):
                raise RuleSetInvalid(gettext_lazy("%(path)s must be an object"), path=path or "params")
            missing = sorted(set(reference) - set(candidate))
            unknown = sorted(set(candidate) - set(reference))
            if missing or unknown:
                raise RuleSetInvalid(gettext_lazy("%(path)s: missing %(missing)s, unknown %(unknown)s"),
                                     path=path or "params", missing=missing or "-", unknown=unknown or "-")
            for key in reference:
                walk(reference[key], candidate[key], f"{path}.{key}" if path else key)

    walk(default_params(game), params, "")


def load_default_rulesets(*, actor="system:load_rulesets") -> list[tuple[RuleSet, bool]]:
    """Publish every version of the digest that is not in the database yet (idempotent)."""
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
