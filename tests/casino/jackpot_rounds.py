"""Ultimate Texas Hold'em rounds with a progressive bet for the jackpot tests, paid as the engine says
(the verification then finds nothing but what a test plants)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from casino import operations, verification
from casino.games.registry import family_of
from casino.models import CasinoRuleVersion, RoundBatch

#: Hole cards and board: the progressive pays on the two hole cards and the flop (the demo's table).
NOTHING = ("2d 7c", "9h Jd 3s 5c Kd")
ROYAL = ("As Ks", "Qs Js Ts 2d 3c")  # 100 % of the pot shown
STRAIGHT_FLUSH = ("9h 8h", "7h 6h 5h 2d 3c")  # 10 % of the pot shown
FLUSH = ("Ah Kh", "Qh 2h 9h 3c 4d")  # a fixed 50 €


def played(day: dt.date, minute: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)) + dt.timedelta(minutes=minute))


def uth_round(table, ref: str, when: dt.datetime, deal=NOTHING, pot_cents: int = 1_000_000, *, progressive="1.00",
              ante="10.00", paid=None, corrects: str | None = None) -> dict:
    """One box: ante, blind and a progressive bet, folded at the river (the progressive is paid anyway)."""
    hole, board = deal
    bets = [{"type": "ante", "stake": ante, "box": 1}, {"type": "blind", "stake": ante, "box": 1},
            {"type": "progressive", "stake": progressive, "box": 1}]
    outcome = {"dealer": "8s 4c", "board": board,
               "boxes": {"1": {"cards": hole, "actions": {"preflop": "check", "flop": "check", "river": "fold"}}},
               "progressive_pot": f"{pot_cents // 100}.{pot_cents % 100:02d}"}
    if paid is None:
        paid = due(table, when, bets, outcome)
    doc = {"table": table.pk, "ref": ref, "played_at": when.isoformat(), "bets": bets, "outcome": outcome,
           "paid": [f"{c // 100}.{c % 100:02d}" for c in paid]}
    if corrects:
        doc["corrects"] = corrects
    return doc


def due(table, when, bets, outcome) -> list[int]:
    venue = table.venue
    version = table.versions.filter(effective_from__lte=when).order_by("-effective_from").first()
    rules = CasinoRuleVersion.objects.filter(rulebook=venue.rulebook, game=table.game, variant=version.variant,
                                             effective_from__lte=when).order_by("-effective_from").first()
    return family_of(table.game).verification.verify(
        rulebook=venue.rulebook, game=table.game, variant=version.variant, rules=rules.rules,
        venue=operations.engine_venue(venue, version), bets=bets, outcome=outcome, paid_cents=[0] * len(bets)).due_cents


def record(rounds, actor="system:test", verify: bool = True) -> RoundBatch:
    batch = operations.rounds_record(actor=actor, rounds=rounds, source=RoundBatch.Source.API, verify=False)
    if verify:
        verification.verify_batch(batch.pk)
    return batch
