"""Helpers for the players tests: players with funded accounts, Helsinki wall-clock times."""

from __future__ import annotations

import datetime as dt
import itertools
from zoneinfo import ZoneInfo

import pytest

HELSINKI = ZoneInfo("Europe/Helsinki")
ACTOR = "channel:test"
_refs = itertools.count(1)


def helsinki(text: str) -> dt.datetime:
    """helsinki("2026-01-15 23:50") -> that wall-clock time in Helsinki, as an aware datetime."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=HELSINKI)


def ref(prefix: str = "ref") -> str:
    return f"{prefix}-{next(_refs)}"


@pytest.fixture
def make_player(db):
    """make_player(balance_cents=0, **person fields) -> a player whose account was funded by deposits."""
    from players import services
    from tests.factories import PersonFactory, PlayerFactory

    def make(balance_cents: int = 0, now: dt.datetime | None = None, **person):
        player = PlayerFactory(person=PersonFactory(**person))
        remaining = balance_cents
        while remaining > 0:
            chunk = min(remaining, player.account.cap_cents)
            services.account_deposit(
                actor=ACTOR, account=player.account, amount_cents=chunk, reference=ref("fund"), now=now
            )
            remaining -= chunk
        player.account.refresh_from_db()
        return player

    return make


@pytest.fixture
def player(make_player):
    return make_player(balance_cents=100_00)


@pytest.fixture
def playing(player):
    """(player, open session) started just now."""
    from players import services

    return player, services.session_start(actor=ACTOR, player=player)
