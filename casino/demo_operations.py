"""Demo casino operations for `manage.py seed_demo` (issue 19 item 6): a game hall, Casino Helsinki
and Billionaire with their tables, and a day of recorded rounds (the last 24 hours) entered by the
demo inspector, each paid as its engine says except a few: an underpayment and an overpayment at
every venue, and at Casino Helsinki a bet of a player on the exclusion register. The rounds are
verified at once (the job body; the job the recording enqueued then finds nothing left to do), so
the discrepancies are on the compliance dashboard and the discrepancies page. Idempotent: nothing
is added when Casino Helsinki exists."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.utils import timezone

from players.models import Person

from . import operations, verification
from .games import REGISTRY
from .models import RoundBatch, Table, Venue

ACTOR = "system:seed_demo"
ROUNDS_PER_VENUE = 60
#: code, name, type, jurisdiction, currency, the table maxima the venue posts (Billionaire: 004 S2 §2.13)
VENUES = [
    ("pelisali-itis", "Pelisali Itis", Venue.Kind.GAME_HALL, "FI", "EUR", {}),
    ("casino-helsinki", "Casino Helsinki", Venue.Kind.CASINO, "FI", "EUR", {}),
    ("billionaire", "Casino Billionaire", Venue.Kind.FOREIGN_CASINO, "UA", "EUR",
     {"roulette_inside_1": 50_000, "roulette_outside": 500_000, "blackjack_box": 500_000, "poker_box": 500_000,
      "punto_banco_box": 500_000, "card_box": 500_000}),
]
FRAMES = {"pelisali-itis": ("000", "game_hall"), "casino-helsinki": ("000", "casino"),
          "billionaire": ("004", "billionaire")}
HOURS = {"pelisali-itis": "Mon-Sun 10-22", "casino-helsinki": "Mon-Sun 12-04", "billionaire": "24 h"}


def _table(venue: Venue, game: str, variant: str, limits: dict, tables: dict) -> Table:
    key = (game, variant)
    if key not in tables:
        tables[key] = operations.table_create(
            actor=ACTOR, venue=venue, code=f"{game.replace('_', '-')[:30]}-{len(tables) + 1}", game=game,
            variant=variant, min_stake_cents=100, max_stake_cents=dict(limits),
            opening_hours=HOURS[venue.code], payout_sign=f"{variant}: payout table posted at the table",
            zero_rule="la partage" if "partage" in variant else "",
            effective_from=timezone.now() - dt.timedelta(days=2))
    return tables[key]


def seed(stdout) -> None:
    if Venue.objects.filter(code="casino-helsinki").exists():
        return
    users = get_user_model().objects
    inspector = users.filter(username="inspector").first() or ACTOR
    excluded = Person.objects.filter(last_name="Mäkelä").first()  # on the demo national exclusion register
    rng = random.Random(19)
    now = timezone.now()
    families = list(REGISTRY)
    weights = [f.mix_percent for f in families]
    found = 0
    for code, name, kind, jurisdiction, currency, limits in VENUES:
        venue = operations.venue_create(actor=ACTOR, code=code, name=name, kind=kind, jurisdiction=jurisdiction,
                                        currency=currency)
        rulebook, frame = FRAMES[code]
        tables: dict = {}
        rounds = []
        wrong = {7, 23, 41}
        for i in range(ROUNDS_PER_VENUE):
            due = None
            while due is None:  # a documented round that does not fit the table's frame is drawn again
                family = rng.choices(families, weights)[0]
                doc = family.sample(rng, rulebook, frame)
                if doc is None:
                    continue
                table = _table(venue, doc["game"], doc["variant"], limits, tables)
                due = family.verification.verify(
                    rulebook=rulebook, game=doc["game"], variant=doc["variant"], rules=None,
                    venue=operations.engine_venue(venue, table.versions.get()), bets=doc["bets"],
                    outcome=doc["outcome"], paid_cents=[0] * len(doc["bets"])).due_cents
            paid = list(due)
            if i in wrong:
                paid[0] = paid[0] + (500 if i % 2 else -500) if paid[0] >= 500 else paid[0] + 500
            if i == 50 and excluded is not None and code == "casino-helsinki":
                doc["bets"][0]["person"] = excluded.pk
            rounds.append({"table": table.pk, "ref": f"{code}-{i + 1:04d}",
                           "played_at": now - dt.timedelta(minutes=24 * 60 - i * 23),
                           "bets": doc["bets"], "outcome": doc["outcome"],
                           "paid": [f"{c // 100}.{c % 100:02d}" for c in paid]})
        batch = operations.rounds_record(actor=inspector, rounds=rounds, source=RoundBatch.Source.INSPECTOR)
        found += verification.verify_batch(batch.pk)["discrepancies"]
    channel = users.filter(username="channel").first()
    if channel is not None:
        for table in Table.objects.filter(venue__code="casino-helsinki", game="roulette"):
            operations.table_assign_system(actor=ACTOR, table=table, user=channel)
    stdout.write(f"Casino: 3 venues, {len(VENUES) * ROUNDS_PER_VENUE} recorded rounds, {found} discrepancies")
