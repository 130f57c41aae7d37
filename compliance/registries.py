"""Exclusion-registry look-ups behind one small interface, so that screening fails closed.

Each active `ExclusionRegistry` names its adapter class. An adapter answers "is this person on the
register now?" with True or False, or raises; screening treats any exception (including a missing
adapter) as `RegistryUnavailable`, which denies. The database adapter reads `ExclusionEntry` rows;
the compliance issue adds the imports that fill them and adapters for registers queried online.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.module_loading import import_string

from .models import ExclusionEntry, ExclusionRegistry


class RegistryUnavailable(Exception):
    """The registry could not answer; the look-up must be treated as a refusal."""


class RegistryAdapter:
    def lookup(self, person, *, registry: ExclusionRegistry, now: dt.datetime) -> bool:
        raise NotImplementedError


class DatabaseRegistryAdapter(RegistryAdapter):
    """Matches the person's identifier hash, or normalised name and birth date, against the
    registry's entries in force at `now`."""

    def lookup(self, person, *, registry: ExclusionRegistry, now: dt.datetime) -> bool:
        match = Q(identifier_hash=person.national_id_hash)
        if person.name_normalised and person.birth_date:
            match |= Q(name_normalised=person.name_normalised, birth_date=person.birth_date)
        return (
            ExclusionEntry.objects.filter(registry=registry, starts_at__lte=now)
            .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
            .filter(match)
            .exists()
        )


@dataclass
class RegistryResult:
    hits: list[ExclusionRegistry] = field(default_factory=list)
    unavailable: list[tuple[ExclusionRegistry, str]] = field(default_factory=list)


def registries_for(person) -> list[ExclusionRegistry]:
    return list(
        ExclusionRegistry.objects.filter(active=True)
        .filter(Q(jurisdiction="") | Q(jurisdiction=person.jurisdiction))
        .order_by("pk")
    )


def check_registries(person, now: dt.datetime) -> RegistryResult:
    """Ask every registry that applies to the person; never raises."""
    result = RegistryResult()
    for registry in registries_for(person):
        try:
            adapter = import_string(registry.adapter)()
            with transaction.atomic():  # a savepoint: a failed query must not poison the caller's transaction
                hit = adapter.lookup(person, registry=registry, now=now)
            if hit:
                result.hits.append(registry)
        except Exception as exc:  # noqa: BLE001  (whatever went wrong, the registry did not answer)
            result.unavailable.append((registry, f"{type(exc).__name__}: {exc}"[:200]))
    return result
