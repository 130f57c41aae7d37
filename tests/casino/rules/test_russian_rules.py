"""Russian, Open Russian and Novo poker: decisions against each version's rules (violations), bad
input, stake limits, the bought dealer game, the bonus variants and hypothesis properties."""

from __future__ import annotations

import copy
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.rules.base import Bet, EngineError
from casino.rules.cards import RANKS, SUITS, parse_cards
from casino.rules.games.novo_poker import NOVO_004, novo_bonus_hand
from casino.rules.games.russian_poker import (
    ENGINES,
    LEVEL,
    RUSSIAN_004,
    VERSIONS_000,
    hand_category,
    paytable_max_win,
)
from casino.rules.jsonio import compute

DECK = [r + s for r in RANKS for s in SUITS]


def play(bets, outcome, variant="A", rulebook="000", game="russian_poker", venue=None, rules=None):
    doc = {
        "kind": "round",
        "rulebook": rulebook,
        "game": game,
        "variant": variant,
        "bets": bets,
        "outcome": outcome,
        "venue": venue or ("casino" if rulebook == "000" else "billionaire"),
    }
    if rules is not None:
        doc["rules"] = rules
    return compute(doc)


def ante(stake="100.00", box=1, **kw):
    return {"type": "ante", "stake": stake, "box": box, **kw}


def side(kind, stake, box=1, **kw):
    return {"type": kind, "stake": stake, "box": box, **kw}


def hand(cards, *actions, box=1):
    return {
        "box": box,
        "cards": cards,
        "actions": [a if isinstance(a, dict) else {"action": a} for a in actions],
    }


NO_GAME = "Qd 9c 7h 4s 2d"
AK_DEALER = "As Kd 9c 5s 2c"


# ----------------------------------------------------------------------------------- base game


def test_fold_loses_ante_and_000_bonus_but_004_settles_the_bonus():
    out = play(
        [ante(), side("bonus", "10.00")], {"dealer": AK_DEALER, "boxes": [hand("4c 5d 6h 7s 8c", "fold")]}
    )
    assert [b["payout"] for b in out["bets"]] == ["0.00", "0.00"]
    rules = copy.deepcopy(RUSSIAN_004)
    rules["bonus"]["jackpot_share"] = {"straight_flush": "1/10", "royal_flush": "1/2"}
    out = play(
        [ante(), side("bonus", "10.00")],
        {"dealer": AK_DEALER, "boxes": [hand("4c 5d 6h 7h 8c", "fold")]},
        "standard",
        "004",
        rules=rules,
    )
    assert [b["payout"] for b in out["bets"]] == ["0.00", "410.00"]


def test_dealer_no_game_pays_ante_and_returns_raise():
    out = play([ante()], {"dealer": NO_GAME, "boxes": [hand("2c 3c 8h Js Kd", "raise")]})
    bet = out["bets"][0]
    assert (bet["status"], bet["returned"], bet["winnings"], bet["added_stake"]) == (
        "won",
        "300.00",
        "100.00",
        "200.00",
    )


def test_tie_keeps_ante_and_raise():
    out = play([ante()], {"dealer": "As Kd 9c 5s 2c", "boxes": [hand("Ah Kc 9d 5h 2h", "raise")]})
    assert out["bets"][0]["status"] == "push" and out["bets"][0]["payout"] == "300.00"


def test_exchange_fee_and_improved_hand():
    out = play(
        [ante(), side("bonus", "10.00")],
        {
            "dealer": AK_DEALER,
            "boxes": [hand("2h 7d 9h Jh Qh", {"action": "exchange", "out": ["7d"], "in": ["4h"]}, "raise")],
        },
    )
    bet, bonus = out["bets"]
    # flush after the exchange: raise 200 x 5; the fee (100) is kept; the 000 bonus is lost by exchanging
    assert (bet["added_stake"], bet["returned"], bet["winnings"]) == ("300.00", "300.00", "1000.00")
    assert bonus["payout"] == "0.00" and "exchanging" in bonus["rule"]


def test_version_d_declared_bonus_is_paid_after_an_exchange():
    outcome = {
        "dealer": AK_DEALER,
        "boxes": [
            hand(
                "4c 5d 6h 7s 8c", "declare_bonus", {"action": "exchange", "out": ["4c"], "in": ["9h"]}, "fold"
            )
        ],
    }
    out = play([ante(), side("bonus", "10.00")], outcome, "D")
    assert out["bets"][1]["winnings"] == "500.00"
    out = play([ante(), side("bonus", "10.00")], outcome, "A")
    assert out["bets"][1]["payout"] == "0.00"
    assert "declaring" in out["bets"][0]["violations"][0]


@pytest.mark.parametrize("variant, allowed", [("A", 5), ("B", 3), ("C", 2), ("D", 5)])
def test_exchange_limit_per_version(variant, allowed):
    dealt = "2c 3d 8h Js Kd"
    incoming = ["3h", "5h", "6h", "Th", "Ah"]
    for n in range(1, 6):
        out = play(
            [ante()],
            {
                "dealer": NO_GAME,
                "boxes": [
                    hand(dealt, {"action": "exchange", "out": dealt.split()[:n], "in": incoming[:n]}, "raise")
                ],
            },
            variant,
        )
        bet = out["bets"][0]
        if n <= allowed:
            assert "violations" not in bet and bet["added_stake"] == "300.00"
        else:
            assert "at most" in bet["violations"][0] and bet["added_stake"] == "200.00"


def test_second_improvement_is_a_violation_and_ignored():
    out = play(
        [ante()],
        {
            "dealer": AK_DEALER,
            "boxes": [
                hand(
                    "2h 7d 9h Jh Qh",
                    {"action": "sixth_card", "card": "3h"},
                    {"action": "exchange", "out": ["7d"], "in": ["4h"]},
                    "raise",
                )
            ],
        },
    )
    bet = out["bets"][0]
    assert "one exchange or sixth card" in bet["violations"][0]
    assert bet["added_stake"] == "300.00"  # one fee, not two
    assert bet["winnings"] == "1000.00"  # the sixth card made the flush: 2 3 9 J Q hearts


# --------------------------------------------------------------------------- buying a game (Amb. 7)


def test_000_buy_game_pair_pays_raise_ante_returned():
    out = play(
        [ante()],
        {
            "dealer": "As Jd 8c 6h 3s",
            "dealer_replacement": "Jc",
            "boxes": [hand("Qs Qh Qd 7c 2d", "raise", "buy_game")],
        },
    )
    bet = out["bets"][0]
    assert (bet["returned"], bet["winnings"], bet["added_stake"]) == ("300.00", "600.00", "300.00")


def test_000_buy_game_dealer_beats_player():
    out = play(
        [ante()],
        {
            "dealer": "As Jd 8c 6h 3s",
            "dealer_replacement": "Jc",
            "boxes": [hand("5s 5h Td 7c 2d", "raise", "buy_game")],
        },
    )
    assert out["bets"][0]["payout"] == "0.00"


def test_000_buy_game_still_no_game_keeps_ante_and_raise():
    out = play(
        [ante()],
        {
            "dealer": "As Jd 8c 6h 3s",
            "dealer_replacement": "5c",
            "boxes": [hand("Qs Qh Qd 7c 2d", "raise", "buy_game")],
        },
    )
    bet = out["bets"][0]
    assert (bet["status"], bet["payout"], bet["added_stake"]) == ("push", "300.00", "300.00")


def test_non_buyers_are_paid_ante_while_buyers_play_the_new_hand():
    out = play(
        [ante(), ante(box=2)],
        {
            "dealer": "As Jd 8c 6h 3s",
            "dealer_replacement": "Jc",
            "boxes": [hand("Qs Qh Qd 7c 2d", "raise", "buy_game"), hand("Kc Kh 9d 4c 2h", "raise", box=2)],
        },
    )
    assert [b["winnings"] for b in out["bets"]] == ["600.00", "100.00"]


def test_buying_when_the_dealer_qualifies_is_a_violation():
    out = play([ante()], {"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", "raise", "buy_game")]})
    bet = out["bets"][0]
    assert "nothing to buy" in bet["violations"][0] and bet["added_stake"] == "200.00"


def test_bought_game_needs_the_replacement_card():
    with pytest.raises(EngineError) as err:
        play([ante()], {"dealer": "As Jd 8c 6h 3s", "boxes": [hand("Qs Qh Qd 7c 2d", "raise", "buy_game")]})
    assert err.value.field == "outcome.dealer_replacement"


# ----------------------------------------------------------------------------------- insurance


@pytest.mark.parametrize(
    "amount, ok", [("99.00", False), ("100.00", True), ("500.00", True), ("500.01", False)]
)
def test_000_insurance_range(amount, ok):
    out = play(
        [ante(), side("insurance", amount)], {"dealer": NO_GAME, "boxes": [hand("2h 6h 9h Jh Qh", "raise")]}
    )
    ins = out["bets"][1]
    assert ("violations" not in ins) == ok
    assert ins["status"] == ("won" if ok else "void")


def test_insurance_needs_three_of_a_kind():
    out = play(
        [ante(), side("insurance", "100.00")], {"dealer": NO_GAME, "boxes": [hand("2h 2c 9h Jh Qh", "raise")]}
    )
    assert "three of a kind" in out["bets"][1]["violations"][0] and out["bets"][1]["payout"] == "100.00"


def test_004_dark_box_cannot_fold_or_insure():
    out = play(
        [ante(dark=True), side("insurance", "100.00")],
        {"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", "fold")]},
        "standard",
        "004",
    )
    bet, ins = out["bets"]
    assert "cannot fold" in bet["violations"][0] and bet["winnings"] == "600.00"
    assert "dark box" in ins["violations"][0] and ins["payout"] == "100.00"


# ----------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "outcome, field",
    [
        ({"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d")]}, "outcome.boxes[0].actions"),
        ({"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c As", "raise")]}, "outcome.boxes[0].cards"),
        ({"dealer": "As Kd 9c 5s", "boxes": [hand("Qs Qh Qd 7c 2d", "raise")]}, "outcome.dealer"),
        (
            {
                "dealer": AK_DEALER,
                "boxes": [
                    hand("Qs Qh Qd 7c 2d", {"action": "exchange", "out": ["3c"], "in": ["4c"]}, "raise")
                ],
            },
            "outcome.boxes[0].actions[0].out",
        ),
        (
            {"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", {"action": "double"})]},
            "outcome.boxes[0].actions[0].action",
        ),
        ({"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", "raise", box=2)]}, "outcome.boxes"),
    ],
)
def test_malformed_outcomes(outcome, field):
    with pytest.raises(EngineError) as err:
        play([ante()], outcome)
    assert err.value.field == field


def test_bad_bets():
    outcome = {"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", "raise")]}
    with pytest.raises(EngineError) as err:
        play([ante(), {"type": "trips", "stake": "5.00", "box": 1}], outcome)
    assert err.value.field == "bets[1].type"
    with pytest.raises(EngineError) as err:
        play([ante(), side("bonus", "5.00", box=2)], outcome)
    assert err.value.field == "bets[1].box"
    with pytest.raises(EngineError) as err:
        play([ante(dark=True)], outcome)  # no dark boxes in 000
    assert err.value.field == "bets[0].dark"


def test_004_bonus_needs_the_jackpot_shares():
    with pytest.raises(EngineError) as err:
        play(
            [ante(), side("bonus", "10.00")],
            {"dealer": AK_DEALER, "boxes": [hand("Qs Qh Qd 7c 2d", "raise")]},
            "standard",
            "004",
        )
    assert err.value.field == "rules.bonus.jackpot_share.straight_flush"


def test_004_bonus_jackpot_share_and_limits():
    rules = copy.deepcopy(RUSSIAN_004)
    rules["bonus"]["jackpot_share"] = {"straight_flush": "1/10", "royal_flush": "1/2"}
    outcome = {"dealer": AK_DEALER, "boxes": [hand("9h Th Jh Qh Kh", "raise")], "bonus_jackpot": "12345.67"}
    out = play([ante(), side("bonus", "10.00")], outcome, "standard", "004", rules=rules)
    assert out["bets"][1]["winnings"] == "1234.56" and out["bets"][1]["category"] == "jackpot"
    out = play([ante(), side("bonus", "4.00")], outcome, "standard", "004", rules=rules)
    assert out["bets"][1]["status"] == "void" and "at least" in out["bets"][1]["violations"][0]
    out = play([ante(), side("bonus", "100.01")], outcome, "standard", "004", rules=rules)
    assert out["bets"][1]["status"] == "void"
    with pytest.raises(EngineError) as err:
        play(
            [ante(), side("bonus", "10.00")],
            {**outcome, "bonus_jackpot": None},
            "standard",
            "004",
            rules=rules,
        )
    assert err.value.field == "outcome.bonus_jackpot"


def test_casino_limit_voids_the_excess_and_the_raise_follows_the_valid_ante():
    out = play([ante("8000.00")], {"dealer": AK_DEALER, "boxes": [hand("2h 6h 9h Jh Qh", "raise")]})
    bet = out["bets"][0]
    assert (bet["valid_stake"], bet["voided_excess"], bet["added_stake"]) == (
        "7000.00",
        "1000.00",
        "14000.00",
    )
    assert bet["winnings"] == "70000.00" and bet["payout"] == "92000.00"


# ----------------------------------------------------------------------------------------- Novo


def test_novo_express_bonus_rules():
    outcome = {"dealer": "As Kc 9c 5s 2c", "boxes": [hand("Jc Jd Qs Kh Kd", "fold")]}
    out = play([ante("50.00")], outcome, "standard", "004", "novo_poker")
    assert "mandatory" in out["bets"][0]["violations"][0]
    out = play([ante("50.00"), side("express_bonus", "40.00")], outcome, "standard", "004", "novo_poker")
    assert out["bets"][1]["status"] == "void"
    out = play(
        [
            ante("50.00", player="P1"),
            side("express_bonus", "50.00", player="P1"),
            {"type": "bonus", "stake": "10.00", "on": 1, "player": "P1"},
        ],
        outcome,
        "standard",
        "004",
        "novo_poker",
    )
    assert "own box" in out["bets"][2]["violations"][0]


@pytest.mark.parametrize(
    "cards, expected",
    [
        ("2h 5d 9h Jd Kh", "five_same_colour"),
        ("Ac Kd Qh 5s 2c", "ace_king_queen"),
        ("7c 7d 7h 2s 9c", "three_of_a_kind"),
        ("4c 5d 6h 7s 8c", "straight"),
        ("2c 5c 9c Jc Kc", "flush"),
        ("8c 8d 8h 2s 2c", "full_house"),
        ("Jc Jd Qs Kh Kd", "five_pictures"),
        ("Jc Jd Js Jh Kd", "four_of_a_kind"),
        ("9c 9d 5h 2s 3c", None),
    ],
)
def test_novo_bonus_categories(cards, expected):
    assert novo_bonus_hand(NOVO_004["novo_bonus_table"], parse_cards(cards, "x")) == expected


# ------------------------------------------------------------------------------------------ figures


def test_paytable_max_win_and_the_cap():
    top = paytable_max_win(VERSIONS_000["A"])
    assert top["ante"] == 300 and top["bonus"] == 5000 and top["insurance"] == 1
    # 000-casino Ambiguity 10(a): the casino's 7 000 box maximum times the 5 000:1 bonus exceeds the cap
    assert Decimal(7000) * Decimal(top["bonus"].numerator) == Decimal(35_000_000) > Decimal(5_000_000)
    assert paytable_max_win(RUSSIAN_004)["bonus"] == "jackpot share"
    changed = {
        **VERSIONS_000["A"],
        "double_table": {**VERSIONS_000["A"]["double_table"], "royal_flush+straight_flush": "200"},
    }
    assert paytable_max_win(changed)["ante"] == 400


def test_rule_data_drives_the_payout():
    rules = copy.deepcopy(VERSIONS_000["A"])
    rules["raise_table"]["flush"] = "6"
    doc = {
        "kind": "round",
        "rulebook": "000",
        "venue": "casino",
        "game": "russian_poker",
        "variant": "A",
        "rules": rules,
        "bets": [ante()],
        "outcome": {"dealer": AK_DEALER, "boxes": [hand("2h 6h 9h Jh Qh", "raise")]},
    }
    assert compute(doc)["bets"][0]["winnings"] == "1200.00"


# ------------------------------------------------------------------------------------- properties

ENGINE = {(e.rulebook, e.game): e for e in ENGINES}


def settle_raise(engine, variant, stake, player, dealer):
    bets = [Bet(0, "ante", stake, box=1), Bet(1, "bonus", Decimal("5.00"), box=1)]
    outcome = {
        "dealer": dealer,
        "boxes": [{"box": 1, "cards": player, "actions": [{"action": "raise"}]}],
        "bonus_jackpot": "1000.00",
    }
    return engine.settle(variant, bets, outcome)


deals = st.permutations(DECK).map(lambda d: (d[:5], d[5:10], d[10:15]))
stakes = st.integers(min_value=5, max_value=700_000).map(lambda c: Decimal(c) / 100)
VARIANTS = [(("000", "russian_poker"), VERSIONS_000["A"])]
R004 = copy.deepcopy(RUSSIAN_004)
R004["bonus"]["jackpot_share"] = {"straight_flush": "1/10", "royal_flush": "1/2"}
VARIANTS.append((("004", "russian_poker"), R004))


@settings(max_examples=150, deadline=None)
@given(deals, stakes, st.sampled_from(VARIANTS))
def test_higher_hand_never_pays_less_and_money_is_conserved(deal, stake, which):
    key, variant = which
    dealer, a, b = deal
    ra, rb = (
        settle_raise(ENGINE[key], variant, stake, a, dealer),
        settle_raise(ENGINE[key], variant, stake, b, dealer),
    )
    for results in (ra, rb):
        for r in results:
            assert r.returned >= 0 and r.winnings >= 0
            assert r.returned <= r.added_stake + stake + Decimal("5.00")
    # "Higher-ranked" is the combination's rank: within one combination the tables pay a pair with an
    # ace and king (2:1) more than a higher pair without (1:1), so hands of one category are not compared.
    cats = [hand_category(parse_cards(x, "h")) for x in (a, b)]
    pay = [ra[0].returned + ra[0].winnings, rb[0].returned + rb[0].winnings]
    bonus = [ra[1].winnings, rb[1].winnings]
    if LEVEL[cats[0]] != LEVEL[cats[1]]:
        hi, lo = (0, 1) if LEVEL[cats[0]] > LEVEL[cats[1]] else (1, 0)
        assert pay[hi] >= pay[lo]
        if key[0] == "000":  # the 000 bonus table also rises with the hand
            assert bonus[hi] >= bonus[lo]
