"""Bounties (pool conserved), the chip race (nobody gets two chips, nobody is eliminated) and
HexaPro's published distribution (6.853 % expected rake)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.jsonio import compute
from casino.rules.poker import hexapro


@st.composite
def knockouts(draw):
    n = draw(st.integers(2, 25))
    alive = [f"P{i}" for i in range(n)]
    kos = []
    while len(alive) > 1:
        out = draw(st.sampled_from(alive))
        others = [p for p in alive if p != out]
        by = draw(st.lists(st.sampled_from(others), min_size=1, max_size=min(3, len(others)), unique=True))
        kos.append({"eliminated": out, "by": by})
        alive.remove(out)
    return kos, alive


@settings(max_examples=80, deadline=None)
@given(knockouts(), st.sampled_from(["standard", "progressive"]), st.integers(1, 100_000),
       st.sampled_from(["0.5", "1/3", "0", "1"]))
def test_bounty_pool_is_paid_exactly(ko, kind, bounty_cents, share):
    kos, remaining = ko
    doc = {"kind": "bounty", "bounty": f"{bounty_cents // 100}.{bounty_cents % 100:02d}", "type": kind,
           "knockouts": kos, "remaining": remaining}
    if kind == "progressive":
        doc["retained"] = {"share": share}
    out = compute(doc)
    paid = sum(int(p["cash"].replace(".", "")) for p in out["players"])
    assert paid == bounty_cents * out["entries"] and out["balanced"]


def test_split_bounty_chip_is_not_broken_up():
    out = compute({"kind": "bounty", "bounty": "25.00", "knockouts": [{"eliminated": "X", "by": ["A", "B"]}],
                   "remaining": ["A", "B"], "finished": False})
    assert [t["cash"] for t in out["knockouts"][0]["to"]] == ["25.00", "0.00"]  # first sharer after the button


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4) .map(lambda k: k * 100)), min_size=2, max_size=8),
       st.randoms(use_true_random=False))
def test_chip_race_awards_at_most_one_each_and_eliminates_nobody(players, rnd):
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rnd.shuffle(deck)
    raw = []
    for i, (small, other) in enumerate(players):
        cards, deck = deck[:small], deck[small:]
        raw.append({"player": f"P{i}", "small_chips": small, "other_chips": other, "cards": cards})
    out = compute({"kind": "chip_race", "from_chip": 25, "to_chip": 100, "players": raw})
    leftover = 25 * sum(s for s, _ in players)
    assert out["large_chips_raced"] == -(-leftover // 100)
    assert sum(p["race_chip"] for p in out["players"]) == out["large_chips_raced"]
    assert all(p["chips_after"] > 0 for p in out["players"] if p["chips_before"] > 0)
    assert out["table_chip_change"] == sum(p["chips_after"] - p["chips_before"] for p in out["players"])


def test_hexapro_distribution_and_expected_rake():
    assert sum(hexapro.DISTRIBUTION.values()) == 100_000
    assert hexapro.expected_multiplier() == Fraction(279441, 100000)  # 003 Example 11
    assert 1 - hexapro.expected_multiplier() / 3 == Fraction(6853, 100000)


def test_every_hexapro_pool_pays_whole_cents_and_adds_up():
    for buy in hexapro.BUY_INS:
        for m in hexapro.DISTRIBUTION:
            mult = str(m) if m.denominator == 1 else "1.5"
            out = compute({"kind": "hexapro", "buy_in": f"{buy // 100}.00", "multiplier": mult,
                           "finishing_order": ["A", "B", "C"]})
            paid = sum(int(p["amount"].replace(".", "")) for p in out["payouts"])
            assert paid == buy * m
