"""Jackpots (issue 19 item 3, 000-casino §2.6): accrual from verified rounds, wins inside the win cap,
the end-of-day posting, removal, large wins for a second person, corrections (docs/casino-operations.md,
"Jackpots")."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino import jackpots, operations, verification
from casino.models import (
    Discrepancy,
    Jackpot,
    JackpotAccrual,
    JackpotDay,
    JackpotEntry,
    RoundBatch,
    RoundVerification,
)
from compliance import roles
from compliance.approvals import FourEyesError, approval_decide
from compliance.errors import InvalidInput, StateConflict
from compliance.models import Approval, AuditEvent
from tests.casino.conftest import JACKPOT_DAY, JACKPOT_FROM, jackpot_terms
from tests.casino.jackpot_rounds import FLUSH, NOTHING, ROYAL, STRAIGHT_FLUSH, played, record, uth_round

NEXT = JACKPOT_DAY + dt.timedelta(days=1)


def _post(j, day=JACKPOT_DAY):
    """Post every day of the jackpot up to `day` (the days before it hold its seed)."""
    result = None
    j.refresh_from_db()
    for _d in range((day - jackpots.next_day(j)).days + 1):
        result = jackpots.jackpot_post_day(jackpot=j, day=jackpots.next_day(Jackpot.objects.get(pk=j.pk)))
    return result


def _balance(j) -> int:
    j.refresh_from_db()
    return j.balance_cents


# --- accrual from verified rounds ----------------------------------------------------------------


def test_each_progressive_stake_of_a_verified_round_accrues_its_contribution(progressive, uth_table):
    record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i)) for i in range(4)])
    accruals = JackpotAccrual.objects.filter(jackpot=progressive)
    assert [(a.stake_cents, a.contribution_cents, a.win_cents) for a in accruals] == [(100, 25, 0)] * 4


def test_the_contribution_is_rounded_down_to_the_cent_once():
    from casino.rules.jackpot_ledger import contribution_cents

    assert (contribution_cents(100, Decimal("0.025")), contribution_cents(700, Decimal("0.333333"))) == (2, 233)


def test_a_round_at_a_table_of_no_jackpot_accrues_nothing(progressive, helsinki):
    other = operations.table_create(actor="system:test", venue=helsinki, code="uth2", game="ultimate_texas_holdem",
                                    variant="standard", min_stake_cents=100, max_stake_cents={},
                                    effective_from=timezone.make_aware(JACKPOT_FROM))
    record([uth_round(other, "r1", played(JACKPOT_DAY, 1))])
    assert not JackpotAccrual.objects.exists()


def test_a_second_run_of_the_verification_accrues_nothing_twice(progressive, uth_table):
    batch = record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i)) for i in range(3)])
    RoundBatch.objects.filter(pk=batch.pk).update(state=RoundBatch.State.VERIFYING)  # as if the job ran again
    verification.verify_batch(batch.pk)
    assert JackpotAccrual.objects.count() == 3


def test_a_killed_verification_resumes_and_accrues_each_bet_once(progressive, uth_table, monkeypatch):
    batch = record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i)) for i in range(5)], verify=False)
    monkeypatch.setattr(verification, "CHUNK", 2)
    real, calls = verification._verify_chunk, {"n": 0}

    def dies_on_the_second_chunk(*args):
        calls["n"] += 1
        if calls["n"] == 2:
            raise SystemExit("worker killed")
        return real(*args)

    monkeypatch.setattr(verification, "_verify_chunk", dies_on_the_second_chunk)
    with pytest.raises(SystemExit):
        verification.verify_batch(batch.pk)
    monkeypatch.setattr(verification, "_verify_chunk", real)
    verification.verify_batch(batch.pk)
    assert sorted(JackpotAccrual.objects.values_list("round__ref", flat=True)) == [f"r{i}" for i in range(5)]


def test_a_progressive_win_is_what_the_engine_says_was_due(progressive, uth_table):
    record([uth_round(uth_table, "sf", played(JACKPOT_DAY, 1), STRAIGHT_FLUSH, pot_cents=1_234_500)])
    assert JackpotAccrual.objects.get().win_cents == 123_450  # 10 % of the pot shown


def test_a_jackpot_win_is_cut_first_when_the_round_meets_the_tables_win_cap(progressive, uth_table):
    operations.table_version_create(actor="system:test", table=uth_table, variant="standard", min_stake_cents=100,
                                    max_stake_cents={}, win_cap_cents=1_500_000,
                                    effective_from=timezone.make_aware(dt.datetime(2026, 3, 10)))
    # The royal flush wins the whole pot shown, 20,000 €, against the table's cap of 15,000 €: the
    # jackpot pays what the engine says was due inside the cap (000-casino §2.3, Ambiguity 10, E16).
    record([uth_round(uth_table, "royal", played(JACKPOT_DAY, 1), ROYAL, pot_cents=2_000_000)])
    assert JackpotAccrual.objects.get().win_cents == 1_500_000


def test_a_stake_other_than_the_set_fee_is_a_discrepancy(progressive, uth_table):
    record([uth_round(uth_table, "r1", played(JACKPOT_DAY, 1), progressive="2.00")])
    d = Discrepancy.objects.get()
    assert (d.kind, d.bet_index, "differs from the set fee 1.00" in d.detail) == ("not_allowed", 2, True)


def test_a_round_with_a_jackpot_finding_is_not_verified_ok(progressive, uth_table):
    record([uth_round(uth_table, "r1", played(JACKPOT_DAY, 1), progressive="2.00")])
    assert RoundVerification.objects.get().ok is False


def test_a_win_above_the_maximum_permitted_win_is_a_discrepancy(uth_table):
    jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="small",
                            effective_from=timezone.make_aware(JACKPOT_FROM), tables=[uth_table],
                            **jackpot_terms(max_win_cents=100_000))
    record([uth_round(uth_table, "sf", played(JACKPOT_DAY, 1), STRAIGHT_FLUSH, pot_cents=2_000_000)])
    assert Discrepancy.objects.get().kind == Discrepancy.Kind.JACKPOT


# --- the end-of-day posting ------------------------------------------------------------------------


def test_the_day_posts_contributions_the_win_and_the_reset_in_the_order_played(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1)),
            uth_round(uth_table, "b", played(JACKPOT_DAY, 2), pot_cents=1_000_025),
            uth_round(uth_table, "royal", played(JACKPOT_DAY, 3), ROYAL, pot_cents=1_000_050),
            uth_round(uth_table, "c", played(JACKPOT_DAY, 4))])
    _post(progressive)
    lines = list(progressive.entries.filter(day=JACKPOT_DAY).values_list("kind", "amount_cents", "pot_after_cents"))
    assert lines == [("contribution", 50, 1_000_050), ("win", -1_000_050, 0), ("reset", 1_000_000, 1_000_000),
                     ("contribution", 50, 1_000_050)]


def test_a_posted_day_balances_seed_plus_contributions_minus_wins(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1)),
            uth_round(uth_table, "sf", played(JACKPOT_DAY, 2), STRAIGHT_FLUSH, pot_cents=1_000_025)])
    posting = _post(progressive).posted
    figures = (posting.funded_cents, posting.contributions_cents, posting.wins_cents, posting.closing_cents)
    # 10 % of 10,000.25 € is 1,000.02 €; the pot is then brought back to its reset amount, 10,000 €,
    # and the winning round's own contribution goes in after its win.
    assert figures == (100_002 - 25, 50, 100_002, 1_000_000 + 25)
    assert jackpots.ledger_problems(progressive) == []


def test_posting_a_day_twice_posts_nothing_twice(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    first = _post(progressive)
    again = jackpots.jackpot_post_day(jackpot=progressive, day=JACKPOT_DAY)
    assert (again.posted.pk, again.new, JackpotEntry.objects.filter(kind="contribution").count()) == (
        first.posted.pk, False, 1)


def test_the_days_of_a_jackpot_are_posted_in_order(progressive):
    with pytest.raises(StateConflict):
        jackpots.jackpot_post_day(jackpot=progressive, day=JACKPOT_DAY)


def test_a_day_that_is_not_over_is_not_posted(progressive):
    today = timezone.localdate()
    with pytest.raises(StateConflict):
        jackpots.jackpot_post_day(jackpot=progressive, day=today)


def test_the_beat_job_posts_every_day_that_is_over_once(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    first = jackpots.post_due_days()
    again = jackpots.post_due_days()
    days = (timezone.localdate() - timezone.localtime(timezone.make_aware(JACKPOT_FROM)).date()).days
    expected = days if timezone.localtime().hour >= jackpots.POSTING_HOUR else days - 1
    assert (first["posted"], again["posted"], progressive.days.count()) == (expected, 0, expected)


def test_the_posting_waits_for_rounds_of_the_day_still_being_verified(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))], verify=False)
    result = _post(progressive)
    assert (result.posted, str(result.waiting)) == (None, "rounds of the day are still being verified")


def test_a_late_round_is_posted_with_the_next_day(progressive, uth_table):
    _post(progressive)
    record([uth_round(uth_table, "late", played(JACKPOT_DAY, 1))])
    posting = _post(progressive, NEXT).posted
    assert (posting.day, posting.late, posting.contributions_cents) == (NEXT, 1, 25)


def test_a_pot_shown_that_differs_from_the_ledger_is_a_jackpot_discrepancy(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1)),
            uth_round(uth_table, "b", played(JACKPOT_DAY, 2), pot_cents=1_000_000)])  # the ledger has 10,000.25
    posting = _post(progressive).posted
    d = Discrepancy.objects.get()
    assert (posting.mismatches, d.kind, d.round.ref) == (1, "jackpot", "b")
    assert "the pot shown 10000.00 differs from the ledger's 10000.25" in d.detail


def test_a_mismatched_pot_still_pays_what_the_engine_said_was_due(progressive, uth_table):
    record([uth_round(uth_table, "sf", played(JACKPOT_DAY, 1), STRAIGHT_FLUSH, pot_cents=2_000_000)])
    _post(progressive)
    win = progressive.entries.get(kind="win")
    assert (win.amount_cents, progressive.entries.filter(kind="reset", reason="cover").exists()) == (-200_000, False)


def test_a_win_larger_than_the_pot_is_covered_by_the_operator_first(progressive, uth_table):
    record([uth_round(uth_table, "royal", played(JACKPOT_DAY, 1), ROYAL, pot_cents=1_500_000)])
    _post(progressive)
    kinds = list(progressive.entries.filter(day=JACKPOT_DAY).values_list("kind", "reason", "amount_cents"))
    assert kinds == [("reset", "cover", 500_000), ("win", "", -1_500_000), ("reset", "reset", 1_000_000),
                     ("contribution", "", 25)]


def test_contributions_above_the_maximum_are_held(uth_table):
    j = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="capped",
                                effective_from=timezone.make_aware(JACKPOT_FROM), tables=[uth_table],
                                **jackpot_terms(max_cents=1_000_030))
    record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i), pot_cents=1_000_000 + 25 * i) for i in range(2)])
    _post(j)
    j.refresh_from_db()
    assert (j.pot_cents, j.held_cents) == (1_000_030, 20)


def test_contributions_above_the_maximum_go_to_the_next_pot(uth_table):
    other = operations.table_create(actor="system:test", venue=uth_table.venue, code="uth9",
                                    game="ultimate_texas_holdem", variant="standard", min_stake_cents=100,
                                    max_stake_cents={}, effective_from=timezone.make_aware(JACKPOT_FROM))
    nxt = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="next",
                                  effective_from=timezone.make_aware(JACKPOT_FROM), tables=[other],
                                  **jackpot_terms(seed_cents=0, reset_cents=0))
    j = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="capped",
                                effective_from=timezone.make_aware(JACKPOT_FROM), tables=[uth_table],
                                **jackpot_terms(max_cents=1_000_030, overflow="next_pot", overflow_to=nxt))
    record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i), pot_cents=1_000_000 + 25 * i) for i in range(2)])
    _post(j)
    nxt.refresh_from_db()
    assert (_balance(j), nxt.pot_cents, jackpots.ledger_problems(j), jackpots.ledger_problems(nxt)) == (
        1_000_030, 20, [], [])


def test_the_day_row_refuses_figures_that_do_not_balance(progressive):
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotDay.objects.create(jackpot=progressive, day=JACKPOT_DAY, opening_cents=0, funded_cents=100,
                                  contributions_cents=0, wins_cents=0, transfers_cents=0, closing_cents=99,
                                  posted_by_name="test")


def test_a_ledger_line_may_not_take_the_pot_below_zero(progressive):
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotEntry.objects.create(jackpot=progressive, seq=99, kind="win", day=JACKPOT_DAY, amount_cents=-1,
                                    pot_after_cents=-1, held_after_cents=0, created_by_name="test")


def test_a_seed_line_may_not_take_money_out(progressive):
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotEntry.objects.create(jackpot=progressive, seq=99, kind="seed", day=JACKPOT_DAY, amount_cents=-5,
                                    pot_after_cents=0, held_after_cents=0, created_by_name="test")


def test_the_check_finds_a_ledger_line_that_does_not_follow(progressive):
    JackpotEntry.objects.create(jackpot=progressive, seq=2, kind="contribution", day=JACKPOT_DAY, amount_cents=10,
                                pot_after_cents=5, held_after_cents=0, created_by_name="test")
    assert jackpots.ledger_problems(progressive) != []


# --- terms and versions ----------------------------------------------------------------------------


def test_a_maximum_win_above_the_venues_cap_is_refused_beside_the_field(uth_table):
    with pytest.raises(InvalidInput) as refused:
        jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="big", tables=[uth_table],
                                **jackpot_terms(max_win_cents=500_000_001))
    assert list(refused.value.fields) == ["max_win"]


def test_a_table_already_in_another_jackpot_is_refused(progressive, uth_table):
    with pytest.raises(InvalidInput) as refused:
        jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="second", tables=[uth_table],
                                **jackpot_terms())
    assert "helsinki/uth1" in str(refused.value.fields["tables"][0])


def test_new_terms_are_a_new_version_and_the_old_one_stays(progressive, uth_table):
    jackpots.jackpot_version_create(actor="system:test", jackpot=progressive, tables=[uth_table],
                                    **jackpot_terms(contribution_rate=Decimal("0.3")))
    assert list(progressive.versions.order_by("version").values_list("contribution_rate", flat=True)) == [
        Decimal("0.25"), Decimal("0.3")]


def test_new_terms_may_not_take_effect_in_the_past(progressive, uth_table):
    with pytest.raises(StateConflict):
        jackpots.jackpot_version_create(actor="system:test", jackpot=progressive, tables=[uth_table],
                                        effective_from=timezone.now() - dt.timedelta(days=1), **jackpot_terms())


def test_creating_a_jackpot_is_an_audited_significant_event_with_its_seed(progressive):
    event = AuditEvent.objects.get(action="casino.jackpot_created")
    assert (event.significant, progressive.entries.get().kind, _balance(progressive)) == (True, "seed", 1_000_000)


# --- removal from play ------------------------------------------------------------------------------


def test_removal_sends_the_balance_to_the_unpaid_funds_account(progressive):
    jackpots.jackpot_remove(actor="system:test", jackpot=progressive, destination="unpaid_funds", note="closed")
    line = progressive.entries.get(kind="transfer")
    assert (line.amount_cents, line.destination, _balance(progressive), jackpots.ledger_problems(progressive)) == (
        -1_000_000, "unpaid_funds", 0, [])


def test_removal_to_another_jackpot_moves_the_balance_there(progressive, uth_table):
    other = operations.table_create(actor="system:test", venue=uth_table.venue, code="uth9",
                                    game="ultimate_texas_holdem", variant="standard", min_stake_cents=100,
                                    max_stake_cents={}, effective_from=timezone.make_aware(JACKPOT_FROM))
    heir = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="heir", tables=[other],
                                   effective_from=timezone.make_aware(JACKPOT_FROM), **jackpot_terms(seed_cents=0))
    jackpots.jackpot_remove(actor="system:test", jackpot=progressive, destination="jackpot", to=heir, note="merged")
    assert (_balance(progressive), _balance(heir), heir.entries.get().counterpart_id) == (0, 1_000_000, progressive.pk)


def test_removal_without_a_destination_jackpot_is_refused_beside_the_field(progressive):
    with pytest.raises(InvalidInput) as refused:
        jackpots.jackpot_remove(actor="system:test", jackpot=progressive, destination="jackpot", note="x")
    assert list(refused.value.fields) == ["to"]


def test_what_rounds_before_the_removal_accrue_is_posted_and_sent_on(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1))])
    jackpots.jackpot_remove(actor="system:test", jackpot=progressive, destination="unpaid_funds", note="closed")
    jackpots.post_due_days()
    sent = progressive.entries.filter(kind="transfer").aggregate(s=Sum("amount_cents"))["s"]
    assert (_balance(progressive), sent, jackpots.ledger_problems(progressive)) == (0, -1_000_025, [])


def test_a_round_after_the_removal_accrues_nothing(progressive, uth_table):
    jackpots.jackpot_remove(actor="system:test", jackpot=progressive, destination="unpaid_funds", note="closed")
    record([uth_round(uth_table, "after", timezone.now())])
    assert not JackpotAccrual.objects.exists()


# --- a large win needs a second person ----------------------------------------------------------------


@pytest.fixture
def large_win(progressive, uth_table, make_staff, settings):
    settings.CASINO_JACKPOT_LARGE_WIN_CENTS = {"casino": 100_000}
    recorder = make_staff(roles.ADMINISTRATOR)
    record([uth_round(uth_table, "sf", played(JACKPOT_DAY, 1), STRAIGHT_FLUSH, pot_cents=1_000_000)], actor=recorder)
    return recorder, Approval.objects.get(kind=jackpots.WIN_KIND)


def test_a_large_win_is_held_for_a_second_person(large_win):
    _recorder, approval = large_win
    accrual = JackpotAccrual.objects.get()
    assert (accrual.win_state, approval.state, approval.target_id) == ("held", "requested", str(accrual.pk))


def test_the_day_of_a_held_large_win_waits(large_win, progressive):
    result = _post(progressive)
    assert (result.posted, str(result.waiting)) == (None, "a large win awaits a second person's approval")


def test_the_administrator_who_recorded_the_round_may_not_approve_its_large_win(large_win):
    recorder, approval = large_win
    with pytest.raises(FourEyesError):
        approval_decide(actor=recorder, approval=approval, approve=True)
    assert JackpotAccrual.objects.get().win_state == "held"


def test_another_compliance_officer_approves_the_large_win_and_the_day_posts(large_win, progressive, make_staff):
    _recorder, approval = large_win
    approval_decide(actor=make_staff(roles.COMPLIANCE_OFFICER), approval=approval, approve=True)
    posting = _post(progressive).posted
    assert (JackpotAccrual.objects.get().win_state, posting.wins_cents) == ("approved", 100_000)


def test_a_large_win_is_not_rejected(large_win, make_staff):
    _recorder, approval = large_win
    with pytest.raises(Exception, match="not rejected"):
        approval_decide(actor=make_staff(roles.COMPLIANCE_OFFICER), approval=approval, approve=False)


def test_a_casino_manager_may_not_decide_a_large_win(large_win, make_staff):
    _recorder, approval = large_win
    with pytest.raises(FourEyesError):
        approval_decide(actor=make_staff(roles.CASINO_MANAGER), approval=approval, approve=True)


# --- corrections ------------------------------------------------------------------------------------------


def test_a_correction_before_the_posting_replaces_the_rounds_accrual(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1), FLUSH)])
    record([uth_round(uth_table, "a-fix", played(JACKPOT_DAY, 1), NOTHING, corrects="a")])
    _post(progressive)
    assert (progressive.entries.filter(kind="win").count(), _balance(progressive)) == (0, 1_000_025)


def test_a_correction_after_the_posting_reverses_what_was_posted(progressive, uth_table):
    record([uth_round(uth_table, "a", played(JACKPOT_DAY, 1), FLUSH)])
    _post(progressive)
    record([uth_round(uth_table, "a-fix", played(JACKPOT_DAY, 1), NOTHING, corrects="a")])
    _post(progressive, NEXT)
    # The 50 € win goes back into the pot; the reset the operator paid in after it stays there.
    lines = list(progressive.entries.filter(day=NEXT).values_list("kind", "amount_cents"))
    assert (lines, _balance(progressive), jackpots.ledger_problems(progressive)) == (
        [("win", 5_000)], 1_005_025, [])


def test_a_correction_voids_the_pending_large_win_request(large_win, uth_table):
    record([uth_round(uth_table, "sf-fix", played(JACKPOT_DAY, 1), NOTHING, corrects="sf")])
    assert Approval.objects.get(kind=jackpots.WIN_KIND).state == Approval.State.CANCELLED


def test_the_posting_is_a_beat_job_registered_after_migrate(db):
    from django_celery_beat.models import PeriodicTask

    from compliance.schedules import sync_schedules

    sync_schedules()
    assert PeriodicTask.objects.filter(task="casino.tasks.post_jackpot_days", crontab__minute="20").exists()


def test_the_beat_task_posts_through_the_service(progressive):
    from casino.tasks import post_jackpot_days

    assert post_jackpot_days.apply().get()["posted"] == progressive.days.count() > 0


# --- the ledger balances whatever happens (hypothesis, through the services) --------------------------

DEALS = {"nothing": NOTHING, "flush": FLUSH, "straight_flush": STRAIGHT_FLUSH, "royal": ROYAL}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rounds=st.lists(st.tuples(st.sampled_from(sorted(DEALS)), st.integers(0, 3_000_000)), min_size=1, max_size=6),
       cap=st.one_of(st.none(), st.integers(1_000_000, 1_000_200)), removal=st.sampled_from(["", "before", "after"]),
       corrected=st.booleans())
def test_whatever_the_rounds_the_ledger_balances_day_by_day(uth_table, rounds, cap, removal, corrected):
    with transaction.atomic():
        start = timezone.make_aware(dt.datetime.combine(JACKPOT_DAY, dt.time(10)))
        j = jackpots.jackpot_create(actor="system:test", venue=uth_table.venue, code="h", effective_from=start,
                                    tables=[uth_table], **jackpot_terms(max_cents=cap))
        record([uth_round(uth_table, f"r{i}", played(JACKPOT_DAY, i), DEALS[deal], pot_cents=pot)
                for i, (deal, pot) in enumerate(rounds)])
        if removal == "before":
            jackpots.jackpot_remove(actor="system:test", jackpot=j, destination="unpaid_funds", note="closed")
        _post(j)
        if corrected:
            record([uth_round(uth_table, "fix", played(JACKPOT_DAY, 0), NOTHING, corrects="r0")])
        if removal == "after":
            jackpots.jackpot_remove(actor="system:test", jackpot=j, destination="unpaid_funds", note="closed")
        _post(j, NEXT)
        assert jackpots.ledger_problems(j) == []
        transaction.set_rollback(True)
