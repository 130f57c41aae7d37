"""Wagers from sales channels (digest §2, §7, §9): validated, screened, debited, stored in one go.

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

from compliance.audit import audit_record

# Looked up on the module at each call, as in payouts (tests cut a posting half way there).
from players import services as player_services
from players.errors import PlayerError
from players.models import Channel

from ..formats import NUMBER_GAMES, UnsupportedGame, line_format, parse_line
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
        raise DrawStateError("Only a sales channel places wagers, and this user is not bound to an active channel.")
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
        raise DrawInputError("A wager needs at least one line.")
    if len(lines) > MAX_LINES:
        raise DrawInputError(f"A wager has at most {MAX_LINES} lines.")
    if draw.game.code not in NUMBER_GAMES:  # Keno, Jokeri, ...: their own line formats
        from ..games.wagers import game_lines

        return game_lines(draw, lines)
    try:
        fmt = line_format(draw.game.code, draw.ruleset.params)
    except UnsupportedGame as exc:
        raise DrawInputError(str(exc)) from None
    out = []
    for i, spec in enumerate(lines, start=1):
        secondary = list(spec.get("stars") or ([spec["viking"]] if spec.get("viking") is not None else []))
        plus = spec.get("plus")
        stake = spec.get("stake_cents")
        plus_cents = spec.get("plus_cents") or 0
        if not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE_CENTS:
            raise DrawInputError(f"line {i}: stake_cents must be a whole number from 1 to {MAX_STAKE_CENTS}")
        if (plus is None) != (plus_cents == 0) or plus_cents < 0:
            raise DrawInputError(f"line {i}: a Plussa line (with a plus number) pays plus_cents; others pay none")
        try:
            parsed = parse_line(fmt.game, draw.ruleset.params, list(spec.get("numbers") or []), secondary, plus)
        except RulesError as exc:
            raise DrawInputError(f"line {i}: {exc}") from None
        out.append(Line(draw_id=draw.pk, main_mask=parsed.main_mask, extra_mask=parsed.extra_mask, plus=parsed.plus,
                        stake_cents=stake, addon_cents=plus_cents))
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
        raise DrawInputError("A reference of 1 to 64 characters is required (unique per channel).")
    existing = Wager.objects.filter(channel=channel, reference=reference).first()
    if existing is not None:
        if existing.draw_id != (draw.pk if isinstance(draw, Draw) else draw) or existing.player_id != player.pk:
            raise DrawStateError(f"Reference {reference} was already used by this channel for another wager.")
        return Placed(existing, replayed=True)
    refusal: PlayerError | None = None
    with transaction.atomic():
        draw = _share_lock(draw.pk if isinstance(draw, Draw) else draw)
        if draw.state != DrawState.OPEN or not draw.sales_open_at <= now < draw.sales_close_at:
            raise DrawStateError(f"{draw} is not open for sales (it is {draw.get_state_display()}).")
        rows = _lines(draw, lines)
        if addons:
            from ..games.wagers import addon_lines

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
