"""Invariants of the cash-game kinds over random hands (hypothesis): money is conserved (awards +
returned + rake + jackpot fee = money in), nobody wins more than the pots he is eligible for, and the
rake never exceeds its cap."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.jsonio import compute

ONLINE = [("holdem", "NL4", "1.00"), ("holdem", "NL50", "3.00"), ("omaha", "PL10", "2.00"),
          ("banzai_holdem", "NL20", "3.00")]


@st.composite
def hands(draw):
    n = draw(st.integers(2, 9))
    amounts = draw(st.lists(st.integers(0, 50_000), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded) or sum(amounts) == 0:
        folded[0], amounts[0] = False, amounts[0] or 100
    seats = []
    for i in range(n):
        seat = {"seat": i + 1, "player": f"P{i + 1}", "contributed": f"{amounts[i] // 100}.{amounts[i] % 100:02d}"}
        if folded[i]:
            seat["folded"] = True
        seats.append(seat)
    live = [s["player"] for s in seats if not s.get("folded")]
    order = draw(st.permutations(live))
    groups, i = [], 0
    while i < len(order):
        size = draw(st.integers(1, len(order) - i))
        groups.append(list(order[i:i + size]))
        i += size
    return seats, groups, draw(st.integers(1, n)), draw(st.booleans())


def money(text: str) -> Decimal:
    return Decimal(text)


def check_conservation(answer):
    paid = sum(money(p["returned"]) + money(p["won"]) for p in answer["players"])
    fee = money(answer.get("jackpot_fee", {}).get("amount", "0"))
    assert paid + money(answer["rake"]) + fee == money(answer["check"]["money_in"])
    assert answer["check"]["balanced"]


def check_eligibility(answer):
    for player in answer["players"]:
        reachable = sum(money(p["net"]) for p in answer["pots"] if player["player"] in p["eligible"])
        assert money(player["won"]) <= reachable


@settings(max_examples=300, deadline=None)
@given(hand=hands(), table=st.sampled_from(ONLINE), flop=st.booleans())
def test_online_hand_conserves_money_and_respects_cap(hand, table, flop):
    seats, ranking, button, _ = hand
    game, stake, cap = table
    answer = compute({"kind": "pots", "rulebook": "003", "game": "holdem", "button": button, "seats": seats,
                      "ranking": ranking, "beyond_initial_deal": flop, "rake": {"game": game, "stake": stake}})
    check_conservation(answer)
    check_eligibility(answer)
    assert money(answer["rake"]) <= money(cap)
    assert all(money(p["rake"]) <= money(p["amount"]) for p in answer["pots"])


@settings(max_examples=300, deadline=None)
@given(hand=hands(), rate=st.sampled_from(["5", "10"]), cap=st.sampled_from([None, "1.00", "3.00", "4.00"]),
       jackpot=st.booleans())
def test_live_hand_conserves_money_and_respects_cap(hand, rate, cap, jackpot):
    seats, ranking, button, beyond = hand
    doc = {"kind": "pots", "rulebook": "001", "game": "holdem", "button": button, "chip": "0.01", "seats": seats,
           "ranking": ranking, "beyond_initial_deal": beyond, "rake": {"rate": rate, "cap": cap}}
    if jackpot:
        doc["jackpot_fee"] = {}
    answer = compute(doc)
    check_conservation(answer)
    check_eligibility(answer)
    if cap is not None:
        assert money(answer["rake"]) <= money(cap)
    total = sum(money(p["amount"]) for p in answer["pots"])
    if beyond:  # €1 per full block, never more
        assert money(answer["rake"]) <= total // (20 if rate == "5" else 10)
    else:
        assert money(answer["rake"]) <= 1


@settings(max_examples=200, deadline=None)
@given(pot=st.integers(1, 100_000), k=st.integers(1, 6), button=st.integers(1, 9), unit=st.sampled_from([1, 5, 100]))
def test_odd_chips_sum_to_the_pot_and_differ_by_at_most_one_chip(pot, k, button, unit):
    seats = [{"seat": i + 1, "player": f"P{i + 1}"} for i in range(k)]
    answer = compute({"kind": "odd_chip", "rulebook": "001", "game": "holdem", "button": button,
                      "chip": f"{unit // 100}.{unit % 100:02d}", "pot": f"{pot // 100}.{pot % 100:02d}",
                      "seats": seats, "winners": [s["player"] for s in seats]})
    amounts = [int(money(a["amount"]) * 100) for a in answer["awards"]]
    assert sum(amounts) == pot
    assert max(amounts) - min(amounts) <= max(unit, pot % unit + unit if pot % unit else unit)


def test_a_hand_whose_chips_all_go_back_pays_no_jackpot_fee():
    """Found by the live property above: an uncalled bet returned whole leaves empty pots, and the fee
    reported must be what the pots gave (nothing), not the fee such a hand would owe."""
    seats = [{"seat": 1, "player": "P1", "contributed": "1.00"}]
    seats += [{"seat": i, "player": f"P{i}", "contributed": "0.00", "folded": True} for i in range(2, 7)]
    answer = compute({"kind": "pots", "rulebook": "001", "game": "holdem", "button": 1, "chip": "0.01",
                      "seats": seats, "ranking": [["P1"]], "beyond_initial_deal": True,
                      "second_betting_round": True, "rake": {"rate": "5"}, "jackpot_fee": {}})
    check_conservation(answer)
    assert (answer["jackpot_fee"]["amount"], answer["jackpot_fee"]["due"]) == ("0.00", "1.00")
