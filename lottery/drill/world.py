"""A Lotto draw built through the real services, the same for every seed and index (issue 15, item 7).

`build_world(spec, index=i, ...)` schedules draw i of a drill, registers and funds its own players
(some at the 20,000 EUR balance cap), places their wagers through the channel service, imports the
retail lines through the retail import and enters the result; confirming it (by a second person)
is left to the caller, because it sends the settlement to the workers. Every draw built with the same
spec has the same lines in the same order, the same players with the same balances and the same
result, so any two can be compared row by row (`lottery.drill.fingerprint`).

Each player's lines are winners of classes 4 to 7 (some boosted by Plussa), placed in several wagers
round-robin, so a player's lines lie in several chunks of the settlement; the players at the cap win
more than their room under it, so the split between credited and diverted depends on the order in
which their prizes are paid. The retail file starts with a winner of each shared class (1 to 4), so
no class rolls over and the draws of a drill do not hand rollovers to one another. Draw i lies i
times four hours before the first (all in the past), so each draw's settlement depends on no other
draw of the drill.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from compliance import roles
from compliance.idcodes import finnish_id
from lottery import services
from lottery.games import registry
from lottery.models import Draw, Game, SettlementRun
from lottery.salesfile import write_sales_file
from lottery.services.retail import retail_import
from players import services as player_services

DRILL_ACTOR = "system:fault_drill"
CHANNEL_ACTOR = "channel:drill"
JACKPOT_CENTS = 1_000_000_00
CAP_ROOM_CENTS = 60_00  # room under the cap left to a capped player before its stakes


@dataclass(frozen=True)
class WorldSpec:
    lines: int = 20_000  # random retail lines
    players: int = 24
    capped: int = 8  # of the players, those funded up to the balance cap
    lines_per_player: int = 40
    wagers_per_player: int = 4
    seed: int = 1


@dataclass
class World:
    draw: object
    players: list = field(default_factory=list)  # Player rows in the order they were registered


def four_eyes_staff(prefix: str) -> tuple:
    """Three staff users for the four-eyes steps of a draw: result entry, its confirmation, the
    settlement's approval (made once, reused)."""
    from django.contrib.auth.models import Group

    User = get_user_model()
    out = []
    for name, role in ((f"{prefix}-enterer", roles.DRAW_SUPERVISOR), (f"{prefix}-confirmer", roles.DRAW_SUPERVISOR),
                       (f"{prefix}-approver", roles.COMPLIANCE_OFFICER)):
        user, _ = User.objects.get_or_create(username=name, defaults={"is_active": True})
        user.groups.add(Group.objects.get(name=role))
        out.append(user)
    return tuple(out)


def drill_result(seed: int) -> dict:
    """The Lotto result of every draw of a drill with this seed."""
    rng = random.Random(f"result-{seed}")
    drawn = rng.sample(range(1, 41), 8)
    return {"numbers": sorted(drawn[:7]), "additional": drawn[7], "plus": rng.randint(1, 30)}


def _line(rng: random.Random, result: dict, hits: int, additional: bool) -> list[int]:
    undrawn = [n for n in range(1, 41) if n not in result["numbers"] and n != result["additional"]]
    picks = rng.sample(result["numbers"], hits) + ([result["additional"]] if additional else [])
    return sorted(picks + rng.sample(undrawn, 7 - len(picks)))


def _class_winners(rng: random.Random, result: dict) -> list[tuple[list[int], int | None]]:
    """A retail winner of each class sharing a pool or the jackpot (1: 7, 2: 6 + additional, 3: 6,
    4: 5 correct), so none of them rolls over."""
    return [(sorted(result["numbers"]), None), (_line(rng, result, 6, True), None), (_line(rng, result, 6, False), None),
            (_line(rng, result, 5, False), None)]


def _player_line(rng: random.Random, result: dict) -> dict:
    """A winning line of class 4 (5 correct), 5 (4), 6 (3 + additional) or 7 (the plus number only),
    with the plus number right (boosted or class 7), wrong, or without Plussa."""
    kind = rng.choice(("5", "4", "4", "3+", "3+", "plus"))
    if kind == "plus":
        numbers, plus = _line(rng, result, 2, False), result["plus"]
    else:
        numbers = _line(rng, result, int(kind[0]), kind.endswith("+"))
        plus = rng.choice((None, result["plus"], result["plus"] % 30 + 1))
    line = {"numbers": numbers, "stake_cents": 100}
    if plus is not None:
        line.update(plus=plus, plus_cents=50)
    return line


def _person(number: int, p: int) -> tuple[dt.date, int]:
    """A birth date and an individual number 900-999 (never issued to real people), unique per draw
    number (up to 15,000 draws) and player (up to 1,000)."""
    n = number * 1000 + p
    return dt.date(1950, 1, 1) + dt.timedelta(days=(n // 100) % 15000), 900 + n % 100


def build_world(spec: WorldSpec, *, index: int, staff: tuple, base: dt.datetime) -> World:
    """Draw `index` of a drill: scheduled, its players' wagers placed, its retail lines imported, its
    result entered (not yet confirmed). Wagers are placed in one transaction, so the minute job that
    opens and closes sales never sees the draw half built."""
    rng = random.Random(f"world-{spec.seed}")
    result = drill_result(spec.seed)
    game = Game.objects.get(code="lotto")
    opens = base - dt.timedelta(hours=4 * index)
    world = World(draw=None)
    with transaction.atomic():
        number = (Draw.objects.filter(game=game).order_by("-number").values_list("number", flat=True).first() or 0) + 1
        draw = services.draw_schedule(actor=DRILL_ACTOR, game=game, number=number, sales_open_at=opens,
                                      sales_close_at=opens + dt.timedelta(hours=3),
                                      draw_at=opens + dt.timedelta(hours=3, minutes=5), jackpot_cents=JACKPOT_CENTS,
                                      now=opens)
        services.draw_open_sales(actor=DRILL_ACTOR, draw=draw, now=opens)
        sessions = []
        for p in range(spec.players):
            birth, individual = _person(draw.number, p)
            player = player_services.player_register(
                actor=DRILL_ACTOR, first_name=f"Drill{p:03d}", last_name=f"Draw{index:04d}", birth_date=birth,
                national_id=finnish_id(birth, individual), now=opens,
            )
            player_services.person_verify(actor=DRILL_ACTOR, person=player.person, method="bank_id", now=opens)
            cap = player.account.cap_cents
            funds = cap - CAP_ROOM_CENTS if p < spec.capped else 500_00
            player_services.account_deposit(actor=DRILL_ACTOR, account=player.account, amount_cents=funds,
                                    reference=f"drill-fund-{p}", now=opens + dt.timedelta(seconds=1))
            sessions.append(player_services.session_start(actor=CHANNEL_ACTOR, player=player,
                                                  now=opens + dt.timedelta(seconds=2)))
            world.players.append(player)
        per_wager = max(1, spec.lines_per_player // spec.wagers_per_player)
        placed_at = opens + dt.timedelta(minutes=1)
        for w in range(spec.wagers_per_player):  # round-robin: each player's lines spread over the ids
            for p, player in enumerate(world.players):
                lines = [_player_line(rng, result) for _ in range(per_wager)]
                services.wager_place(actor=CHANNEL_ACTOR, draw=draw, player=player, session=sessions[p],
                                     reference=f"drill-{draw.pk}-{p}-{w}", lines=lines, now=placed_at)
        services.draw_close_sales(actor=DRILL_ACTOR, draw=draw)
    fmt = registry.get(draw.game.code).codec.line_format(draw.ruleset.params)
    path = write_sales_file(fmt, spec.lines, rng, draw, first=_class_winners(rng, result))
    try:
        with open(path, "rb") as stream:
            record = retail_import(actor=DRILL_ACTOR, draw=draw, stream=stream, file_name=os.path.basename(path))
    finally:
        os.unlink(path)
    if record.state != "done":
        raise RuntimeError(f"the drill's retail file was refused: {record.errors[:3]}")
    enterer = staff[0]
    services.result_enter(actor=enterer, draw=draw, numbers=result, draw_method="system", witnesses="fault drill")
    world.draw = Draw.objects.get(pk=draw.pk)
    return world


def confirm(world: World, staff: tuple):
    """Confirm the result by the second person: the settlement run is queued and, after commit, sent."""
    services.result_confirm(actor=staff[1], draw=world.draw)
    return SettlementRun.objects.filter(draw=world.draw).order_by("-version").first()


def approve(world: World, staff: tuple):
    """Approve the settled run for payout by a third person: payouts written, payment sent after commit."""
    return services.settlement_approve(actor=staff[2], draw=world.draw)


def drill_base() -> dt.datetime:
    """The sales opening of draw 0 of a drill started now: a day ago, to the minute."""
    return (timezone.now() - dt.timedelta(days=1)).replace(second=0, microsecond=0)
