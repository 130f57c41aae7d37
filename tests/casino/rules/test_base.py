"""The shared contract (casino/rules/base.py): stake limits void the excess, an under-age player is
refused, the win cap cuts jackpot, then side, then base wins, largest first (000-casino §2.3, Ambiguity
10, E16), returned stakes are never capped; the venue frames of 002 and 004."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.rules import venues
from casino.rules.base import (
    BASE,
    JACKPOT,
    SIDE,
    Bet,
    BetResult,
    EngineError,
    Venue,
    lost,
    push,
    settle_round,
    won,
)

D = Decimal


class Fake:
    """A game whose outcome names each bet's fate: {"results": [["won", "5000"], ["push"], ...]}."""

    rulebook = "000"
    game = "fake"
    variants = {"v": {}}

    def limit_class(self, bet, variant):
        return bet.params.get("cls", "blackjack_box")

    def parse_bets(self, bets, variant):
        pass

    def settle(self, variant, bets, outcome):
        out = []
        for bet in bets:
            fate = outcome["results"][bet.index]
            category = bet.params.get("category", BASE)
            if fate[0] == "won":
                out.append(won(bet, fate[1], "fake", category))
            elif fate[0] == "fixed":  # a jackpot of a fixed sum
                out.append(BetResult(bet.index, "won", bet.stake, D(fate[1]), "fake jackpot", category))
            elif fate[0] == "push":
                out.append(push(bet, "fake", category))
            else:
                out.append(lost(bet, "fake", category))
        return out


def bet(i, stake, **params):
    player = params.pop("player", "P1")
    age = params.pop("age", None)
    return Bet(i, "x", D(stake), player=player, player_age=age, params=params)


CASINO = venues.LEGAL[("000", "casino")]
HALL = venues.LEGAL[("000", "game_hall")]


def test_stake_above_the_maximum_is_voided_and_returned():  # E15(a)
    r = settle_round(Fake(), {}, HALL, [bet(0, "50.00")], {"results": [["won", "3/2"]]})
    b = r.bets[0]
    assert (b.valid_stake, b.voided_excess, b.winnings, b.payout) == (D("40.00"), D("10.00"), D("60.00"), D("110.00"))
    lost_round = settle_round(Fake(), {}, HALL, [bet(0, "50.00")], {"results": [["lost"]]})
    assert lost_round.bets[0].payout == D("10.00") and lost_round.voided_excess == D("10.00")


def test_under_age_player_is_refused_whole():
    frame = venues.venue_from_json("004", "billionaire")
    r = settle_round(Fake(), {}, frame, [bet(0, "10.00", age=20), bet(1, "10.00", age=21)],
                     {"results": [["won", "1"], ["won", "1"]]})
    assert r.bets[0].status == "refused" and r.bets[0].payout == D("10.00") and r.bets[0].winnings == 0
    assert r.bets[1].payout == D("20.00")
    assert "minimum age 21" in r.bets[0].rule


def test_e16a_cap_taken_from_the_side_game_first():
    bets = [bet(0, "1000.00"), bet(1, "2000.00", category=SIDE), bet(2, "2000.00")]
    r = settle_round(Fake(), {}, CASINO, bets, {"results": [["won", "1"], ["won", "5000"], ["push"]]})
    ante, bonus, raise_ = r.bets
    assert bonus.capped_excess == D("5001000.00") and bonus.winnings - bonus.capped_excess == D("4999000.00")
    assert ante.capped_excess == 0 and ante.payout == D("2000.00")
    assert raise_.payout == D("2000.00")
    assert r.total_return == D("5005000.00") and r.capped


def test_e16b_cap_taken_from_the_jackpot_first():
    bets = [bet(0, "1.00", category=JACKPOT, cls="none"), bet(1, "10.00", category=SIDE, cls="none"),
            bet(2, "40.00")]
    r = settle_round(Fake(), {}, HALL, bets, {"results": [["fixed", "99800.00"], ["won", "50"], ["won", "1"]]})
    jackpot, side, main = r.bets
    assert jackpot.capped_excess == D("340.00") and jackpot.payout == D("1.00") + D("99460.00")
    assert side.payout == D("510.00") and main.payout == D("80.00")
    assert r.capped_excess == D("340.00")


def test_cap_order_largest_first_within_a_group_and_stakes_never_capped():
    venue = Venue(kind="t", max_stake={}, win_cap=D("100.00"), min_age=18, rule="test")
    bets = [bet(0, "10.00"), bet(1, "20.00"), bet(2, "30.00", player="P2")]
    r = settle_round(Fake(), {}, venue, bets, {"results": [["won", "5"], ["won", "5"], ["won", "10"]]})
    small, large, other = r.bets
    # P1 wins 50 + 100 = 150: 50 comes off the larger win first; P2's 300 is capped alone
    assert (small.capped_excess, large.capped_excess) == (0, D("50.00"))
    assert other.capped_excess == D("200.00") and other.payout == D("30.00") + D("100.00")
    for b in r.bets:
        assert b.payout >= b.valid_stake  # every winning stake comes back whole


def test_billionaire_caps_per_box():
    frame = venues.venue_from_json("004", {"kind": "billionaire", "win_cap": "100.00"})
    bets = [Bet(0, "x", D("10.00"), box=1, player="A"), Bet(1, "x", D("10.00"), box=1, player="B")]
    r = settle_round(Fake(), {}, frame, bets, {"results": [["won", "8"], ["won", "8"]]})
    assert r.capped_excess == D("60.00")  # both players' 80 on box 1 count together


def test_ray_frame_requires_the_table_limits():
    with pytest.raises(EngineError) as err:
        venues.venue_from_json("002", "ray")
    assert err.value.field == "venue.win_cap"
    frame = venues.venue_from_json("002", {"kind": "ray", "win_cap": None, "max_stake": {"dice_bet": "5.00"}})
    r = settle_round(Fake(), {}, frame, [bet(0, "8.00", cls="dice_bet")], {"results": [["lost"]]})
    assert r.bets[0].voided_excess == D("3.00")
    with pytest.raises(EngineError) as err:
        settle_round(Fake(), {}, frame, [bet(0, "8.00", cls="poker_box")], {"results": [["lost"]]})
    assert err.value.field == "venue.max_stake.poker_box"
    assert frame.min_age == 18


def test_table_limits_may_only_be_lower():
    with pytest.raises(EngineError) as err:
        venues.venue_from_json("000", {"kind": "casino", "max_stake": {"wheel_bet": "4000.01"}})
    assert err.value.field == "venue.max_stake.wheel_bet"
    with pytest.raises(EngineError):
        venues.venue_from_json("004", {"kind": "billionaire", "min_age": 20})
