"""The shared vocabulary of the casino rules engines (no Django, no database).

A round is settled in four steps, the same for every house-banked game (docs/casino.md):

1. **Age**: a bet whose player is younger than the venue's minimum age is refused whole (stake
   returned, no part in the round).
2. **Stake limits** (000-casino §2.1-2.2, §2.5, Ambiguity 4): each bet's *initial* stake is checked
   against the venue's maximum for its limit class; the excess is voided, returned, and takes no
   part in the round. Raises the rules allow (double, split, insurance, raise, buy) are not limited.
3. **The game engine** settles every bet on its valid stake: what is returned of the stake, what is
   won on top, and the rule clause that says so.
4. **Win cap** (000-casino §2.3, Ambiguity 10, E16): the winnings of one player in one round (base
   game + side games + jackpot) are capped; the excess is taken from jackpot wins first, then side-game
   wins, then base-game wins, largest win first within each group. Returned stakes are never capped.

Money is `Decimal` in euros with two places at the edges; inside, ratios are exact `Fraction`s and a
payout is rounded once, down to the cent (DESIGN §2, 000-casino Ambiguity 8).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Protocol

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
#: The largest amount an input may name (a bound, so absurd input is refused, not computed).
MAX_AMOUNT = Decimal("1000000000.00")

#: Bet categories for the win cap's order (Ambiguity 10c): excess comes off jackpot, then side, then base.
BASE, SIDE, JACKPOT = "base", "side", "jackpot"
CAP_ORDER = (JACKPOT, SIDE, BASE)

# What became of a bet (BetResult.status).
WON, LOST, PUSH, HALF_BACK, IMPRISONED, VOID, REFUSED = (
    "won",
    "lost",
    "push",
    "half_back",
    "imprisoned",
    "void",
    "refused",
)


class EngineError(ValueError):
    """Bad input: `field` is a dotted path into the JSON round (`bets[2].stake`, `outcome.number`)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


# --------------------------------------------------------------------------------------------- money


def parse_money(value: Any, field: str, *, allow_zero: bool = False) -> Decimal:
    """A decimal string or integer of euros with at most two places; floats are refused (inexact)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise EngineError(field, "give the amount as a decimal string such as \"25.00\" (not a float)")
    if isinstance(value, int):
        amount = Decimal(value)
    elif isinstance(value, str):
        try:
            amount = Decimal(value.strip())
        except InvalidOperation:
            raise EngineError(field, f"{value!r} is not an amount such as \"25.00\"") from None
    else:
        raise EngineError(field, "an amount is a decimal string such as \"25.00\"")
    if not amount.is_finite():
        raise EngineError(field, "the amount must be a finite number")
    if amount != amount.quantize(CENT, rounding=ROUND_DOWN):
        raise EngineError(field, "an amount has at most two decimal places (cents)")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise EngineError(field, "the amount must be positive")
    if amount > MAX_AMOUNT:
        raise EngineError(field, f"the amount is above the largest accepted ({MAX_AMOUNT})")
    return amount.quantize(CENT)


def to_cents_down(value: Fraction | Decimal | int) -> Decimal:
    """Round an exact amount down to the cent (the one rounding; Ambiguity 8)."""
    exact = Fraction(value)
    cents = exact.numerator * 100 // exact.denominator
    return (Decimal(cents) / 100).quantize(CENT)


def win(stake: Decimal, ratio: Fraction | int | str) -> Decimal:
    """Winnings of `stake` at odds `ratio`:1 (3:2 is Fraction(3, 2)), rounded down to the cent."""
    return to_cents_down(Fraction(stake) * Fraction(ratio))


def money_str(value: Decimal) -> str:
    return str(value.quantize(CENT))


# ---------------------------------------------------------------------------------------------- bets


@dataclass(frozen=True)
class Bet:
    """One bet as the table recorded it. `params` holds what the bet type needs (numbers, symbol, ...)."""

    index: int  # position in the round's `bets` list (answers keep this order)
    type: str
    stake: Decimal
    box: int | None = None
    player: str | None = None
    player_age: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"bets[{self.index}]"


@dataclass(frozen=True)
class BetResult:
    """What one bet gets. payout = returned + winnings (before the cap)."""

    index: int
    status: str  # WON, LOST, PUSH, HALF_BACK, IMPRISONED, VOID, REFUSED
    returned: Decimal  # the part of the valid stake given back (a win or push: all of it; half-back: half)
    winnings: Decimal  # won on top of the returned stake
    rule: str  # the clause, e.g. "000-casino C-1: straight up 35:1"
    category: str = BASE  # BASE, SIDE or JACKPOT (cap order)
    note: str = ""  # anything staff should read: an action the rules did not allow, a held bet ...
    # Money the player added during the round beyond the recorded initial stake: doubles, splits,
    # raises, buying a card (never limited, Ambiguity 4). `returned` and `winnings` count it in:
    # a won double of 10 + 10 at 1:1 returns 20.00 and wins 20.00 with added_stake 10.00.
    added_stake: Decimal = ZERO
    # Filled in by settle_round:
    stake: Decimal = ZERO  # the stake as recorded
    valid_stake: Decimal = ZERO  # after the limit (what took part in the round)
    voided_excess: Decimal = ZERO
    capped_excess: Decimal = ZERO
    violations: tuple[str, ...] = ()  # plays the rules did not allow (reported, never silently settled)

    @property
    def payout(self) -> Decimal:
        return self.returned + self.voided_excess + self.winnings - self.capped_excess


# ------------------------------------------------------------------------------------------- engines


class TableGame(Protocol):
    """What every game family module exports (in its `ENGINES` list) for the registry.

    `variants` maps a variant code to its rule data (JSON-able: paytables, dealer rules, ...). A
    variant's data is versioned: the round may carry a published rule version's data instead, and the
    engine reads only what it is given, so a changed paytable changes the computation.
    """

    rulebook: str  # "000" (casino digest), "002" (RAY), "004" (Billionaire)
    game: str  # e.g. "roulette", "blackjack"
    variants: Mapping[str, Mapping[str, Any]]
    #: The outcome's fields as staff enter them (`casino.rules.fields`: Field and Boxes), from which
    #: the round-check page builds its form.
    outcome_fields: tuple[Any, ...]

    def limit_class(self, bet: Bet, variant: Mapping[str, Any]) -> str:
        """The stake-limit class of a bet (e.g. `roulette_inside_1`, `card_box`, `dice_bet`)."""

    def parse_bets(self, bets: Sequence[Bet], variant: Mapping[str, Any]) -> None:
        """Refuse bet types and params the variant does not have (EngineError naming the field)."""

    def settle(
        self, variant: Mapping[str, Any], bets: Sequence[Bet], outcome: Mapping[str, Any]
    ) -> list[BetResult]:
        """Settle every bet on its (already limited) stake; one BetResult per bet, same order."""

    # Optional: an engine whose bets are made of parts with limit classes of their own (a roulette
    # call bet: splits, streets, corners) defines ``valid_stake(bet, variant, limit_of) -> Decimal``;
    # ``limit_of(cls)`` gives a class's maximum (None: no limit). settle_round then uses it instead
    # of ``limit_class``.
    #
    # Optional: ``settles_bets_alone = True`` declares that the engine settles every bet on its own:
    # ``parse_bets``, the stake limit and ``settle`` of a bet read neither the other bets nor the bet's
    # ``box`` and ``player`` (which only group winnings under the win cap), so a bet's result in a round
    # is the result of the same bet settled as a round of its own, as long as the cap takes nothing.
    # Verification then asks the engine bet by bet (casino.games.spec); tests/casino/test_bet_alone.py
    # holds every engine that declares it to that, exhaustively for roulette.


@dataclass(frozen=True)
class Venue:
    """The legal frame of a round: limits by class, the win cap and the minimum age."""

    kind: str  # "game_hall", "casino", "ray", "billionaire"
    # limit class -> maximum initial stake; a missing class: no limit; None: the venue object must give it
    max_stake: Mapping[str, Decimal | None]
    win_cap: Decimal | None  # winnings of one player in one round, or None
    min_age: int
    rule: str  # where the numbers come from, e.g. "000-casino §2.2, §2.3"
    # Whose winnings the cap adds up: "player" (the named player, else the box) or "box" (the box,
    # else the player: Billionaire's per-box maximum payout, 004 A28).
    cap_scope: str = "player"


@dataclass(frozen=True)
class RoundResult:
    bets: list[BetResult]
    voided_excess: Decimal
    capped_excess: Decimal
    total_return: Decimal
    capped: bool


# ------------------------------------------------------------------------------------------ a round


def _player_key(bet: Bet, scope: str = "player") -> str:
    """Whose winnings are capped together: the named player, else the box, else the whole round
    (with scope "box": the box first)."""
    if scope == "box" and bet.box is not None:
        return f"box:{bet.box}"
    if bet.player:
        return f"player:{bet.player}"
    if bet.box is not None:
        return f"box:{bet.box}"
    return "round"


def _limit(venue: Venue, cls: str, bet: Bet) -> Decimal | None:
    """The maximum of a limit class; a class the legal frame leaves to the table (value None: the
    rulebook's figure is lost, RAY) must be given by the round's venue object."""
    if cls in venue.max_stake and venue.max_stake[cls] is None:
        raise EngineError(
            f"venue.max_stake.{cls}",
            f"is required for {bet.where} ({venue.rule}: the legal maximum is not known; give the table's)",
        )
    return venue.max_stake.get(cls)


def settle_round(
    engine: TableGame,
    variant: Mapping[str, Any],
    venue: Venue,
    bets: Sequence[Bet],
    outcome: Mapping[str, Any],
) -> RoundResult:
    engine.parse_bets(bets, variant)
    # 1. age, 2. limits: the engine sees only the valid part of each bet.
    valid: list[Bet] = []
    refused: dict[int, BetResult] = {}
    excess: dict[int, Decimal] = {}
    for bet in bets:
        if bet.player_age is not None and bet.player_age < venue.min_age:
            refused[bet.index] = BetResult(
                bet.index,
                REFUSED,
                returned=bet.stake,
                winnings=ZERO,
                rule=f"{venue.rule}: minimum age {venue.min_age}",
                note=f"the player is {bet.player_age}; the stake is refused and returned",
            )
            continue
        hook = getattr(engine, "valid_stake", None)
        if hook is not None:  # a bet made of parts with classes of their own (roulette call bets)
            allowed = hook(bet, variant, lambda cls, b=bet: _limit(venue, cls, b))
            over = bet.stake - allowed if allowed < bet.stake else ZERO
        else:
            limit = _limit(venue, engine.limit_class(bet, variant), bet)
            over = bet.stake - limit if limit is not None and bet.stake > limit else ZERO
        excess[bet.index] = over
        valid.append(dataclasses.replace(bet, stake=bet.stake - over))
    settled = {r.index: r for r in engine.settle(variant, valid, outcome)} if valid else {}
    results: list[BetResult] = []
    for bet in bets:
        if bet.index in refused:
            results.append(dataclasses.replace(refused[bet.index], stake=bet.stake))
            continue
        r = settled[bet.index]
        results.append(
            dataclasses.replace(
                r, stake=bet.stake, valid_stake=bet.stake - excess[bet.index], voided_excess=excess[bet.index]
            )
        )
    # 4. the win cap, per player.
    capped_any = False
    if venue.win_cap is not None:
        by_player: dict[str, list[int]] = {}
        for pos, (bet, r) in enumerate(zip(bets, results)):
            if r.winnings > 0:
                by_player.setdefault(_player_key(bet, venue.cap_scope), []).append(pos)
        for positions in by_player.values():
            over = sum((results[p].winnings for p in positions), ZERO) - venue.win_cap
            if over <= 0:
                continue
            capped_any = True
            order = sorted(
                positions, key=lambda p: (CAP_ORDER.index(results[p].category), -results[p].winnings, p)
            )
            for p in order:
                if over <= 0:
                    break
                cut = min(over, results[p].winnings)
                results[p] = dataclasses.replace(results[p], capped_excess=cut)
                over -= cut
    return RoundResult(
        bets=results,
        voided_excess=sum((r.voided_excess for r in results), ZERO),
        capped_excess=sum((r.capped_excess for r in results), ZERO),
        total_return=sum((r.payout for r in results), ZERO),
        capped=capped_any,
    )


# -------------------------------------------------------------------------------------- small helpers


def require(data: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise EngineError(where, "must be a JSON object")
    if key not in data:
        raise EngineError(f"{where}.{key}" if where else key, "is required")
    return data[key]


def one_of(value: Any, allowed: Iterable[str], field: str) -> str:
    allowed = list(allowed)
    if value not in allowed:
        raise EngineError(field, f"{value!r} is not one of: {', '.join(map(str, allowed))}")
    return value


def lost(bet: Bet, rule: str, category: str = BASE, note: str = "") -> BetResult:
    return BetResult(bet.index, LOST, returned=ZERO, winnings=ZERO, rule=rule, category=category, note=note)


def won(bet: Bet, ratio: Fraction | int | str, rule: str, category: str = BASE, note: str = "") -> BetResult:
    return BetResult(
        bet.index, WON, returned=bet.stake, winnings=win(bet.stake, ratio), rule=rule, category=category, note=note
    )


def push(bet: Bet, rule: str, category: str = BASE, note: str = "") -> BetResult:
    return BetResult(bet.index, PUSH, returned=bet.stake, winnings=ZERO, rule=rule, category=category, note=note)


def void(bet: Bet, rule: str, category: str = BASE, note: str = "") -> BetResult:
    """A void game: no win, the stake stands or is returned (000-casino Ambiguity 9): returned here."""
    return BetResult(bet.index, VOID, returned=bet.stake, winnings=ZERO, rule=rule, category=category, note=note)


Settler = Callable[[Mapping[str, Any], Sequence[Bet], Mapping[str, Any]], list[BetResult]]
