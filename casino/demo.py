"""Demo casino data for `manage.py seed_demo`: every built-in variant published as version 1 from
2026-01-01 (operator's zone), and two recorded round checks by the demo operator: one paid right,
one overpaid (the game hall's stake limit was not applied). Idempotent."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from . import demo_jackpots, demo_operations, dispute_demo, services
from .models import RoundCheck

ACTOR = "system:seed_demo"
EFFECTIVE_FROM = dt.datetime(2026, 1, 1)

DEMO_CHECKS = [
    {"venue": "casino", "rulebook": "000", "game": "roulette", "variant": "single_zero_la_partage",
     "bets": [{"type": "split", "numbers": [17, 20], "stake": "100.00", "box": 1},
              {"type": "red", "stake": "50.00", "box": 1}],
     "outcome": {"number": 20}, "paid": ["1800.00", "0.00"]},
    {"venue": "game_hall", "rulebook": "000", "game": "roulette", "variant": "game_hall_a",
     "bets": [{"type": "straight", "numbers": [7], "stake": "15.00", "box": 2}],
     "outcome": {"number": 7}, "paid": ["465.00"]},  # paid as if 15 € were allowed: 10 € is the limit
]


def seed(stdout) -> None:
    published = services.publish_builtin_variants(
        actor=ACTOR, effective_from=timezone.make_aware(EFFECTIVE_FROM),
        source="built-in data of casino.rules (demo)")
    stdout.write(f"Casino: {len(published)} rule version(s) published")
    operator = get_user_model().objects.filter(username="operator").first()
    if operator is None or RoundCheck.objects.filter(checked_by=operator).exists():
        return
    for round_ in DEMO_CHECKS:
        services.round_check(actor=operator, round_at=timezone.now(), **round_)
    stdout.write(f"Casino: {len(DEMO_CHECKS)} round checks by {operator.get_username()}")


def seed_all(stdout) -> None:
    """The rule versions and checks above, then the venues, tables and a day of rounds, then the jackpot
    (whose game instructions' progressive table is published before the built-in variants), a dispute
    and complaints."""
    demo_jackpots.publish_instructions(stdout, timezone.make_aware(EFFECTIVE_FROM))
    seed(stdout)
    demo_operations.seed(stdout)
    demo_jackpots.seed(stdout)
    dispute_demo.seed(stdout)
