"""Exclusion-registry look-ups behind one small interface, so that screening fails closed.

Each active `ExclusionRegistry` names its adapter class. An adapter answers "is this person on the
register now?" with True or False, or raises; screening treats any exception (including a missing
adapter) as `RegistryUnavailable`, which denies. The database adapter reads `ExclusionEntry` rows
(filled by imports and staff, compliance.registry_services); `LiveRegistryAdapter` is the base of
registers asked online, with a time-out and a logged call.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import urllib.request
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Q
from django.utils.module_loading import import_string

from .models import ExclusionEntry, ExclusionRegistry, RegistryCall


class RegistryUnavailable(Exception):
    """The registry could not answer; the look-up must be treated as a refusal."""


class RegistryAdapter:
    def lookup(self, person, *, registry: ExclusionRegistry, now: dt.datetime) -> bool:
        raise NotImplementedError


class DatabaseRegistryAdapter(RegistryAdapter):
    """Matches the person's identifier hash, or normalised name and birth date, against the
    registry's entries in force at `now`.

    One hand-written statement (it runs before every login, deposit and stake): the ORM's query
    building cost four times the query itself. Served by the indexes (registry, identifier_hash) and
    (registry, name_normalised, birth_date); see docs/compliance.md, Benchmark.
    """

    SQL = (
        "SELECT 1 FROM {table} WHERE registry_id = %s AND starts_at <= %s AND (ends_at IS NULL OR ends_at > %s) "
        "AND (identifier_hash = %s{by_name}) LIMIT 1"
    )

    def lookup(self, person, *, registry: ExclusionRegistry, now: dt.datetime) -> bool:
        ops = connection.ops
        at = ops.adapt_datetimefield_value(now)
        # "-" is never a hash: an empty one would match every name-only entry.
        params = [registry.pk, at, at, person.national_id_hash or "-"]
        by_name = ""
        if person.name_normalised and person.birth_date:
            by_name = " OR (name_normalised = %s AND birth_date = %s)"
            params += [person.name_normalised, ops.adapt_datefield_value(person.birth_date)]
        with connection.cursor() as cursor:
            cursor.execute(self.SQL.format(table=ExclusionEntry._meta.db_table, by_name=by_name), params)
            return cursor.fetchone() is not None


class LiveRegistryAdapter(RegistryAdapter):
    """Base of adapters that ask a register service online.

    Subclasses implement `query(person, registry=, now=, timeout=) -> bool`. Every call is logged as
    a `RegistryCall` (outcome, duration, error); an exception, or an answer that came later than the
    registry's `timeout_seconds`, raises `RegistryUnavailable`, which screening turns into a refusal
    (fail closed). The log rows are written by `check_registries` after the look-up's savepoint, so
    a failed call is logged too.
    """

    def __init__(self):
        self.calls: list[RegistryCall] = []

    def query(self, person, *, registry: ExclusionRegistry, now: dt.datetime, timeout: float) -> bool:
        raise NotImplementedError

    def lookup(self, person, *, registry: ExclusionRegistry, now: dt.datetime) -> bool:
        timeout = float(registry.timeout_seconds or 2.0)
        started = time.monotonic()
        error = ""
        hit = False
        try:
            hit = bool(self.query(person, registry=registry, now=now, timeout=timeout))
            if time.monotonic() - started > timeout:
                error = f"answer came after the {timeout:g} s time-out"
        except Exception as exc:  # noqa: BLE001  (any failure: the register did not answer)
            error = f"{type(exc).__name__}: {exc}"[:255]
        elapsed_ms = int((time.monotonic() - started) * 1000)
        self.calls.append(
            RegistryCall(
                registry=registry,
                created_at=now,
                identifier_hash=getattr(person, "national_id_hash", "") or "",
                duration_ms=elapsed_ms,
                outcome=RegistryCall.Outcome.ERROR if error else (
                    RegistryCall.Outcome.HIT if hit else RegistryCall.Outcome.CLEAR
                ),
                error=error,
            )
        )
        if error:
            raise RegistryUnavailable(error)
        return hit


class HttpJsonRegistryAdapter(LiveRegistryAdapter):
    """POSTs `{"identifier_hash", "name", "birth_date"}` as JSON to the registry's `endpoint` and
    expects `{"excluded": true|false}`. Anything else is an error (refusal)."""

    def query(self, person, *, registry, now, timeout):
        if not registry.endpoint:
            raise RegistryUnavailable("no service address configured")
        body = json.dumps(
            {
                "identifier_hash": person.national_id_hash,
                "name": person.name_normalised,
                "birth_date": person.birth_date.isoformat() if person.birth_date else None,
                "at": now.isoformat(),
            }
        ).encode()
        req = urllib.request.Request(
            registry.endpoint, data=body, headers={"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310  (address set by admins)
            answer = json.loads(resp.read(65536))
        if not isinstance(answer, dict) or not isinstance(answer.get("excluded"), bool):
            raise RegistryUnavailable("unexpected answer from the register service")
        return answer["excluded"]


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
        adapter = None
        try:
            adapter = import_string(registry.adapter)()
            with transaction.atomic():  # a savepoint: a failed query must not poison the caller's transaction
                hit = adapter.lookup(person, registry=registry, now=now)
            if hit:
                result.hits.append(registry)
        except Exception as exc:  # noqa: BLE001  (whatever went wrong, the registry did not answer)
            result.unavailable.append((registry, f"{type(exc).__name__}: {exc}"[:200]))
        calls = getattr(adapter, "calls", None)
        if calls:  # outside the savepoint, so that failed calls are logged as well
            RegistryCall.objects.bulk_create(calls)
    return result
