"""Helpers for the rounds of Keno, Kaikki tai ei mitään, Tähdenlento, Synttärit, Jokeri and Lomatonni:
schedule and sell through the services and the API, retail files, a whole round, and the prizes the
engine gives each line computed straight from its picks (independently of the pipeline)."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from django.utils import timezone

from compliance.money import plain_cents
from lottery.games import registry
from lottery.models import Draw, Game, Line, Winning
from lottery.rules import calculate_round, games
from lottery.services import draw_close_sales, draw_open_sales, draw_schedule, result_confirm, result_enter
from lottery.services.retail import retail_import
from lottery.services.settlement import run_settlement
from lottery.services.wagers import game_lines


def schedule(game: str, number: int = 1, *, main_draw: Draw | None = None, close_at=None) -> Draw:
    """A draw scheduled by the service and opened: sales opened a day ago and close in an hour."""
    now = timezone.now()
    close_at = close_at or (main_draw.sales_close_at if main_draw else now + dt.timedelta(hours=1))
    draw = draw_schedule(actor="system:test", game=Game.objects.get(code=game), number=number,
                         sales_open_at=now - dt.timedelta(days=1), sales_close_at=close_at,
                         draw_at=close_at + dt.timedelta(minutes=30), main_draw=main_draw)
    return draw_open_sales(actor="system:test", draw=draw)


def sold_at(draw: Draw) -> str:
    return timezone.localtime(draw.sales_open_at + dt.timedelta(hours=1)).isoformat()


def sales_file(game: str, rows: list[dict]) -> io.BytesIO:
    """A retail file of the game: each row a dict of its columns (missing ones empty)."""
    header = registry.get(game).codec.retail_header()
    out = [",".join(header)]
    for row in rows:
        out.append(",".join(str(row.get(column, "")) for column in header))
    return io.BytesIO(("\n".join(out) + "\n").encode())


def import_rows(draw: Draw, actor, rows: list[dict], name: str = "sales.csv"):
    for row in rows:
        row.setdefault("sold_at", sold_at(draw))
        row.setdefault("terminal", "T0001")
    return retail_import(actor=actor, draw=draw, stream=sales_file(draw.game.code, rows), file_name=name)


def place(api, draw: Draw, player, session, reference: str, lines: list[dict], addons: list[dict] | None = None):
    body = {"reference": reference, "draw": draw.pk, "player": player.pk, "session": session.pk, "lines": lines}
    if addons:
        body["addons"] = addons
    return api.post("/api/v1/wagers/", body, format="json")


def draw_and_settle(draw: Draw, result: dict, enterer, confirmer):
    """Move the draw past its draw time, close it, enter and confirm the result, settle: the run."""
    now = timezone.now()
    Draw.objects.filter(pk=draw.pk).update(sales_close_at=now - dt.timedelta(minutes=10),
                                           draw_at=now - dt.timedelta(minutes=5))
    draw = Draw.objects.get(pk=draw.pk)
    if draw.state == "open":
        draw_close_sales(actor="system:test", draw=draw)
    result_enter(actor=enterer, draw=draw, numbers=result, draw_method="device", witnesses="A. Witness")
    result_confirm(actor=confirmer, draw=draw)
    run = draw.settlement_runs.order_by("-version").first()
    return run_settlement(run.pk)


def winnings(run) -> dict[int, int]:
    """line id -> prize in cents, as settled."""
    return dict(Winning.objects.filter(run=run).values_list("line_id", "prize_cents"))


def cents(amount: str) -> int:
    return int(Decimal(amount) * 100)


# ------------------------------------------------------------------------------------------------
# the engine's prizes, line by line from the picks (multiplier games), or by class (class games)
# ------------------------------------------------------------------------------------------------

def engine_line_prizes(game: str, result: dict, lines: list[tuple[int, dict, int]], params=None) -> dict[int, int]:
    """Multiplier games: {line id: prize cents} from the engine given every line as its picks
    (`lines`: (line id, the engine's pick fields, stake cents))."""
    data = {"game": game, "result": result,
            "lines": [{**picks, "stake": plain_cents(stake)} for _, picks, stake in lines]}
    out = calculate_round(data, params)
    return {line_id: cents(x["prize"]) for (line_id, _, _), x in zip(lines, out["lines"]) if x["class"] is not None}


def stored_lines(draw: Draw) -> list[Line]:
    return list(Line.objects.filter(draw_id=draw.pk).order_by("id"))


def jokeri_engine_prizes(result_digits: str, lines: list[tuple[int, str, tuple | None]], jackpot: str,
                         params=None) -> dict[int, int]:
    """Jokeri: classify every line with the engine, then the engine's prizes per class (and Tuplaus)."""
    classified = {}
    winners: dict[str, int] = {}
    doubled: dict[str, int] = {}
    for line_id, digits, tuplaus in lines:
        lc = games.jokeri.classify(games.jokeri.validate_line(digits, tuplaus, params), result_digits, params)
        if lc.class_key is None:
            continue
        classified[line_id] = (lc.class_key, lc.doubled)
        winners[lc.class_key] = winners.get(lc.class_key, 0) + 1
        if lc.doubled:
            doubled[lc.class_key] = doubled.get(lc.class_key, 0) + 1
    data = {"game": "jokeri", "jackpot": jackpot, "winners": winners}
    if doubled:
        data["tuplaus"] = {"doubled": doubled}
    out = calculate_round(data, params)["classes"]
    return {line_id: cents(out[key]["tuplaus"]["prize"] if dbl else out[key]["prize"])
            for line_id, (key, dbl) in classified.items()}


def lomatonni_engine_prizes(result: tuple[str, int], lines: list[tuple[int, str, int]]) -> dict[int, int]:
    drawn = games.lomatonni.CityNumber(*result)
    classified = {}
    winners: dict[str, int] = {}
    for line_id, city, number in lines:
        key = games.lomatonni.classify(games.lomatonni.CityNumber(city, number), drawn).class_key
        if key is not None:
            classified[line_id] = key
            winners[key] = winners.get(key, 0) + 1
    out = calculate_round({"game": "lomatonni", "winners": winners})["classes"]
    return {line_id: cents(out[key]["prize"]) for line_id, key in classified.items()}


def add_lines(draw: Draw, specs: list[dict], reference: str = "DIRECT-1") -> list[Line]:
    """One retail wager with these lines (API-style specs, validated by the game's codec), written
    directly: for scenarios whose stakes no test player could afford."""
    from lottery.models import RETAIL, Wager

    rows = game_lines(draw, specs)
    wager = Wager.objects.create(channel=RETAIL, reference=reference, draw=draw, sold_at=draw.sales_open_at,
                                 accepted_at=timezone.now(), line_count=len(rows),
                                 stake_cents=sum(r.stake_cents + r.addon_cents for r in rows))
    for row in rows:
        row.wager_id = wager.pk
    Line.objects.bulk_create(rows)
    return stored_lines(draw)


def sell_and_settle(draw: Draw, channel_api, gambler, reference: str, api_lines: list[dict], retail_rows: list[dict],
                    people, result: dict):
    """A round of `draw`: the gambler's wager over the channel API, a retail file, then the result
    entered and confirmed by two people and settled. Returns (the draw reloaded, the run, the player)."""
    from lottery.models import RetailImport

    player, session = gambler
    response = place(channel_api, draw, player, session, reference, api_lines)
    assert response.status_code == 201, response.json()
    record = import_rows(draw, people[0], retail_rows)
    assert record.state == RetailImport.State.DONE, record.errors
    run = draw_and_settle(draw, result, people[0], people[1])
    return Draw.objects.get(pk=draw.pk), run, player
