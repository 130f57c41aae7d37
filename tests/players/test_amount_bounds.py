"""The player services refuse a money amount above MAX_AMOUNT_CENTS whoever calls them (API, pages,
jobs): an operator-set or channel-sent 9.2 × 10^18 cents never reaches the ledger (issue 14, item 8)."""

from __future__ import annotations

import pytest

from players import services
from players.errors import InvalidRequest
from players.models import LedgerEntry, LimitKind, LimitPeriod
from players.rules import MAX_AMOUNT_CENTS
from tests.factories import PlayerFactory


def test_a_prize_above_the_largest_amount_is_refused_and_changes_nothing(db):
    player = PlayerFactory()
    with pytest.raises(InvalidRequest, match="largest allowed"):
        services.account_prize(actor="system:tests", account=player.account, amount_cents=2**63 - 1,
                               reference="huge")
    assert not LedgerEntry.objects.filter(account=player.account).exists()


def test_a_limit_above_the_largest_amount_is_refused(db):
    player = PlayerFactory()
    with pytest.raises(InvalidRequest):
        services.limit_set(actor="system:tests", player=player, kind=LimitKind.DEPOSIT, period=LimitPeriod.DAY,
                           amount_cents=MAX_AMOUNT_CENTS + 1)
