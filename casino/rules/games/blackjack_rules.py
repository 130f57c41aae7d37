"""Blackjack rule data: every version of rulebooks 000 (game halls G-6 A-H, casino C-9 base and A-E),
002 (RAY §5.8 versions A and B) and 004 (Billionaire Ch.8), as JSON-able variant dicts.

The engine (:mod:`casino.rules.games.blackjack`) reads only these dicts, so a published rule version
with other numbers changes the computation. A key that is *absent* is a value the source lost (RAY
version B's doubling, splitting, insurance and side games, 002 BJB-04): a round that needs it raises
EngineError naming ``rules.<key>``. A key set to ``null`` means "not offered" (e.g. no surrender).

Keys (see docs/casino/blackjack.md for the full reference):

- ``clauses``: topic -> rule clause cited in results (``"*"`` is the fallback).
- ``decks``: the most decks the shoe may hold (duplicate-card check).
- ``blackjack_pays``: the posted natural ratio ("3/2"); ``natural_after_split``: false everywhere.
- ``ties``: ``{"default": "push"|"dealer", "push_totals": [..]}``; both naturals always push.
- ``dealer``: ``{"soft17": "stand"|"hit", "hole_card": "none"|"no_peek"|"peek"|"open", "push_on": 22|null}``.
- ``double``: ``{"totals": "any"|[9, 10, 11], "after_split": bool, "ace_counts_one": bool,
  "free": null|{"totals": [..], "no_ace": bool}}``.
- ``split``: ``{"pairs": "value"|"rank", "max_hands": int|null, "aces_one_card": bool,
  "resplit_aces": bool, "free": null|{"except_values": [10]}}``.
- ``insurance``: null | ``{"amount": "exactly_half"|"up_to_half", "pays": "2", "blackjack_insurable": bool,
  "insured_hand_no_double_split": bool}``.
- ``even_money``: null | ``{"up_cards": ["A"]}``; ``surrender``: null | ``{"not_vs": ["A"], "loses": "1/2"}``.
- ``ten_up_blackjack_takes_original_only``: the doubled stake is returned when a ten-up dealer makes a
  blackjack (GH F/G; doubles only, Ambiguity 13).
- ``charlie``: null | ``{"cards": 10, "pays": "1", "loses_to_dealer_blackjack": bool}``.
- ``specials``: ``[{"kind": "three_sevens", "pays": "3"}]``.
- ``swap``: two adjacent boxes may swap their second cards (casino C/D); ``paired_boxes``: equal stakes on
  two adjacent boxes are required.
- ``side_games``: name -> ``{"rule": str, "paytable": [{"hand": <predicate>, "pays": "25"}, ...]}``.
"""

from __future__ import annotations

import copy
from typing import Any

#: The posted natural ratios a version allows, with the suffix of the variant code.
RATIO_CODES = {"1": "1to1", "6/5": "6to5", "7/5": "7to5", "3/2": "3to2", "2/1": "2to1"}


def _merge(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _drop(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for key in keys:
        out.pop(key, None)
    return out


def _by_ratio(code: str, data: dict[str, Any], ratios: list[str]) -> dict[str, dict[str, Any]]:
    """One variant per posted natural ratio (the sign at the table chooses one)."""
    return {f"{code}_{RATIO_CODES[r]}": _merge(data, blackjack_pays=r) for r in ratios}


# ------------------------------------------------------------------------------ 000 game halls (G-6)

_GH = {
    "decks": 8,
    "natural_after_split": False,
    "ties": {"default": "push", "push_totals": []},
    "dealer": {"soft17": "stand", "hole_card": "none", "push_on": None},  # Ambiguity 1, 16
    "double": {"totals": "any", "after_split": True, "ace_counts_one": False, "free": None},
    "split": {"pairs": "value", "max_hands": 2, "aces_one_card": True, "resplit_aces": False, "free": None},
    "insurance": {"amount": "up_to_half", "pays": "2", "blackjack_insurable": True,
                  "insured_hand_no_double_split": False},
    "even_money": None,
    "surrender": None,
    "ten_up_blackjack_takes_original_only": False,
    "charlie": None,
    "specials": [],
    "swap": False,
    "paired_boxes": False,
    "side_games": {},
}


def _gh(version: str, lines: str, **changes: Any) -> dict[str, Any]:
    return _merge(_GH, clauses={"*": f"000-casino G-6 version {version} ({lines})"}, **changes)


GH_A = _gh(
    "A", "L865-893",
    ties={"default": "dealer", "push_totals": [21]},
    double={"totals": [9, 10, 11], "after_split": False, "ace_counts_one": True},
    split={"max_hands": 2},
    insurance={"amount": "exactly_half", "blackjack_insurable": False, "insured_hand_no_double_split": True},
)
GH_B = _gh(
    "B", "L895-927",
    double={"totals": [9, 10, 11], "after_split": True, "ace_counts_one": True},
    split={"max_hands": 3},
    even_money={"up_cards": ["A"]},
)
GH_C = _merge(GH_B, clauses={"*": "000-casino G-6 version C (L929-933)"},
              double={"totals": "any", "ace_counts_one": False})
GH_D = _merge(GH_B, clauses={"*": "000-casino G-6 version D (L935)"}, split={"max_hands": 2})
GH_E = _merge(GH_B, clauses={"*": "000-casino G-6 version E (L937-941)"}, split={"max_hands": 2},
              double={"totals": "any", "ace_counts_one": False})
GH_F = _gh(
    "F", "L943-985",
    blackjack_pays="3/2",
    dealer={"hole_card": "no_peek"},
    split={"max_hands": 2},
    insurance={"amount": "exactly_half"},
    ten_up_blackjack_takes_original_only=True,
    charlie={"cards": 10, "pays": "1", "loses_to_dealer_blackjack": True},
)
GH_G = _merge(GH_F, clauses={"*": "000-casino G-6 version G (L987)"}, charlie=None)
GH_H = _gh(
    "H", "L989-1031",
    ties={"default": "dealer", "push_totals": [20, 21]},
    split={"max_hands": 4},
    insurance={"blackjack_insurable": False},
    even_money={"up_cards": ["A", "T"]},
    surrender={"not_vs": ["A"], "loses": "1/2"},
    specials=[{"kind": "three_sevens", "pays": "3"}],
)

# --------------------------------------------------------------------------------- 000 casino (C-9)

_CAS = _merge(
    _GH,
    clauses={"*": "000-casino C-9 base rules (L2228-2280)"},
    decks=6,
    split={"max_hands": None, "aces_one_card": False, "resplit_aces": True},
)


def _cas(version: str, lines: str, **changes: Any) -> dict[str, Any]:
    clauses = {"*": f"000-casino C-9 version {version} ({lines}) with the base rules (L2228-2280)"}
    return _merge(_CAS, clauses=clauses, **changes)


CAS_A = _cas("A", "L2282", dealer={"hole_card": "peek"})
CAS_B = _cas(
    "B", "L2286-2294",
    blackjack_pays="1",
    dealer={"hole_card": "open"},
    ties={"default": "dealer", "push_totals": []},
    double={"totals": [9, 10, 11], "after_split": False},
    split={"max_hands": 2},
)
CAS_C = _cas("C", "L2296-2302", blackjack_pays="1", dealer={"push_on": 22}, swap=True, paired_boxes=True)
CAS_D = _merge(CAS_C, clauses={"*": "000-casino C-9 version D (L2304) as C (L2296-2302) with the base rules"},
               dealer={"soft17": "hit"})
CAS_E = _cas(
    "E", "L2305-2328",
    blackjack_pays="3/2",
    dealer={"soft17": "hit", "push_on": 22},
    double={"free": {"totals": [9, 10, 11], "no_ace": True}},
    split={"free": {"except_values": [10]}},
    surrender=None,
)

VARIANTS_000: dict[str, dict[str, Any]] = {
    **_by_ratio("gh_a", GH_A, ["3/2", "2/1"]),
    **_by_ratio("gh_b", GH_B, ["1", "6/5", "7/5", "3/2"]),
    **_by_ratio("gh_c", GH_C, ["1", "6/5", "7/5", "3/2"]),
    **_by_ratio("gh_d", GH_D, ["1", "6/5", "7/5", "3/2"]),
    **_by_ratio("gh_e", GH_E, ["1", "6/5", "7/5", "3/2"]),
    "gh_f": GH_F,
    "gh_g": GH_G,
    **_by_ratio("gh_h", GH_H, ["3/2", "2/1"]),
    **_by_ratio("cas_base", _CAS, ["1", "6/5", "7/5", "3/2"]),
    **_by_ratio("cas_a", CAS_A, ["1", "6/5", "7/5", "3/2"]),
    "cas_b": CAS_B,
    "cas_c": CAS_C,
    "cas_d": CAS_D,
    "cas_e": CAS_E,
}

# ------------------------------------------------------------------------------------- 002 RAY §5.8

RAY_A = _merge(
    GH_A,
    clauses={
        "*": "002 §5.8.2", "win": "002 §5.8.2 BJA-03", "tie": "002 §5.8.2 BJA-03", "natural": "002 §5.8.2 BJA-04",
        "double": "002 §5.8.2 BJA-05", "split": "002 §5.8.2 BJA-06", "insurance": "002 §5.8.2 BJA-07",
        "dealer": "002 §5.8.2 BJA-02", "bust": "002 §5.8.1 BJ-01",
    },
)
#: Version B: doubling, splitting, insurance, side games lost (BJB-04): those keys are absent (required).
RAY_B = _drop(
    _merge(
        RAY_A,
        clauses={
            "*": "002 §5.8.3", "win": "002 §5.8.3 BJB-02", "tie": "002 §5.8.3 BJB-02",
            "natural": "002 §5.8.3 BJB-03", "dealer": "002 §5.8.3 BJB-01", "bust": "002 §5.8.1 BJ-01",
            "double": "002 §5.8.3 BJB-04 (text lost; published rule version)",
            "split": "002 §5.8.3 BJB-04 (text lost; published rule version)",
            "insurance": "002 §5.8.3 BJB-04 (text lost; published rule version)",
        },
        ties={"default": "push", "push_totals": []},
    ),
    "double", "split", "insurance", "even_money", "surrender", "side_games",
)

VARIANTS_002: dict[str, dict[str, Any]] = {
    **_by_ratio("a", RAY_A, ["3/2", "2/1"]),
    **_by_ratio("b", RAY_B, ["1", "6/5", "7/5", "3/2"]),
}

# -------------------------------------------------------------------------------- 004 Billionaire Ch.8

BILLIONAIRE = _merge(
    _GH,
    clauses={
        "*": "004 Ch.8", "natural": "004 Ch.8 §8.3.1", "even_money": "004 Ch.8 §8.3.1",
        "win": "004 Ch.8 §8.3.2", "tie": "004 Ch.8 §8.3.2", "dealer_blackjack": "004 Ch.8 §8.3.2",
        "double": "004 Ch.8 §8.3.3-§8.3.4", "split": "004 Ch.8 §8.3.5", "insurance": "004 Ch.8 §8.3.6",
        "surrender": "004 Ch.8 §8.3.7", "dealer": "004 Ch.8 §8.2.9", "bust": "004 Ch.8 §8.2.7",
    },
    decks=6,
    blackjack_pays="3/2",
    split={"pairs": "rank", "max_hands": 4, "aces_one_card": True, "resplit_aces": False},  # A23
    even_money={"up_cards": ["A"]},
    surrender={"not_vs": ["A"], "loses": "1/2"},
)

VARIANTS_004: dict[str, dict[str, Any]] = {"standard": BILLIONAIRE}
