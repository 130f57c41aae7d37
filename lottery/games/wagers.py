"""Lines of the six games of `lottery.games` from sales channels, and add-on lines (§2).

Called by `lottery.services.wagers.wager_place` inside its transaction. A wager of Lotto,
Vikinglotto or Eurojackpot may carry Jokeri and Lomatonni lines: they go to the add-on draw of that
game linked to the wager's draw (whose sales close at the same time, §2), which must be open for
sales too. The wager's stake is the sum of all its lines' fees, in whichever draw they are.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from ..models import Draw, DrawState, Line
from ..rules.errors import RulesError
from . import ADDON_GAMES, codec
from .base import empty

MAX_STAKE_CENTS = 1_000_000
NUMBER_GAME_FIELDS = ("numbers", "stars", "viking", "plus", "plus_cents")


def _present(value: Any) -> bool:
    return not empty(value) and value is not False and value != 0


def game_lines(draw: Draw, specs: Sequence[Mapping[str, Any]], *, what: str = "line") -> list[Line]:
    """Validated lines of a Keno, Kaikki tai ei mitään, Tähdenlento, Synttärit, Jokeri or Lomatonni
    draw (each spec: the game's fields, `stake_cents`, `addon_cents`)."""
    from ..services.errors import DrawInputError

    c = codec(draw.game.code)
    params = draw.ruleset.params
    allowed = {*c.line_fields, "stake_cents", "addon_cents", "game"}
    out = []
    for i, spec in enumerate(specs, start=1):
        where = f"{what} {i}"
        stray = sorted(k for k, v in spec.items() if k not in allowed and _present(v))
        if stray:
            raise DrawInputError(f"{where}: {c.name} lines have no {', '.join(stray)} "
                                 f"(fields: {', '.join(c.line_fields)}, stake_cents, addon_cents)")
        stake = spec.get("stake_cents")
        addon = spec.get("addon_cents") or 0
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE_CENTS:
            raise DrawInputError(f"{where}: stake_cents must be a whole number from 1 to {MAX_STAKE_CENTS}")
        if isinstance(addon, bool) or not isinstance(addon, int) or addon < 0:
            raise DrawInputError(f"{where}: addon_cents must be a whole number, 0 or more")
        try:
            values = c.parse_line(params, spec)
        except RulesError as exc:
            raise DrawInputError(f"{where}: {exc}") from None
        name = c.addon_name
        if values.addon and not addon:
            raise DrawInputError(f"{where}: a {name} line pays the {name} fee (addon_cents)")
        if not values.addon and addon:
            raise DrawInputError(f"{where}: addon_cents is the fee of {name or 'an add-on'}; this line plays none")
        out.append(Line(draw_id=draw.pk, main_mask=values.main_mask, extra_mask=values.extra_mask, plus=values.plus,
                        flags=values.flags, stake_cents=stake, addon_cents=addon))
    return out


def addon_lines(main_draw: Draw, specs: Sequence[Mapping[str, Any]], now: dt.datetime) -> list[Line]:
    """The add-on lines of a main-game wager (each spec names its `game`), in the linked add-on draws,
    which are share-locked like the main draw and must be open for sales."""
    from ..services.errors import DrawInputError, DrawStateError
    from ..services.wagers import _share_lock

    by_game: dict[str, list[Mapping[str, Any]]] = {}
    for i, spec in enumerate(specs, start=1):
        game = spec.get("game")
        if game not in ADDON_GAMES:
            raise DrawInputError(f"add-on line {i}: game must be one of {', '.join(ADDON_GAMES)}")
        by_game.setdefault(game, []).append(spec)
    out: list[Line] = []
    for game, lines in by_game.items():
        target = (Draw.objects.filter(main_draw=main_draw, game__code=game).exclude(state=DrawState.CANCELLED)
                  .order_by("pk").values_list("pk", flat=True).first())
        if target is None:
            raise DrawStateError(f"{main_draw} has no {codec(game).name} draw linked to it to play as an add-on.")
        draw = _share_lock(target)
        if draw.state != DrawState.OPEN or not draw.sales_open_at <= now < draw.sales_close_at:
            raise DrawStateError(f"{draw} is not open for sales (it is {draw.get_state_display()}).")
        out += game_lines(draw, lines, what=f"{codec(game).name} add-on line")
    return out
