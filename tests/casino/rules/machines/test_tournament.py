"""RA III slot tournaments: terms, scoring formula, heats, ties and prizes."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import EngineError
from casino.rules.jsonio import compute


def tournament(**kw):
    doc = {"kind": "slot_tournament", "venue": "arcade", "machine": "slot", "team": False, "entry_fee": "10.00",
           "scoring": {"won": "1"}, "heats": [{"results": [{"entrant": "A", "won": 5}, {"entrant": "B", "won": 3}]}]}
    doc.update(kw)
    return compute(doc)


def test_scoring_weights_every_metric_the_rules_name():
    weights = {"staked": "0.5", "won": "2", "games": "-1", "credits_left": "1", "pajatso_points": "3",
               "pajatso_hits": "4", "other": "10"}
    metrics = {"staked": 100, "won": "20.5", "games": 30, "credits_left": 7, "pajatso_points": 2, "pajatso_hits": 1,
               "other": 1}
    answer = tournament(scoring=weights, heats=[{"results": [{"entrant": "A", **metrics},
                                                             {"entrant": "B", **{m: 0 for m in metrics}}]}])
    # 0.5*100 + 2*20.5 - 30 + 7 + 3*2 + 4*1 + 10*1 = 88
    assert answer["heats"][0]["ranking"][0] == {"entrant": "A", "rank": 1, "points": "88"}


def test_heats_advance_the_best_and_the_last_heat_decides():
    heats = [{"advance": 2, "results": [{"entrant": "A", "won": 9}, {"entrant": "B", "won": 5}, {"entrant": "C", "won": 7},
                                        {"entrant": "D", "won": 1}]},
             {"results": [{"entrant": "A", "won": 1}, {"entrant": "C", "won": 4}]}]
    answer = tournament(heats=heats)
    assert answer["heats"][0]["advancing"] == ["A", "C"]
    assert answer["winner"] == "C"
    assert [o["entrant"] for o in answer["overall"]] == ["C", "A", "B", "D"]


def test_next_heat_must_hold_those_who_advanced():
    heats = [{"advance": 1, "results": [{"entrant": "A", "won": 9}, {"entrant": "B", "won": 5}]},
             {"results": [{"entrant": "B", "won": 1}]}]
    with pytest.raises(EngineError) as err:
        tournament(heats=heats)
    assert err.value.field == "heats[1].results"


def test_tie_break_metric_orders_equal_points():
    heats = [{"results": [{"entrant": "A", "won": 5, "credits_left": 1}, {"entrant": "B", "won": 5, "credits_left": 9}]}]
    assert tournament(heats=heats, tie_break=["credits_left"])["winner"] == "B"


def test_an_unbroken_tie_for_first_names_no_single_winner():
    heats = [{"results": [{"entrant": "A", "won": 5}, {"entrant": "B", "won": 5}]}]
    answer = tournament(heats=heats)
    assert answer["winner"] is None and answer["tied_for_first"] == ["A", "B"]


def test_a_tie_at_the_cut_is_left_to_the_instructions():
    heats = [{"advance": 1, "results": [{"entrant": "A", "won": 5}, {"entrant": "B", "won": 5}, {"entrant": "C", "won": 1}]},
             {"results": [{"entrant": "A", "won": 2}, {"entrant": "B", "won": 3}]}]
    answer = tournament(heats=heats)
    assert answer["heats"][0]["advancing"] == [] and answer["heats"][0]["tied_at_cut"] == ["A", "B"]
    assert answer["winner"] == "B"


def test_tied_prize_places_are_undetermined_unless_the_instructions_share_them():
    heats = [{"results": [{"entrant": "A", "won": 5}, {"entrant": "B", "won": 5}, {"entrant": "C", "won": 1}]}]
    prizes = {"basis": "fixed", "amount": "100.00", "split": ["0.7", "0.3"]}
    open_ = tournament(heats=heats, prizes=prizes)["prizes"]
    assert open_["awards"] == [] and open_["undetermined"][0]["amount"] == "100.00"
    shared = tournament(heats=heats, prizes=prizes, ties_share_prizes=True)["prizes"]
    assert [a["prize"] for a in shared["awards"]] == ["50.00", "50.00"]


@settings(max_examples=100, deadline=None)
@given(fee=st.integers(1, 2000), n=st.integers(2, 40), share=st.integers(1, 100),
       split=st.lists(st.integers(1, 20), min_size=0, max_size=5))
def test_prizes_never_exceed_the_pool_and_the_rest_is_breakage(fee, n, share, split):
    fee_text = f"{fee // 100}.{fee % 100:02d}"
    percents = [*split, 100 - sum(split)]  # the instructions' split by place, in per cent, adding up to 100
    results = [{"entrant": f"P{i:02d}", "won": i} for i in range(n)]
    answer = tournament(entry_fee=fee_text, heats=[{"results": results}],
                        prizes={"basis": "fees_share", "share": f"{share / 100:.2f}",
                                "split": [f"{p / 100:.2f}" for p in percents]})
    pool = Fraction(Decimal(fee_text)) * n * Fraction(share, 100)
    paid = sum(Fraction(Decimal(a["prize"])) for a in answer["prizes"]["awards"])
    assert paid <= pool
    assert paid + Fraction(Decimal(answer["prizes"]["breakage"])) == pool
    assert len(answer["prizes"]["awards"]) == min(n, len(percents))


def test_tournament_needs_a_fee_or_a_minimum_purchase():
    answer = tournament(entry_fee=None)
    assert not answer["ok"] and answer["violations"][0]["rule"].startswith("RA III")


def test_minimum_purchase_alone_is_enough():
    assert tournament(entry_fee=None, minimum_purchase="10.00")["ok"]


@pytest.mark.parametrize("venue,fee,ok", [("gaming_point", "20.00", True), ("gaming_point", "20.01", False),
                                          ("gaming_point_18", "20.01", False), ("arcade", "20.00", True),
                                          ("casino", "4000.00", True)])
def test_entry_fee_caps(venue, fee, ok):
    machine = "electronic_poker" if venue == "casino" else "slot"
    assert tournament(venue=venue, machine=machine, entry_fee=fee)["ok"] is ok


def test_casino_poker_fee_above_4000_is_refused():
    assert not tournament(venue="casino", machine="electronic_poker", entry_fee="4000.01")["ok"]


@pytest.mark.parametrize("venue,ok", [("arcade", True), ("gaming_point", False), ("gaming_point_18", False),
                                      ("casino", False)])
def test_team_tournaments_only_in_the_operators_arcades(venue, ok):
    assert tournament(venue=venue, team=True)["ok"] is ok


@pytest.mark.parametrize("doc,field", [
    ({"scoring": {"luck": "1"}}, "scoring.luck"),
    ({"scoring": {}}, "scoring"),
    ({"scoring": {"won": 1.5}}, "scoring.won"),
    ({"heats": [{"results": [{"entrant": "A"}]}]}, "heats[0].results[0].won"),
    ({"heats": [{"advance": 1, "results": [{"entrant": "A", "won": 1}]}]}, "heats[0].advance"),
    ({"tie_break": ["luck"]}, "tie_break"),
    ({"prizes": {"basis": "fixed", "amount": "10.00", "split": ["0.5", "0.4"]}}, "prizes.split"),
    ({"machine": "roulette"}, "machine"),
])
def test_bad_tournament_input_names_the_field(doc, field):
    with pytest.raises(EngineError) as err:
        tournament(**doc)
    assert err.value.field == field
