"""Machine configurations against the RA IV maximum stakes (000-lottery §13.1-13.2), kind ``machine_config``.

The product refuses to save a machine whose configuration breaks a maximum; this checker says which
one. Input::

    {"kind": "machine_config", "venue": "arcade", "product": "slot",
     "config": {"max_stake": "2.00", "max_round_total": "8.00"}}

``product`` and its ``config`` fields (amounts are decimal strings, euros):

| product | gaming points and arcades (RA IV-PS) | casino (RA IV-PK) |
|---|---|---|
| ``slot`` | ``max_stake`` <= 2 € (18+) / 1 €; ``max_round_total`` <= 8 € / 2 € | ``lines`` (betting lines or options) and ``max_stake_per_line`` <= 200 € (1-6), 50 € (7-19), 20 € (20+) |
| ``pajatso`` (multi-shot modes) | ``max_stake`` <= 4 € (round totals not applied, digest A19) | as ``slot`` |
| ``terminal_roulette`` | ``placements``: ``number_1`` ... ``number_6`` <= 2 €, ``side`` <= 10 € | ``number_k`` <= 200 € x k, ``side`` <= 2,000 € |
| ``electronic_poker`` | ``max_initial_stake`` (blind/ante) <= 2 €; ``max_tournament_fee`` <= 20 € | both <= 4,000 € |
| ``automated_blackjack`` | ``max_base_stake`` + ``max_side_stake`` <= 6 €, ``max_side_stake`` <= 2 € | automated card game: ``max_base_stake`` <= 200 €, ``max_side_stake`` <= 200 € |
| ``automated_card_game`` | RA IV-PS states no maximum (reported, not checked) | as above |

Automated table games (terminal roulette, electronic poker, automated blackjack and card games)
are run only in arcades and the casino (RA I-ATG); elsewhere the configuration is refused.
Raises the game's rules allow (double, split, poker raises) are not limited (RA IV). The answer::

    {"ok": false, "violations": [{"field": "config.max_round_total", "value": "10.00",
      "maximum": "8.00", "rule": "RA IV-PS ...", "message": "..."}], "limits": {...}, "notes": [...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..base import EngineError, money_str
from ..jsonio import KINDS
from ._common import AGE_GATED, ATG_VENUES, fields, money, need, venue, whole

PRODUCTS = ("slot", "pajatso", "terminal_roulette", "electronic_poker", "automated_blackjack",
            "automated_card_game")
ATG = ("terminal_roulette", "electronic_poker", "automated_blackjack", "automated_card_game")
PS, PK = "RA IV-PS (000-lottery §13.1)", "RA IV-PK (000-lottery §13.2)"
D = Decimal
PLACEMENTS = tuple(f"number_{k}" for k in range(1, 7)) + ("side",)
CONFIG_FIELDS = {
    "slot": {"max_stake", "max_round_total", "lines", "max_stake_per_line"},
    "pajatso": {"max_stake", "lines", "max_stake_per_line"},
    "terminal_roulette": {"placements"},
    "electronic_poker": {"max_initial_stake", "max_tournament_fee"},
    "automated_blackjack": {"max_base_stake", "max_side_stake"},
    "automated_card_game": {"max_base_stake", "max_side_stake"},
}


def casino_line_limit(lines: int) -> Decimal:
    """RA IV-PK: the maximum stake per betting line or option by the game's number of them."""
    if lines <= 6:
        return D(200)
    if lines <= 19:
        return D(50)
    return D(20)


class _Check:
    def __init__(self) -> None:
        self.violations: list[dict[str, Any]] = []
        self.limits: dict[str, str] = {}

    def at_most(self, field: str, value: Decimal, maximum: Decimal, rule: str, what: str) -> None:
        self.limits[field] = money_str(maximum)
        if value > maximum:
            self.violations.append({
                "field": field, "value": money_str(value), "maximum": money_str(maximum), "rule": rule,
                "message": f"{what} {money_str(value)} is above the maximum {money_str(maximum)} ({rule})",
            })


def _amount(config: Mapping[str, Any], key: str) -> Decimal:
    return money(need(config, key, "config"), f"config.{key}", allow_zero=False)


def _casino_lines(check: _Check, config: Mapping[str, Any]) -> None:
    lines = whole(need(config, "lines", "config"), "config.lines", 1, 10_000)
    per_line = _amount(config, "max_stake_per_line")
    check.at_most("config.max_stake_per_line", per_line, casino_line_limit(lines), f"{PK}: {lines} lines/options",
                  "the stake per line or option")


def check_config(venue_type: str, product: str, config: Mapping[str, Any]) -> dict[str, Any]:
    check = _Check()
    notes: list[str] = []
    casino = venue_type == "casino"
    gated = venue_type in AGE_GATED
    if product in ATG and venue_type not in ATG_VENUES:
        check.violations.append({
            "field": "venue", "value": venue_type, "maximum": None, "rule": "RA I-ATG (000-lottery §10.1)",
            "message": "automated table games are run only in arcades and in the casino",
        })
        return {"ok": False, "violations": check.violations, "limits": {}, "notes": notes}
    if product in ("slot", "pajatso") and casino:
        _casino_lines(check, config)
        notes.append(f"{PK}: the maximum applies per line or betting option, not per spin")
    elif product == "slot":
        single, total = (D(2), D(8)) if gated else (D(1), D(2))
        where = "18+ premises" if gated else "premises without an age gate"
        check.at_most("config.max_stake", _amount(config, "max_stake"), single, f"{PS}: {where}", "the stake")
        check.at_most("config.max_round_total", _amount(config, "max_round_total"), total, f"{PS}: {where}",
                      "the total of the stakes on one round")
        notes.append(f"{PS}: the winnings of earlier parts of a round may be used as the stake of the next part")
    elif product == "pajatso":
        check.at_most("config.max_stake", _amount(config, "max_stake"), D(4), f"{PS}: pajatso multi-shot modes",
                      "the stake")
        notes.append("digest A19: the round totals of ordinary slot games are not applied to pajatso")
    elif product == "terminal_roulette":
        raw = need(config, "placements", "config")
        fields(raw, PLACEMENTS, "config.placements")
        if not raw:
            raise EngineError("config.placements", f"name at least one placement ({', '.join(PLACEMENTS)})")
        for key in PLACEMENTS:
            if key not in raw:
                continue
            value = money(raw[key], f"config.placements.{key}", allow_zero=False)
            if key == "side":
                maximum = D(2000) if casino else D(10)
            else:
                maximum = D(200 * int(key.split("_")[1])) if casino else D(2)
            check.at_most(f"config.placements.{key}", value, maximum, PK if casino else PS,
                          f"the stake per {key.replace('_', ' ')} placement")
    elif product == "electronic_poker":
        cap = D(4000) if casino else D(2)
        check.at_most("config.max_initial_stake", _amount(config, "max_initial_stake"), cap, PK if casino else PS,
                      "the initial stake (blind/ante)")
        if config.get("max_tournament_fee") is not None:
            fee = money(config["max_tournament_fee"], "config.max_tournament_fee", allow_zero=False)
            check.at_most("config.max_tournament_fee", fee, D(4000) if casino else D(20),
                          PK if casino else f"{PS}: tournament entry fee", "the tournament entry fee")
        notes.append("RA IV: the stake may be raised under each poker game's rules")
    elif casino:  # automated blackjack or another automated card game in the casino (ATG.3)
        check.at_most("config.max_base_stake", _amount(config, "max_base_stake"), D(200), f"{PK}: automated card game",
                      "the stake / initial stake")
        if config.get("max_side_stake") is not None:
            side = money(config["max_side_stake"], "config.max_side_stake", allow_zero=False)
            check.at_most("config.max_side_stake", side, D(200), f"{PK}: automated card game side game",
                          "the side-game stake")
    elif product == "automated_blackjack":
        base = _amount(config, "max_base_stake")
        side = money(config.get("max_side_stake", "0"), "config.max_side_stake")
        check.at_most("config.max_side_stake", side, D(2), f"{PS}: automated Blackjack side game", "the side-game stake")
        check.at_most("config.max_base_stake", base + side, D(6), f"{PS}: automated Blackjack base + side game",
                      "the base and side stakes together")
        notes.append("RA IV-PS: the stake may be raised under the Blackjack rules (double, split)")
    else:  # another automated card game in an arcade
        _amount(config, "max_base_stake")
        notes.append(f"{PS} states no maximum stake for automated card games other than Blackjack: not checked")
    return {"ok": not check.violations, "violations": check.violations, "limits": check.limits, "notes": notes}


def machine_config(doc: Mapping[str, Any]) -> dict[str, Any]:
    fields(doc, {"kind", "venue", "product", "config"})
    venue_type = venue(need(doc, "venue"))
    product = need(doc, "product")
    if product not in PRODUCTS:
        raise EngineError("product", f"{product!r} is not one of: {', '.join(PRODUCTS)}")
    config = need(doc, "config")
    allowed = set(CONFIG_FIELDS[product])
    if product in ("slot", "pajatso"):
        allowed &= {"lines", "max_stake_per_line"} if venue_type == "casino" else {"max_stake", "max_round_total"}
    fields(config, allowed, "config")
    return {"venue": venue_type, "product": product, **check_config(venue_type, product, config)}


KINDS["machine_config"] = machine_config
