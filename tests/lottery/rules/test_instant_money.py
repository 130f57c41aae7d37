"""Money properties of pool shares (§39) and Nettiarvat refunds (NA §15): conserved, never above the fee."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from lottery.rules.compute import compute

cents = st.integers(0, 10**9)


def euros(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}"


@settings(max_examples=200, deadline=None)
@given(total=st.integers(1, 200), held=st.lists(st.integers(1, 20), max_size=10), winnings=cents,
       step=st.sampled_from(["0.01", "0.10"]))
def test_pool_split_conserves_money(total, held, winnings, step):
    if sum(held) > total:
        held = held[: max(0, len(held) - 1)]
        if sum(held) > total:
            return
    answer = compute({"kind": "pool_shares", "share_price": "1.00", "shares_total": total, "unsold_to": "operator",
                      "winnings": euros(winnings), "rounding_step": step,
                      "holders": [{"holder": f"H{i}", "shares": s} for i, s in enumerate(held)]})
    paid = sum(Decimal(h["paid"]) for h in answer["holders"]) + Decimal(answer["unsold"]["paid"])
    breakage = Decimal(answer["breakage"])
    assert paid + breakage == Decimal(euros(winnings))
    assert Decimal(0) <= breakage < Decimal(step) * (len(held) + 1)
    assert Decimal(answer["turnover"]["counted"]) == total  # §39: the full pool counts, sold or not


@settings(max_examples=200, deadline=None)
@given(fee=st.integers(1, 10**7), kept=cents, reason=st.sampled_from(["ticket_error", "contradictory_information"]))
def test_refund_is_never_negative_and_never_above_the_fee(fee, kept, reason):
    answer = compute({"kind": "nettiarvat_refund", "reason": reason, "fee": euros(fee), "prize_kept": euros(kept)})
    refund = Decimal(answer["refund"])
    assert Decimal(0) <= refund <= Decimal(euros(fee))
    assert refund + Decimal(answer["prize_counted_as_refund"]) == Decimal(euros(fee))
