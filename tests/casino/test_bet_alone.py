"""Verification asks an engine that settles each bet alone (``settles_bets_alone``) bet by bet, each
(bet, outcome, rule data, frame) once per process (casino.games.spec): its verdict must be the whole
engine's. Proven exhaustively for roulette (every legal bet of every variant on every number of its
wheel, and void spins) and over random rounds for every engine that declares it (hypothesis): limits
voided, players refused by age, the win cap reached (the whole round then goes to the engine), bets
and outcomes the engine refuses."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.games import spec
from casino.games.registry import family_of
from casino.rules import registry
from casino.rules.base import Bet, EngineError, settle_round
from casino.rules.games import dice, roulette, wheels
from casino.rules.venues import venue_from_json

ALONE = sorted(key for key, engine in registry.engines().items() if getattr(engine, "settles_bets_alone", False))

#: A frame per rulebook that the engines accept, as a table would give it (002 and 004 post their maxima).
LIMITS = {**{f"roulette_inside_{n}": "50.00" for n in range(1, 7)}, "roulette_outside": "300.00"}
FRAMES = {
    "000": ["casino", "game_hall", {"kind": "casino", "max_stake": {**LIMITS, "wheel_bet": "40.00", "dice_bet": "40.00"},
                                    "win_cap": "900.00"}],
    "002": [{"kind": "ray", "max_stake": dict(LIMITS), "win_cap": "800.00"},
            {"kind": "ray", "max_stake": dict(LIMITS), "win_cap": None}],
    "004": ["billionaire", {"kind": "billionaire", "max_stake": dict(LIMITS), "win_cap": "700.00"}],
}


#: Rule data of published versions for the variants whose built-in data lacks what the rulebook lost
#: (illustrative values, as an operator would publish them).
SQUARE = [[g, s] for g in range(1, 7) for s in range(1, 7)]
PUBLISHED = {
    ("000", "tuplanoppa"): {"rule": "000-casino G-4", "dice": 2, "paytable": {
        "double": {"odds": "4", "wins": [[n, n] for n in range(1, 7)]},
        "seven": {"odds": "4", "wins": [[1, 6], [2, 5], [3, 4]]}}},
    ("002", "lucky_dice"): {**dice.LUCKY_DICE["ray"], "total": {
        "3": "15", "11": "15", "4": "10", "10": "10", "5": "7", "9": "7", "6": "5", "8": "5", "7": "4"},
        "positions": {"cheval": [[[g, 1], [g, 2]] for g in range(1, 7)],
                      "transversal": [[[g, 1], [g, 2], [g, 3]] for g in range(1, 7)],
                      "carre": [[[1, 1], [1, 2], [2, 1], [2, 2]], [[5, 5], [5, 6], [6, 5], [6, 6]]],
                      "simple": [[[g, s] for s in range(1, 7)] for g in range(1, 7)]}},
}


def rule_data(rulebook: str, game: str, variant: str) -> dict:
    return PUBLISHED.get((rulebook, game)) or registry.get(rulebook, game).variants[variant]


def verdicts(rulebook, game, variant, venue, bets, outcome, paid, rules=None):
    """(bet by bet, whole engine): each verdict's due, difference and findings."""
    strategy = family_of(game).verification
    asked = dict(rulebook=rulebook, game=game, variant=variant, rules=rules, venue=venue, bets=bets, outcome=outcome,
                 paid_cents=paid)
    alone, whole = strategy.verify(**asked), strategy.verify(**asked, answer=True)
    return ((alone.due_cents, alone.difference_cents, alone.findings),
            (whole.due_cents, whole.difference_cents, whole.findings))


def accepted(engine, variant, venue, bet, outcomes) -> bool:
    """Whether the engine settles the bet alone on every one of the outcomes."""
    try:
        frame = venue_from_json(engine.rulebook, venue)
        for outcome in outcomes:
            settle_round(engine, engine.variants[variant], frame, [Bet(0, bet["type"], Decimal(bet["stake"]),
                         params={k: v for k, v in bet.items() if k not in ("type", "stake")})], outcome)
    except EngineError:
        return False
    return True


def roulette_candidates(engine, variant: str) -> list[dict]:
    """Every bet of a roulette variant: each legal inside position, field, even chance (with every
    prison level and zero choice the variant's zero rule takes) and call bet, at an odd stake."""
    data = engine.variants[variant]
    wheel = engine.wheel(data)
    bets: list[dict] = []
    for bet_type, count in roulette.INSIDE.items():
        for nums in sorted(roulette.positions(wheel)[str(count)], key=sorted):
            bets.append({"type": bet_type, "numbers": [roulette.show(n) if n == roulette.DZ else n for n in sorted(nums)],
                         "stake": "12.35"})
    for kind, count in roulette.FIELDS.items():
        bets += [{"type": kind, kind: value, "stake": "27.05"} for value in range(1, count + 1)]
    for kind in roulette.EVEN_CHANCES:
        for prison in (0, 1, 2):
            for choice in (None, "prison", "half_back", "quarter_back"):
                bet = {"type": kind, "stake": "33.33"}
                if prison:
                    bet["prison"] = prison
                if choice:
                    bet["zero_choice"] = choice
                bets.append(bet)
    for name, parts in (data.get("call_bets") or {}).items():
        bets.append({"type": name, "stake": f"{sum(p['chips'] for p in parts) * 1.25:.2f}"})
    if data.get("neighbours"):
        width = 2 * data["neighbours"]["each_side"] + 1
        bets += [{"type": "neighbours", "numbers": [roulette.show(n)], "stake": f"{width * 1.25:.2f}"}
                 for n in roulette.pockets(wheel)]
    tables = sorted(data.get("payout_tables", {})) or [None]
    probes = [{"number": n, **({"payout_table": t} if t else {})} for n in (0, 1) for t in tables]
    return [b for b in bets if accepted(engine, variant, FRAMES[engine.rulebook][0], b, probes)]


def roulette_outcomes(engine, variant: str) -> list[dict]:
    data = engine.variants[variant]
    tables = sorted(data.get("payout_tables", {})) or [None]
    return [{"number": roulette.show(n) if n == roulette.DZ else n, **({"payout_table": int(t)} if t else {})}
            for n in roulette.pockets(engine.wheel(data)) for t in tables] + [{"void": True, "reason": "no spin"}]


ROULETTES = [(r, v) for (r, g) in ALONE if g == "roulette" for v in registry.get(r, "roulette").variants]


@pytest.mark.parametrize(("rulebook", "variant"), ROULETTES)
def test_every_roulette_bet_on_every_number_is_due_what_the_whole_engine_says(rulebook, variant):
    engine = registry.get(rulebook, "roulette")
    venue = "game_hall" if variant.startswith("game_hall") else FRAMES[rulebook][0]
    bets = [{**bet, "box": i % 99 + 1} for i, bet in enumerate(roulette_candidates(engine, variant))]
    asked_alone = spec._bet_alone.cache_info()
    for outcome in roulette_outcomes(engine, variant):
        paid = [i * 7 for i in range(len(bets))]
        alone, whole = verdicts(rulebook, "roulette", variant, venue, bets, outcome, paid)
        assert alone == whole, outcome
    after = spec._bet_alone.cache_info()
    assert after.hits + after.misses - asked_alone.hits - asked_alone.misses >= len(bets)  # asked bet by bet


# ------------------------------------------------------------------------------------ random rounds


@cache
def candidates(rulebook: str, game: str, variant: str) -> list[dict]:
    engine = registry.get(rulebook, game)
    data = rule_data(rulebook, game, variant)
    if game == "roulette":
        return roulette_candidates(engine, variant)
    if game == "money_wheel":
        return [{"type": "symbol", "symbol": s, "stake": "15.00"} for s in wheels.symbols(data)]
    if game == "sic_bo":
        bets = [{"type": t} for t in ("small", "big", "any_triple")]
        bets += [{"type": t, "number": n} for t in ("single", "double", "triple") for n in range(1, 7)]
        bets += [{"type": "two_dice", "numbers": [a, b]} for a in range(1, 7) for b in range(a + 1, 7)]
        bets += [{"type": "total", "total": int(t)} for t in data["total"]]
        return [{**b, "stake": "10.50"} for b in bets]
    if game == "lucky_dice":
        squares = [[g, s] for g in range(1, 7) for s in range(1, 7)]
        bets = [{"type": "plein", "squares": [sq]} for sq in squares]
        bets += [{"type": t, "squares": [list(sq) for sq in pos]} for t, positions in data["positions"].items()
                 for pos in positions]
        bets += [{"type": "total", "total": int(t)} for t in data["total"]]
        bets += [{"type": t} for t in ("all_pairs", "under_7", "over_7")]
        return [{**b, "stake": "7.77"} for b in bets]
    return [{"type": name, "stake": "5.55"} for name in dice.Tuplanoppa.table(data)[1]]


def outcomes(rulebook: str, game: str, variant: str):
    engine = registry.get(rulebook, game)
    data = rule_data(rulebook, game, variant)
    void = st.just({"void": True})
    if game == "roulette":
        return st.sampled_from(roulette_outcomes(engine, variant))
    if game == "money_wheel":
        return st.fixed_dictionaries({"symbol": st.sampled_from(sorted(wheels.symbols(data))),
                                      "revolutions": st.integers(0, 9)},
                                     optional={"pointer_between_sectors": st.booleans(),
                                               "external_interference": st.booleans()})
    die = st.integers(1, 6)
    if game == "lucky_dice":
        return st.one_of(void, st.fixed_dictionaries({"red": die, "green": die}))
    count = 3 if game == "sic_bo" else dice.Tuplanoppa.table(data)[0]
    return st.one_of(void, st.builds(lambda d: {"dice": d}, st.lists(die, min_size=count, max_size=count)))


@st.composite
def rounds(draw):
    rulebook, game = draw(st.sampled_from(ALONE))
    variant = draw(st.sampled_from(sorted(registry.get(rulebook, game).variants)))
    pool = candidates(rulebook, game, variant)
    bets = []
    for _i in range(draw(st.integers(1, 6))):
        bet = dict(draw(st.sampled_from(pool)))  # a copy: the pool is shared
        bet["stake"] = draw(st.sampled_from([bet["stake"], "1.00", "40.00", "99.99", "450.00", "5000.00"]))
        seat = draw(st.sampled_from(["none", "box", "player", "both", "bad"]))
        if seat in ("box", "both"):
            bet["box"] = draw(st.integers(1, 4))
        if seat in ("player", "both"):
            bet["player"] = draw(st.sampled_from(["p1", "p2"]))
            bet["player_age"] = draw(st.sampled_from([16, 19, 25, 70]))
        if seat == "bad":
            bet[draw(st.sampled_from(["box", "player", "player_age"]))] = draw(st.sampled_from([0, True, "", 500]))
        if draw(st.integers(0, 30)) == 0:
            bet["type"] = "no_such_bet"
        bets.append(bet)
    outcome = draw(outcomes(rulebook, game, variant))
    venue = draw(st.sampled_from(FRAMES[rulebook] + (["game_hall"] if variant.startswith("game_hall") else [])))
    paid = [draw(st.integers(0, 20_000)) for _b in bets]
    published = (rulebook, game) in PUBLISHED or draw(st.booleans())  # the built-in data, or as a version's
    return rulebook, game, variant, venue, bets, outcome, paid, rule_data(rulebook, game, variant) if published else None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds())
def test_a_round_asked_bet_by_bet_has_the_whole_engines_verdict(round_):
    alone, whole = verdicts(*round_)
    assert alone == whole


def test_a_round_over_the_win_cap_is_asked_whole():
    venue = FRAMES["000"][2]  # a cap of 900.00
    bets = [{"type": "straight", "numbers": [17], "stake": "20.00", "box": 1},
            {"type": "split", "numbers": [17, 20], "stake": "40.00", "box": 1}]
    alone, whole = verdicts("000", "roulette", "single_zero_la_partage", venue, bets, {"number": 17}, [0, 0])
    # the box wins 700 + 680 = 1,380 and is paid 900: the 480 over the cap comes off the larger win
    assert (alone, whole[0]) == (whole, [2000 + 70000 - 48000, 4000 + 68000])
