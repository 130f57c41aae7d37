"""The end-of-day posting of a jackpot's ledger, as a pure computation (no Django, no database):
the day's accruals in, the ledger lines out (docs/casino-operations.md, "Jackpots").

The jackpot holds a **pot** (the amount shown at the table) and a **held reserve** (what went above
the maximum, when the terms hold it rather than pass it to the next pot). The operator's liability is
their sum. A posting walks the accruals of the verified rounds in the order they were played:

1. A round's wins are paid from the pot **as it stood when the round began** (the pot shown, which a
   progressive table reports as its outcome's pot field); the round's own contributions go in after
   its wins. Before a round of the day itself, a progressive jackpot's pot shown is compared with the
   pot the ledger says was showing (the posted pot and the contributions so far, capped at the
   maximum); a difference is a **mismatch** (a discrepancy for a person to resolve). The win stays what
   the engine computed from the pot shown (what the player was shown is what was won), and the ledger
   pays it.
2. Contributions accumulate and are written as **one line** before each win and at the end of the day;
   what goes above the maximum leaves the pot in an **overflow** line: into the held reserve, or to
   the next pot (a line on that jackpot too).
3. A win larger than the pot is preceded by a **reset** line that tops the pot up to the win (from the
   held reserve first, then the operator's money); after a win the pot is brought back to the **reset
   amount** the same way.

So, per line and in total: balance = seed + resets + contributions - wins + transfers in - transfers
out, the pot and the reserve never below zero (`tests/casino/test_jackpot_ledger.py` holds it with
hypothesis).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from itertools import groupby

SEED, CONTRIBUTION, WIN, RESET, OVERFLOW, TRANSFER = "seed", "contribution", "win", "reset", "overflow", "transfer"
#: Line kinds whose net change is money the operator put in.
FUNDING = (SEED, RESET)
#: Why a line moved money (JackpotEntry.Reason).
COVER, RESET_AMOUNT, ABOVE_MAX, RECEIVED, REMOVAL = "cover", "reset", "above_max", "received", "removal"
HELD, NEXT_POT = "held", "next_pot"
PROGRESSIVE = "progressive"


def contribution_cents(stake_cents: int, rate: Decimal) -> int:
    """The participation stake's share for the pot, exact, rounded down to the cent once: what is
    left of the cent stays with the participation fee (the operator's, not the jackpot's)."""
    if stake_cents < 0 or not (Decimal(0) <= rate <= Decimal(1)):
        raise ValueError("a stake is not negative and a rate is a fraction from 0 to 1")
    return int((Decimal(stake_cents) * rate).to_integral_value(rounding=ROUND_DOWN))


@dataclass(frozen=True)
class Terms:
    """What the posting needs of the jackpot version an accrual was made under."""

    kind: str
    reset_cents: int
    max_cents: int | None = None
    overflow: str = HELD
    next_pot: Hashable | None = None  # the jackpot that takes the overflow (NEXT_POT)


@dataclass(frozen=True)
class Accrual:
    """One bet's accrual. `round` groups a round's bets; `compare`: a round of the day being posted
    (a late round, reported after its day was posted, is not compared: the pot it saw is past)."""

    key: Hashable
    round: Hashable
    terms: Terms
    contribution_cents: int = 0
    win_cents: int = 0
    pot_shown_cents: int | None = None
    compare: bool = True


@dataclass(frozen=True)
class Line:
    kind: str
    amount_cents: int  # change of the pot
    held_cents: int  # change of the held reserve
    pot_after_cents: int
    held_after_cents: int
    accrual: Hashable | None = None
    counterpart: Hashable | None = None
    reason: str = ""

    @property
    def net_cents(self) -> int:
        return self.amount_cents + self.held_cents


@dataclass(frozen=True)
class Mismatch:
    round: Hashable
    accrual: Hashable
    shown_cents: int
    ledger_cents: int


@dataclass
class Ledger:
    """A jackpot's balance while lines are written to it."""

    pot_cents: int = 0
    held_cents: int = 0
    lines: list[Line] = field(default_factory=list)

    def write(self, kind: str, amount: int, held: int = 0, **extra) -> Line:
        pot, reserve = self.pot_cents + amount, self.held_cents + held
        if pot < 0 or reserve < 0:
            raise ValueError(f"a {kind} line of {amount}/{held} leaves the pot at {pot} and the reserve at {reserve}")
        self.pot_cents, self.held_cents = pot, reserve
        line = Line(kind, amount, held, pot, reserve, **extra)
        self.lines.append(line)
        return line

    def fund(self, target_cents: int, reason: str, accrual: Hashable | None = None) -> None:
        """Bring the pot up to `target_cents`: from the held reserve first, then the operator's money."""
        need = target_cents - self.pot_cents
        if need <= 0:
            return
        from_reserve = min(self.held_cents, need)
        self.write(RESET, need, -from_reserve, accrual=accrual, reason=reason)


@dataclass
class Plan:
    lines: list[Line]
    #: (next pot, amount) the overflow lines sent to other jackpots: a line of kind OVERFLOW there.
    sent: list[tuple[Hashable, int]]
    mismatches: list[Mismatch]
    pot_cents: int
    held_cents: int


def plan_posting(pot_cents: int, held_cents: int, accruals: Sequence[Accrual],
                 open_pots: frozenset | None = None) -> Plan:
    """The lines of a posting that starts from the posted pot and reserve, for the accruals in the
    order played (the caller sorts them: played_at, round, bet). `open_pots`: the next pots that still
    take an overflow (a removed next pot does not: the excess is held instead); None: all."""
    ledger = Ledger(pot_cents, held_cents)
    sent: list[tuple[Hashable, int]] = []
    mismatches: list[Mismatch] = []
    pending = 0
    terms: Terms | None = None

    def flush() -> None:
        nonlocal pending
        if not pending or terms is None:
            pending = 0
            return
        if ledger.pot_cents + pending < 0:  # a correction took back more than the pot holds now
            ledger.fund(-pending, COVER)
        ledger.write(CONTRIBUTION, pending)
        pending = 0
        top = terms.max_cents
        if top is not None and ledger.pot_cents > top:
            excess = ledger.pot_cents - top
            target = terms.next_pot if terms.overflow == NEXT_POT else None
            if target is not None and (open_pots is None or target in open_pots):
                ledger.write(OVERFLOW, -excess, 0, counterpart=target, reason=ABOVE_MAX)
                sent.append((target, excess))
            else:
                ledger.write(OVERFLOW, -excess, excess, reason=ABOVE_MAX)

    for round_key, group in groupby(accruals, key=lambda a: a.round):
        bets = list(group)
        first = bets[0]
        terms = first.terms
        if first.compare and terms.kind == PROGRESSIVE and first.pot_shown_cents is not None:
            expected = ledger.pot_cents + pending
            if terms.max_cents is not None and pending > 0:
                expected = min(expected, max(terms.max_cents, ledger.pot_cents))
            if first.pot_shown_cents != expected:
                mismatches.append(Mismatch(round_key, first.key, first.pot_shown_cents, expected))
        for a in bets:
            if not a.win_cents:
                continue
            flush()
            if a.win_cents > 0:
                ledger.fund(a.win_cents, COVER, a.key)
            ledger.write(WIN, -a.win_cents, 0, accrual=a.key)
            ledger.fund(a.terms.reset_cents, RESET_AMOUNT, a.key)
        pending += sum(a.contribution_cents for a in bets)
        terms = bets[-1].terms
    flush()
    return Plan(ledger.lines, sent, mismatches, ledger.pot_cents, ledger.held_cents)


def totals(lines: Sequence[Line]) -> dict[str, int]:
    """funded, contributions, wins, transfers (net, in cents) of some lines: the figures of a posting
    and of the liability report (wins as a positive amount paid out)."""
    out = {"funded": 0, "contributions": 0, "wins": 0, "transfers": 0}
    for line in lines:
        out[column_of(line.kind)] += -line.net_cents if line.kind == WIN else line.net_cents
    return out


def column_of(kind: str) -> str:
    """The figure a line kind counts in: funded, contributions, wins or transfers."""
    if kind in FUNDING:
        return "funded"
    if kind == CONTRIBUTION:
        return "contributions"
    if kind == WIN:
        return "wins"
    return "transfers"

