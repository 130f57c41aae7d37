"""Demo jackpot for `manage.py seed_demo` (issue 19 items 3 and 6): Casino Helsinki's Ultimate Texas
Hold'em Progressive. Its game instructions' progressive table is published with the built-in data as the
first version of the variant (the digest leaves the table to the game instructions, 000-casino C-6); a
table `uth-progressive` is linked to a progressive jackpot seeded with 10,000 €; a day of rounds (the
last 24 hours, entered by the demo inspector, each paid as the engine says, each showing the pot the
ledger holds) contributes to it, one of them wins 10 % of the pot with a straight flush and another a
flush's fixed 50 €. The gaming days that are over are posted. Idempotent: nothing is added when Casino
Helsinki has a jackpot."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.games.registry import family_of
from casino.rules import registry
from casino.rules.jackpot_ledger import contribution_cents

from . import jackpots, operations, services, verification
from .models import CasinoRuleVersion, RoundBatch, Venue

ACTOR = "system:seed_demo"
GAME = ("000", "ultimate_texas_holdem", "standard")
#: The progressive table of the game instructions (000-casino C-6, L1840-1850: percentages of the pot
#: or fixed sums for the highest hands, the highest win always for a royal flush).
PROGRESSIVE = {"hand": "hole_and_flop", "stake_returned": False, "paytable": {
    "royal_flush": {"pot_percent": "100"}, "straight_flush": {"pot_percent": "10"},
    "four_of_a_kind": {"fixed": "300.00"}, "full_house": {"fixed": "75.00"}, "flush": {"fixed": "50.00"}}}
#: As shown at Casino Helsinki's table (in Finnish, the language of the venue; 000-casino §2.6).
INSTRUCTIONS = (
    "UTH Progressive: erillinen 1,00 euron panos progressiiviseen ruutuun ante- ja blind-panosten kanssa ennen "
    "jakoa. Jokaisesta progressiivisesta panoksesta 25 % menee pottiin. Voitot pelaajan kahdesta kortista ja "
    "flopista: kuningasvärisuora 100 % potista, värisuora 10 % potista, neloset 300 €, täyskäsi 75 €, väri 50 €. "
    "Potti alkaa 10 000 eurosta ja palautetaan voiton jälkeen 10 000 euroon; 250 000 euron ylittävät kertymät "
    "siirretään varantoon. Suurin sallittu voitto 250 000 €.")
TERMS = {"name": "UTH Progressive", "kind": "progressive", "bet_type": "progressive", "participation_fee_cents": 100,
         "contribution_rate": Decimal("0.25"), "seed_cents": 1_000_000, "reset_cents": 1_000_000,
         "max_cents": 25_000_000, "overflow": "held", "overflow_to": None, "max_win_cents": 25_000_000,
         "instructions": INSTRUCTIONS}
ROUNDS = 30
#: dealer, board and the boxes' cards of the deals the rounds use (no card twice in a deal).
DEALS = {
    "nothing": ("8s 4c", "9h Jd 3s 5c Kd", ("2d 7c", "Qc Tc", "Ah 6d")),
    "two_pair": ("Ac 2c", "Kh Kd 4s 7c 9d", ("3h 3d", "Qs Jh", "6c 5d")),
    "straight_flush": ("Kc Qd", "7h 6h 5h 2d 3c", ("9h 8h", "As Ad", "Tc Jc")),
    "flush": ("8c 8d", "Qh 2h 9h 3c 4d", ("Ah Kh", "Js Ts", "5s 6s")),
}
SPECIAL = {9: "flush", 17: "straight_flush"}


def progressive_rules() -> dict:
    """The built-in rule data of the variant with the instructions' progressive table."""
    rulebook, game, variant = GAME
    return {**dict(registry.get(rulebook, game).variants[variant]), "progressive": PROGRESSIVE}


def publish_instructions(stdout, effective_from: dt.datetime) -> None:
    """Before the built-in variants are published: UTH's version 1 with the progressive table."""
    rulebook, game, variant = GAME
    if CasinoRuleVersion.objects.filter(rulebook=rulebook, game=game, variant=variant).exists():
        return
    services.rule_version_publish(actor=ACTOR, rulebook=rulebook, game=game, variant=variant,
                                  effective_from=effective_from, rules=progressive_rules(),
                                  source="built-in data of casino.rules with the progressive table of the demo's "
                                         "game instructions")
    stdout.write("Casino: Ultimate Texas Hold'em published with its progressive table")


def _round(i: int, deal: str, pot_cents: int) -> dict:
    dealer, board, holes = DEALS[deal]
    boxes = 1 + i % 3
    bets, cards = [], {}
    for box in range(1, boxes + 1):
        bets += [{"type": "ante", "stake": "10.00", "box": box}, {"type": "blind", "stake": "10.00", "box": box}]
        if box == 1:
            bets.append({"type": "play", "stake": "40.00", "box": box})
        bets.append({"type": "progressive", "stake": "1.00", "box": box})
        cards[str(box)] = {"cards": holes[box - 1],
                           "actions": {"preflop": "play"} if box == 1 else
                           {"preflop": "check", "flop": "check", "river": "fold"}}
    return {"bets": bets, "outcome": {"dealer": dealer, "board": board, "boxes": cards,
                                      "progressive_pot": f"{pot_cents // 100}.{pot_cents % 100:02d}"}}


def seed(stdout) -> None:
    venue = Venue.objects.filter(code="casino-helsinki").first()
    if venue is None or venue.jackpots.exists():
        return
    rulebook, game, variant = GAME
    rules = CasinoRuleVersion.objects.filter(rulebook=rulebook, game=game, variant=variant).order_by("-version").first()
    if rules is None or not rules.rules.get("progressive"):
        # A database seeded before the jackpots: its Ultimate Texas Hold'em has no progressive table, and a
        # new rule version may not be dated back over the demo day. Nothing is added.
        stdout.write("Casino: no demo jackpot (Ultimate Texas Hold'em has no progressive table in this database)")
        return
    now = timezone.now()
    start = now - dt.timedelta(days=2)
    table = operations.table_create(
        actor=ACTOR, venue=venue, code="uth-progressive", game=GAME[1], variant=GAME[2], min_stake_cents=500,
        max_stake_cents={}, side_games=["trips", "progressive"], opening_hours="Mon-Sun 12-04",
        payout_sign="UTH Progressive: potti ja voittotaulukko näkyvät pöydässä", effective_from=start)
    jackpot = jackpots.jackpot_create(actor=ACTOR, venue=venue, code="uth-progressive", effective_from=start,
                                      tables=[table], **TERMS)
    frame = operations.engine_venue(venue, table.versions.get())
    pot = TERMS["seed_cents"]
    rounds = []
    for i in range(ROUNDS):
        doc = _round(i, SPECIAL.get(i, "two_pair" if i % 2 else "nothing"), pot)
        verdict = family_of(game).verification.verify(
            rulebook=rulebook, game=game, variant=variant, rules=rules.rules, venue=frame, bets=doc["bets"],
            outcome=doc["outcome"], paid_cents=[0] * len(doc["bets"]), rules_key=rules.rules_sha256, answer=True)
        # The ledger's own order (casino.rules.jackpot_ledger): the round's wins from the pot shown,
        # back to the reset amount, then the round's contributions.
        for bet in verdict.answer["bets"]:
            if bet["category"] == "jackpot":
                pot -= int(Decimal(bet["winnings"]) * 100)
        pot = max(pot, TERMS["reset_cents"])
        pot += sum(contribution_cents(100, TERMS["contribution_rate"]) for b in doc["bets"] if b["type"] == "progressive")
        rounds.append({"table": table.pk, "ref": f"uth-progressive-{i + 1:04d}",
                       "played_at": now - dt.timedelta(minutes=24 * 60 - 30 - i * 47), **doc,
                       "paid": [f"{c // 100}.{c % 100:02d}" for c in verdict.due_cents]})
    inspector = get_user_model().objects.filter(username="inspector").first() or ACTOR
    batch = operations.rounds_record(actor=inspector, rounds=rounds, source=RoundBatch.Source.INSPECTOR)
    verification.verify_batch(batch.pk)
    posted = jackpots.post_due_days(actor=ACTOR)["posted"]
    jackpot.refresh_from_db()
    stdout.write(f"Casino: jackpot {jackpot} with {ROUNDS} rounds, {posted} gaming day(s) posted")
