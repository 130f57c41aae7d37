"""The end-of-day posting of a jackpot ledger, pure (casino.rules.jackpot_ledger): whatever the day's
accruals, the ledger balances line by line and in total, and the pot and the reserve never go below zero
nor the pot above its maximum after a posting."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules import jackpot_ledger as jl


def terms(**kw) -> jl.Terms:
    return jl.Terms(**{"kind": jl.PROGRESSIVE, "reset_cents": 1_000, "max_cents": None, **kw})


@st.composite
def days(draw):
    """A starting pot and reserve, terms (maybe a maximum, held or sent on), and a day of accruals."""
    reset = draw(st.integers(0, 5_000))
    top = draw(st.one_of(st.none(), st.integers(reset, reset + 10_000)))
    overflow = draw(st.sampled_from([jl.HELD, jl.NEXT_POT]))
    t = terms(reset_cents=reset, max_cents=top, overflow=overflow, next_pot="next" if overflow == jl.NEXT_POT else None)
    pot = draw(st.integers(0, top if top is not None else 20_000))
    held = draw(st.integers(0, 5_000))
    accruals = []
    for n in range(draw(st.integers(0, 30))):
        bets = draw(st.integers(1, 3))
        for b in range(bets):
            win = draw(st.one_of(st.just(0), st.just(0), st.integers(1, 30_000)))
            accruals.append(jl.Accrual(key=(n, b), round=n, terms=t, contribution_cents=draw(st.integers(0, 500)),
                                       win_cents=win, pot_shown_cents=draw(st.one_of(st.none(), st.integers(0, 40_000)))))
    return pot, held, t, accruals


@settings(max_examples=150, deadline=None)
@given(days())
def test_a_posting_balances_seed_and_resets_plus_contributions_minus_wins_plus_transfers(day):
    pot, held, _t, accruals = day
    plan = jl.plan_posting(pot, held, accruals)
    figures = jl.totals(plan.lines)
    assert plan.pot_cents + plan.held_cents == (pot + held + figures["funded"] + figures["contributions"]
                                                - figures["wins"] + figures["transfers"])


@settings(max_examples=150, deadline=None)
@given(days())
def test_every_line_follows_from_the_one_before_and_nothing_goes_below_zero(day):
    pot, held, _t, accruals = day
    for line in jl.plan_posting(pot, held, accruals).lines:
        assert (line.pot_after_cents, line.held_after_cents) == (pot + line.amount_cents, held + line.held_cents)
        pot, held = line.pot_after_cents, line.held_after_cents
        assert pot >= 0 and held >= 0


@settings(max_examples=150, deadline=None)
@given(days())
def test_every_win_is_paid_whole_and_the_pot_is_back_at_its_reset_amount_after_it(day):
    pot, held, t, accruals = day
    lines = jl.plan_posting(pot, held, accruals).lines
    wins = [i for i, line in enumerate(lines) if line.kind == jl.WIN]
    assert [-lines[i].amount_cents for i in wins] == [a.win_cents for a in accruals if a.win_cents]
    for i in wins:
        after = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].kind == jl.RESET else lines[i]
        assert after.pot_after_cents >= t.reset_cents


@settings(max_examples=150, deadline=None)
@given(days())
def test_after_a_posting_the_pot_is_not_above_its_maximum_and_what_overflowed_is_accounted_for(day):
    pot, held, t, accruals = day
    plan = jl.plan_posting(pot, held, accruals)
    sent = sum(amount for _target, amount in plan.sent)
    overflow_out = -sum(line.net_cents for line in plan.lines if line.kind == jl.OVERFLOW)
    assert sent == overflow_out
    if t.max_cents is not None and plan.lines:
        assert plan.pot_cents <= max(t.max_cents, pot)


@settings(max_examples=150, deadline=None)
@given(days())
def test_the_operator_never_takes_money_out(day):
    pot, held, _t, accruals = day
    assert all(line.net_cents >= 0 for line in jl.plan_posting(pot, held, accruals).lines if line.kind in jl.FUNDING)


def test_a_win_is_paid_from_the_pot_shown_at_the_start_of_its_round_and_its_own_stake_goes_in_after():
    t = terms(reset_cents=0)
    plan = jl.plan_posting(1_000, 0, [
        jl.Accrual(key=1, round="a", terms=t, contribution_cents=25, pot_shown_cents=1_000),
        jl.Accrual(key=2, round="b", terms=t, contribution_cents=25, win_cents=1_025, pot_shown_cents=1_025)])
    assert [(line.kind, line.amount_cents) for line in plan.lines] == [
        ("contribution", 25), ("win", -1_025), ("contribution", 25)]
    assert plan.mismatches == []


def test_a_pot_shown_that_is_not_the_ledgers_is_a_mismatch():
    plan = jl.plan_posting(1_000, 0, [jl.Accrual(key=1, round="a", terms=terms(), pot_shown_cents=999)])
    assert plan.mismatches == [jl.Mismatch("a", 1, 999, 1_000)]


def test_a_late_round_is_not_compared():
    plan = jl.plan_posting(1_000, 0, [jl.Accrual(key=1, round="a", terms=terms(), pot_shown_cents=5, compare=False)])
    assert plan.mismatches == []


def test_a_fixed_jackpot_has_no_pot_shown_to_compare():
    plan = jl.plan_posting(1_000, 0, [jl.Accrual(key=1, round="a", terms=terms(kind="fixed"), pot_shown_cents=5)])
    assert plan.mismatches == []


def test_the_pot_shown_is_capped_at_the_maximum_as_the_table_shows_it():
    t = terms(max_cents=1_010)
    plan = jl.plan_posting(1_000, 0, [jl.Accrual(key=1, round="a", terms=t, contribution_cents=25, pot_shown_cents=1_000),
                                      jl.Accrual(key=2, round="b", terms=t, pot_shown_cents=1_010)])
    assert (plan.mismatches, plan.pot_cents, plan.held_cents) == ([], 1_010, 15)


def test_a_removed_next_pot_takes_no_overflow_it_is_held():
    t = terms(max_cents=1_000, overflow=jl.NEXT_POT, next_pot="gone")
    plan = jl.plan_posting(1_000, 0, [jl.Accrual(key=1, round="a", terms=t, contribution_cents=50)],
                           open_pots=frozenset())
    assert (plan.sent, plan.held_cents) == ([], 50)


def test_the_contribution_rate_is_exact_and_rounded_down_once():
    assert [jl.contribution_cents(s, Decimal("0.015")) for s in (100, 199, 1_000)] == [1, 2, 15]
