"""Casino fixtures: published rule versions."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

#: Version 1 of every published variant takes effect here (operator's zone).
V1_FROM = dt.datetime(2026, 1, 1)


@pytest.fixture
def published(db):
    """Every built-in variant published as version 1 from 2026-01-01 00:00 (Helsinki)."""
    from casino.services import publish_builtin_variants  # noqa: PLC0415  (Django is set up by now; see tests/conftest.py)

    return publish_builtin_variants(actor="system:test", effective_from=timezone.make_aware(V1_FROM))


@pytest.fixture
def publisher(make_staff):
    from compliance import roles  # noqa: PLC0415  (as above)

    return make_staff(roles.ADMINISTRATOR)


# --- jackpots (issue 19 item 3; tests/casino/test_jackpots*.py) ---------------------------------------

#: The jackpot's table and its first terms take effect here; rounds are played on JACKPOT_DAY.
JACKPOT_FROM = dt.datetime(2026, 3, 1)
JACKPOT_DAY = dt.date(2026, 3, 14)


@pytest.fixture
def uth_published(db):
    """Every built-in variant as version 1, Ultimate Texas Hold'em with the demo's progressive table."""
    from casino import demo_jackpots  # noqa: PLC0415  (as above)
    from casino.services import publish_builtin_variants  # noqa: PLC0415

    demo_jackpots.publish_instructions(type("Out", (), {"write": staticmethod(lambda text: None)}),
                                       timezone.make_aware(V1_FROM))
    return publish_builtin_variants(actor="system:test", effective_from=timezone.make_aware(V1_FROM))


@pytest.fixture
def helsinki(uth_published):
    from casino import operations  # noqa: PLC0415

    return operations.venue_create(actor="system:test", code="helsinki", name="Casino Helsinki", kind="casino",
                                   jurisdiction="FI")


@pytest.fixture
def uth_table(helsinki):
    from casino import operations  # noqa: PLC0415

    return operations.table_create(actor="system:test", venue=helsinki, code="uth1", game="ultimate_texas_holdem",
                                   variant="standard", min_stake_cents=100, max_stake_cents={},
                                   effective_from=timezone.make_aware(JACKPOT_FROM))


def jackpot_terms(**overrides):
    from decimal import Decimal  # noqa: PLC0415

    terms = {"name": "UTH Progressive", "kind": "progressive", "bet_type": "progressive",
             "participation_fee_cents": 100, "contribution_rate": Decimal("0.25"), "seed_cents": 1_000_000,
             "reset_cents": 1_000_000, "max_cents": None, "overflow": "held", "overflow_to": None,
             "max_win_cents": 50_000_000, "instructions": "Progressive: 1 € a box, 25 % to the pot."}
    return {**terms, **overrides}


@pytest.fixture
def progressive(uth_table):
    """A progressive jackpot on the UTH table: seed and reset 10,000 €, 25 % of a 1 € stake to the pot."""
    from casino import jackpots  # noqa: PLC0415

    return jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="uth-progressive",
                                   effective_from=timezone.make_aware(JACKPOT_FROM), tables=[uth_table],
                                   **jackpot_terms())
