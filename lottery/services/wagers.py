"""Wagers from sales channels (digest §2, §7, §9): validated, screened, debited, stored in one go.

Each line is read by the codec of its draw's game (`lottery.games.registry`); add-on lines (Jokeri,
Lomatonni, §2) go to the add-on draw of their game linked to the wager's draw, which must be open for
sales too, and the wager's stake is the sum of all its lines' fees, in whichever draw they are.

A wager is binding once it is paid and accepted (§7): the stake is debited from the player's game
account (after `compliance.screening.screen` through `players.services.account_stake`) in the same
transaction that stores the wager and its lines. A refusal says why and stores nothing but the
screening decision. The same channel reference again returns the stored wager (idempotent).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.audit import audit_record
from compliance.errors import lazy_format

# Looked up on the module at each call, as in payouts (tests cut a posting half way there).
from players import services as player_services
from players.errors import PlayerError
from players.models import Channel

from ..formats import UnsupportedGame
from ..games import registry
from ..games.messages import domain_message
from ..models import Draw, DrawState, Line, Wager
from ..rules.errors import RulesError
from .errors import DrawInputError, DrawStateError

MAX_LINES = 200
MAX_STAKE_CENTS = 1_000_000


@dataclass
class Placed:
    wager: Wager
    replayed: bool = False


def _channel(actor) -> str:
    """The channel code a wager is filed under: the caller's Channel (a user without one places no
    wagers, so nobody can file wagers as the retail pseudo-channel or as another channel)."""
    if isinstance(actor, str):  # a job or a test inside the system: "channel:<code>"
        return actor.removeprefix("channel:")[:32]

    code = Channel.objects.filter(user_id=actor.pk, active=True).values_list("code", flat=True).first()
    if code is None:
        raise DrawStateError(_("Only a sales channel places wagers, and this user is not bound to an active channel."))
    return code


def _share_lock(draw_id: int) -> Draw:
    """Lock the draw row in share mode: wagers run side by side, while a transition of the draw (which
    takes FOR UPDATE, e.g. a cancellation writing its refunds) waits for them and they for it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT id FROM lottery_draw WHERE id = %s FOR SHARE", [draw_id])
    return Draw.objects.select_related("game", "ruleset").get(pk=draw_id)


def _lines(draw: Draw, lines: Sequence[Mapping[str, Any]]) -> list[Line]:
    if not isinstance(lines, Sequence) or not lines:
        raise DrawInputError(_("A wager needs at least one line."))
    if len(lines) > MAX_LINES:
        raise DrawInputError(_("A wager has at most %(max)s lines."), max=MAX_LINES)
    return game_lines(draw, lines)


def game_lines(draw: Draw, lines: Sequence[Mapping[str, Any]], *, addon: Any = None) -> list[Line]:
    """Validated lines of a draw, each read by the codec of the draw's game (its fields, `stake_cents`
    and the fee of its add-on: `addon_cents`, or `plus_cents` for Plussa). `addon`: the add-on game's
    name when these are the add-on lines of a main-game wager (the errors say "Jokeri add-on line 2")."""
    try:
        codec = registry.get(draw.game.code).codec
    except UnsupportedGame as exc:
        raise DrawInputError(str(exc)) from None
    params = draw.ruleset.params
    out = []
    for i, spec in enumerate(lines, start=1):
        where = (lazy_format(_("line %(line)s"), line=i) if addon is None
                 else lazy_format(_("%(game)s add-on line %(line)s"), game=addon, line=i))
        stake = spec.get("stake_cents")
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE_CENTS:
            raise DrawInputError(_("%(where)s: stake_cents must be a whole number from 1 to %(max)s"),
                                 where=where, max=MAX_STAKE_CENTS)
        try:
            values, fee = codec.wager_line(params, spec)
        except RulesError as exc:
            template, params = domain_message(exc)
            raise DrawInputError(_("%(where)s: %(problem)s"), where=where,
                                 problem=lazy_format(template, **params)) from None
        out.append(Line(draw_id=draw.pk, main_mask=values.main_mask, extra_mask=values.extra_mask, plus=values.plus,
                        flags=values.flags, stake_cents=stake, addon_cents=fee))
    return out


def addon_lines(main_draw: Draw, specs: Sequence[Mapping[str, Any]], now: dt.datetime) -> list[Line]:
    """The add-on lines of a main-game wager (each spec names its `game`, §2), in the add-on draws
    linked to the main draw, which are share-locked like it and must be open for sales too."""
    addon_games = registry.addon_games()
    by_game: dict[str, list[Mapping[str, Any]]] = {}
    for i, spec in enumerate(specs, start=1):
        game = spec.get("game")
        if game not in addon_games:
            raise DrawInputError(_("add-on line %(line)s: game must be one of %(games)s"), line=i,
                                 games=", ".join(addon_games))
        by_game.setdefault(game, []).append(spec)
    out: list[Line] = []
    for game, lines in by_game.items():
        name = registry.get(game).codec.name
        target = (Draw.objects.filter(main_draw=main_draw, game__code=game).exclude(state=DrawState.CANCELLED)
                  .order_by("pk").values_list("pk", flat=True).first())
        if target is None:
            raise DrawStateError(_("%(draw)s has no %(game)s draw linked to it to play as an add-on."),
                                 draw=str(main_draw), game=name)
        draw = _share_lock(target)
        if draw.state != DrawState.OPEN or not draw.sales_open_at <= now < draw.sales_close_at:
            raise DrawStateError(_("%(draw)s is not open for sales (it is %(state)s)."),
                                 draw=str(draw), state=DrawState(draw.state).label)
        out += game_lines(draw, lines, addon=name)
    return out


def wager_place(
    *,
    actor,
    draw: Draw | int,
    player,
    session,
    reference: str,
    lines: Sequence[Mapping[str, Any]],
    addons: Sequence[Mapping[str, Any]] = (),
    now: dt.datetime | None = None,
    request=None,
) -> Placed:
    """Place a player's wager for an open draw. Raises DrawStateError (sales not open), DrawInputError
    (bad lines) or a players.errors.PlayerError (refused by screening or the ledger). `addons`: Jokeri
    and Lomatonni lines (each with its `game`) in the add-on draws linked to the draw (§2)."""
    now = now or timezone.now()
    channel = _channel(actor)
    reference = (reference or "").strip()
    if not 1 <= len(reference) <= 64:
        raise DrawInputError(_("A reference of 1 to 64 characters is required (unique per channel)."))
    existing = Wager.objects.filter(channel=channel, reference=reference).first()
    if existing is not None:
        if existing.draw_id != (draw.pk if isinstance(draw, Draw) else draw) or existing.player_id != player.pk:
            raise DrawStateError(_("Reference %(reference)s was already used by this channel for another wager."),
                                 reference=reference)
        return Placed(existing, replayed=True)
    refusal: PlayerError | None = None
    with transaction.atomic():
        draw = _share_lock(draw.pk if isinstance(draw, Draw) else draw)
        if draw.state != DrawState.OPEN or not draw.sales_open_at <= now < draw.sales_close_at:
            raise DrawStateError(_("%(draw)s is not open for sales (it is %(state)s)."),
                                 draw=str(draw), state=DrawState(draw.state).label)
        rows = _lines(draw, lines)
        if addons:
            rows += addon_lines(draw, addons, now)
        total = sum(r.stake_cents + r.addon_cents for r in rows)
        try:
            player_services.account_stake(actor=actor, account=player.account, amount_cents=total,
                          reference=f"wager:{channel}:{reference}", session=session, game=draw.game.code, now=now)
        except PlayerError as exc:
            # The screening decision is kept (it is committed with this transaction); nothing else is.
            refusal = exc
        else:
            try:
                with transaction.atomic():
                    wager = Wager.objects.create(channel=channel, reference=reference, draw=draw, player_id=player.pk,
                                                 sold_at=now, paid=True, accepted_at=now, stake_cents=total,
                                                 line_count=len(rows))
            except IntegrityError:
                # The same request raced this one and stored the wager first (the stake was replayed).
                return Placed(Wager.objects.get(channel=channel, reference=reference), replayed=True)
            for row in rows:
                row.wager_id = wager.pk
            Line.objects.bulk_create(rows)
            audit_record(actor=actor, action="lottery.wager_accepted", obj=wager, request=request,
                         data={"draw": draw.pk, "player": player.pk, "lines": len(rows), "stake_cents": total,
                               "reference": reference, "addon_lines": len(addons)})
    if refusal is not None:
        raise refusal
    return Placed(wager)
