"""The game account as a ledger: idempotent references, the balance cap, pending bank payouts and
database constraints."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum

from compliance.models import AuditEvent, ScreeningDecision
from players import services
from players.errors import Conflict, InvalidRequest, Refused
from players.models import GameAccount, LedgerEntry, PendingPayout

from .conftest import ACTOR, ref


def _balance(player) -> int:
    return GameAccount.objects.get(player=player).balance_cents


def _ledger_sum(player) -> int:
    return LedgerEntry.objects.filter(account__player=player).aggregate(s=Sum("amount_cents"))["s"] or 0


def test_deposit_credits_the_balance(player):
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=25_50, reference="dep-1")
    assert _balance(player) == 125_50


def test_deposit_is_audited(player):
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=25_50, reference="dep-1")
    assert AuditEvent.objects.filter(action="players.deposit", after__reference="dep-1").exists()


def test_retried_deposit_with_the_same_reference_is_done_once(player):
    first = services.account_deposit(
        actor=ACTOR, account=player.account, amount_cents=10_00, reference="dep-1"
    )
    again = services.account_deposit(
        actor=ACTOR, account=player.account, amount_cents=10_00, reference="dep-1"
    )
    assert (again.entry.pk, again.replayed, _balance(player)) == (first.entry.pk, True, 110_00)


def test_same_reference_with_another_amount_is_a_conflict(player):
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=10_00, reference="dep-1")
    with pytest.raises(Conflict) as exc:
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=11_00, reference="dep-1")
    assert exc.value.code == "reference_conflict"


def test_same_reference_for_another_kind_is_a_conflict(playing):
    player, session = playing
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=10_00, reference="x-1")
    with pytest.raises(Conflict):
        services.account_stake(
            actor=ACTOR, account=player.account, amount_cents=10_00, reference="x-1", session=session
        )


def test_same_reference_on_another_account_is_another_event(make_player):
    a, b = make_player(), make_player()
    services.account_deposit(actor=ACTOR, account=a.account, amount_cents=10_00, reference="shared")
    services.account_deposit(actor=ACTOR, account=b.account, amount_cents=10_00, reference="shared")
    assert (_balance(a), _balance(b)) == (10_00, 10_00)


def test_deposit_over_the_cap_is_refused_stating_the_amount_still_allowed(make_player):
    player = make_player(balance_cents=19_200_00)  # example W22
    with pytest.raises(Refused) as exc:
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=1_000_00, reference=ref())
    assert (exc.value.code, exc.value.extra["allowed_cents"]) == ("balance_cap", 800_00)


def test_refused_deposit_changes_nothing(make_player):
    player = make_player(balance_cents=19_200_00)
    entries = LedgerEntry.objects.count()
    with pytest.raises(Refused):
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=1_000_00, reference=ref())
    assert (_balance(player), LedgerEntry.objects.count()) == (19_200_00, entries)


def test_refused_deposit_is_logged_as_a_denied_decision(make_player):
    player = make_player(balance_cents=19_200_00)
    with pytest.raises(Refused):
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=1_000_00, reference=ref())
    assert (
        ScreeningDecision.objects.filter(action="deposit", allowed=False, person=player.person).count() == 1
    )


def test_deposit_up_to_the_cap_exactly_is_allowed(make_player):
    player = make_player(balance_cents=19_200_00)
    services.account_deposit(actor=ACTOR, account=player.account, amount_cents=800_00, reference=ref())
    assert _balance(player) == 20_000_00


def test_prize_over_the_cap_goes_partly_to_a_pending_bank_payout(make_player):
    player = make_player(balance_cents=19_500_00)
    posting = services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=2_000_00, reference="win-1"
    )
    assert (_balance(player), posting.pending_payout.amount_cents) == (20_000_00, 1_500_00)


def test_prize_at_a_full_account_goes_wholly_to_a_pending_bank_payout(make_player):
    player = make_player(balance_cents=20_000_00)
    posting = services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=50_00, reference="win-1"
    )
    assert (posting.entry.amount_cents, posting.entry.diverted_cents, posting.pending_payout.status) == (
        0,
        50_00,
        "pending",
    )


def test_retried_prize_creates_no_second_payout(make_player):
    player = make_player(balance_cents=20_000_00)
    for _ in range(2):
        services.account_prize(
            actor="system:settlement", account=player.account, amount_cents=50_00, reference="win-1"
        )
    assert PendingPayout.objects.count() == 1


def test_retried_prize_that_was_diverted_matches_on_the_whole_amount(make_player):
    player = make_player(balance_cents=19_990_00)
    services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=50_00, reference="win-1"
    )
    assert services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=50_00, reference="win-1"
    ).replayed


def test_pending_payout_is_audited(make_player):
    player = make_player(balance_cents=20_000_00)
    services.account_prize(
        actor="system:settlement", account=player.account, amount_cents=50_00, reference="win-1"
    )
    assert AuditEvent.objects.filter(action="players.payout_pending").count() == 1


def test_refund_over_the_cap_is_diverted_like_a_prize(make_player):
    player = make_player(balance_cents=20_000_00)
    posting = services.account_refund(
        actor="system:lottery", account=player.account, amount_cents=3_00, reference="ref-1"
    )
    assert posting.pending_payout.amount_cents == 3_00


def test_payout_is_marked_paid_with_the_bank_reference(make_player):
    player = make_player(balance_cents=20_000_00)
    payout = services.account_prize(
        actor="system:s", account=player.account, amount_cents=50_00, reference="w"
    ).pending_payout
    services.payout_mark_paid(actor="system:bank", payout=payout, bank_reference="BANK-123")
    payout.refresh_from_db()
    assert (payout.status, payout.bank_reference) == ("paid", "BANK-123")


def test_payout_cannot_be_paid_twice(make_player):
    player = make_player(balance_cents=20_000_00)
    payout = services.account_prize(
        actor="system:s", account=player.account, amount_cents=50_00, reference="w"
    ).pending_payout
    services.payout_mark_paid(actor="system:bank", payout=payout, bank_reference="BANK-123")
    with pytest.raises(Conflict):
        services.payout_mark_paid(actor="system:bank", payout=payout, bank_reference="BANK-124")


def test_withdrawal_above_the_balance_is_refused_with_the_available_amount(player):
    with pytest.raises(Refused) as exc:
        services.account_withdraw(actor=ACTOR, account=player.account, amount_cents=100_01, reference=ref())
    assert (exc.value.code, exc.value.extra["available_cents"]) == ("insufficient_funds", 100_00)


def test_withdrawal_debits_the_balance(player):
    services.account_withdraw(actor=ACTOR, account=player.account, amount_cents=40_00, reference=ref())
    assert _balance(player) == 60_00


def test_stake_above_the_balance_is_refused(playing):
    player, session = playing
    with pytest.raises(Refused) as exc:
        services.account_stake(
            actor=ACTOR, account=player.account, amount_cents=200_00, reference=ref(), session=session
        )
    assert exc.value.code == "insufficient_funds"


def test_stake_needs_a_session_of_the_same_player(playing, make_player):
    _, other_session = playing
    player = make_player(balance_cents=10_00)
    with pytest.raises(Refused) as exc:
        services.account_stake(
            actor=ACTOR, account=player.account, amount_cents=1_00, reference=ref(), session=other_session
        )
    assert exc.value.code == "no_session"


def test_ledger_sums_to_the_balance_after_mixed_movements(playing, make_player):
    player, session = playing
    account = player.account
    services.account_stake(actor=ACTOR, account=account, amount_cents=30_00, reference=ref(), session=session)
    services.account_prize(actor=ACTOR, account=account, amount_cents=12_50, reference=ref(), session=session)
    services.account_withdraw(actor=ACTOR, account=account, amount_cents=20_00, reference=ref())
    services.account_adjust(
        actor="system:fix", account=account, amount_cents=-1_00, reference=ref(), note="correction"
    )
    assert _ledger_sum(player) == _balance(player) == 61_50


def test_each_entry_records_the_balance_after_it(player):
    services.account_withdraw(actor=ACTOR, account=player.account, amount_cents=40_00, reference="w-1")
    assert LedgerEntry.objects.get(reference="w-1").balance_after_cents == 60_00


def test_adjustment_needs_a_reason(player):
    with pytest.raises(InvalidRequest):
        services.account_adjust(
            actor="system:fix", account=player.account, amount_cents=5_00, reference=ref(), note=" "
        )


def test_adjustment_below_zero_is_refused(player):
    with pytest.raises(Refused) as exc:
        services.account_adjust(
            actor="system:fix", account=player.account, amount_cents=-100_01, reference=ref(), note="x"
        )
    assert exc.value.code == "adjustment_out_of_range"


def test_adjustment_is_a_significant_audit_event(player):
    services.account_adjust(
        actor="system:fix", account=player.account, amount_cents=5_00, reference=ref(), note="goodwill"
    )
    assert AuditEvent.objects.filter(action="players.adjustment", significant=True).exists()


@pytest.mark.parametrize("amount", [0, -5, 1.5])
def test_amount_must_be_positive_whole_cents(player, amount):
    with pytest.raises(InvalidRequest):
        services.account_deposit(actor=ACTOR, account=player.account, amount_cents=amount, reference=ref())


def test_database_refuses_a_negative_balance(player):
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAccount.objects.filter(pk=player.account.pk).update(balance_cents=-1)


def test_database_refuses_a_balance_above_the_cap(player):
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAccount.objects.filter(pk=player.account.pk).update(balance_cents=20_000_01)


def test_database_refuses_a_second_entry_with_the_same_reference(player):
    entry = LedgerEntry.objects.filter(account=player.account).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            account=player.account,
            kind="deposit",
            amount_cents=1,
            balance_after_cents=1,
            reference=entry.reference,
            actor_repr="x",
        )


def test_database_refuses_a_stake_with_a_positive_amount(player):
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            account=player.account,
            kind="stake",
            amount_cents=5,
            balance_after_cents=5,
            reference="bad",
            actor_repr="x",
        )
