"""Default rule sets: every prize parameter of the ten Veikkaus games, as plain JSON data.

One entry per game in :data:`DEFAULT_RULESETS`::

    {"game": "lotto", "version": "2024-1", "effective_from": "2024-01-01", "params": {...}}

``params`` is JSON-serialisable (decimals are strings). The Django side loads these rows into
a table in a migration and later passes a row's ``params`` back to the engine, so the engine
reads every share, fixed prize, multiplier, cap, rounding step, pool fraction and
interpretation switch from ``params`` at compute time -- never from this module.

Sources: digest ``spec/000-lottery.md`` §3 (formats), §5.1-§5.11 (prizes and caps), §15
(algorithms), §17 (interpretations); the Finnish original wins where they differ (see
``NOTES.md``). Eurojackpot's pool fraction (50 %), rounding (down to 0.10 €) and jackpot
bounds (10,000,000 / 120,000,000 €, excess to class 2) come from published results.

Interpretation switches (digest §17) -- the default is the digest's chosen reading:

=============================================  ==========================================
parameter                                      default (alternative)
=============================================  ==========================================
``min_pool_mode`` (A3, Lotto 2/3)              ``after_rollover`` (``before_rollover``)
``rollover_carries_topup`` (A3)                false; Vikinglotto true (see NOTES.md)
``unwon_jackpot.mode`` (A4)                    Lotto ``add``, Jokeri ``replace``
``plussa.limit_basis`` (A1)                    ``boosted_base`` (``class_base``)
``plussa.multiply`` (§0.4, W6a)                ``rounded`` (``exact``)
``class_cap.scope`` (A8, Milli)                ``per_class`` (``combined``)
``stake_basis`` (A9, Keno/KTEM/Tähdenlento)    ``base`` (``with_addon_fee``)
``kunkku_mode`` (A10, Keno)                    ``drawn_in_picks`` (``designated``)
``class_scope`` (A12, KTEM)                    ``row`` (``symmetric_pair``)
``matcher`` (A14, Jokeri)                      ``any_positions`` (``run_from_either_end``)
``tuplaus.counts_against_cap`` (A15)           false (true)
``tuplaus.classes`` (§35, open)                all classes 1-6 (e.g. ["2".."6"])
``tuplaus.multiply``                           ``rounded`` (``exact``)
``cap_scope`` (A16, Tähdenlento)               ``cell`` (``row``)
=============================================  ==========================================
"""

from __future__ import annotations

import copy
from typing import Any

VERSION = "2024-1"
EFFECTIVE_FROM = "2024-01-01"

CENT_DOWN = {"step": "0.01", "mode": "down"}


def _lotto() -> dict[str, Any]:
    """Lotto, §11 and §28 (digest §5.1, §15.1, §15.2)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"numbers": 7, "max": 40, "additional": 1, "plus_max": 30},
        "base": "turnover",  # round turnover excluding the Plussa extra turnover (§28)
        "classes": [
            {"class": "1", "label": "7 correct", "kind": "jackpot"},
            {
                "class": "2",
                "label": "6 + additional correct",
                "kind": "share",
                "share": "0.0380",
                "min_pool": None,
            },
            {"class": "3", "label": "6 correct", "kind": "share", "share": "0.0250", "min_pool": None},
            {"class": "4", "label": "5 correct", "kind": "share", "share": "0.0300"},
            {"class": "5", "label": "4 correct", "kind": "fixed", "prize": "10.00"},
            {"class": "6", "label": "3 + additional correct", "kind": "fixed", "prize": "2.00"},
            {"class": "7", "label": "plus number correct", "kind": "plus", "prize": "5.00"},
        ],
        "merge_classes": ["1", "2", "3", "4"],
        "min_prize": {"amount": "10.00", "classes": ["1", "2", "3", "4"]},
        "min_pool_mode": "after_rollover",
        "rollover_carries_topup": False,
        "unwon_jackpot": {"mode": "add", "classes": ["2", "3", "4", "5", "6"]},
        "plussa": {
            "classes": ["2", "3", "4", "5", "6"],
            "multiplier": "5",
            "limit": "1000000.00",
            "extra": "4000000.00",
            "limit_basis": "boosted_base",
            "multiply": "rounded",
        },
    }


_EJ_SHARES = [
    ("1", "5+2", "0.3600"),
    ("2", "5+1", "0.0860"),
    ("3", "5", "0.0485"),
    ("4", "4+2", "0.0080"),
    ("5", "4+1", "0.0100"),
    ("6", "3+2", "0.0110"),
    ("7", "4", "0.0080"),
    ("8", "2+2", "0.0255"),
    ("9", "3+1", "0.0285"),
    ("10", "3", "0.0540"),
    ("11", "1+2", "0.0675"),
    ("12", "2+1", "0.2030"),
]


def _eurojackpot() -> dict[str, Any]:
    """Eurojackpot, §12 and §29 (digest §5.2). Shares are of the prize pool, not of turnover."""
    classes: list[dict[str, Any]] = []
    for key, label, share in _EJ_SHARES:
        cls: dict[str, Any] = {
            "class": key,
            "label": label,
            "kind": "share",
            "share": share,
            "importable": True,
        }
        if key == "1":
            cls.update(min_pool="10000000.00", max_pool="120000000.00", overflow_to="2")
        if key == "2":
            cls.update(max_pool=None, overflow_to=None)  # amount: game instructions (A6)
        classes.append(cls)
    return {
        "rounding": {"step": "0.10", "mode": "down"},
        "format": {"numbers": 5, "max": 50, "stars": 2, "star_max": 12},
        "base": "prize_pool",
        "pool_fraction": "0.50",
        "fund": {"share": "0.0900", "max_pool": None},
        "classes": classes,
        "merge_classes": [key for key, _, _ in _EJ_SHARES],
        "min_prize": None,
        "min_pool_mode": "after_rollover",
        "rollover_carries_topup": False,
        "unwon_jackpot": None,
        "plussa": None,
    }


def _vikinglotto() -> dict[str, Any]:
    """Vikinglotto, §13 and §30 (digest §5.3)."""
    national = [
        ("3", "5+1", "0.0620"),
        ("4", "5", "0.0170"),
        ("5", "4+1", "0.0110"),
        ("6", "4", "0.0220"),
        ("7", "3+1", "0.0380"),
        ("8", "3", "0.0750"),
    ]
    classes: list[dict[str, Any]] = [
        {
            "class": "1",
            "label": "6+1",
            "kind": "common",
            "min_pool": None,
            "max_pool": None,
            "importable": True,
        },
        {"class": "2", "label": "6", "kind": "common", "max_pool": None, "importable": True},
    ]
    classes += [{"class": k, "label": lbl, "kind": "share", "share": s} for k, lbl, s in national]
    classes.append({"class": "9", "label": "plus number correct", "kind": "plus", "prize": "5.00"})
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"numbers": 6, "max": 48, "viking_max": 5, "plus_max": 30},
        "base": "turnover",  # Finnish round turnover excluding Plussa (§30)
        "common_contribution_per_line": "0.185",
        "fund": {"share": None, "max_pool": None},
        "classes": classes,
        "merge_classes": ["1", "2", "3", "4", "5", "6", "7", "8"],
        "min_prize": None,
        "min_pool_mode": "after_rollover",
        # §30 moves the class's *jakosumma* (pool), where §28/§29 move its *jako-osuudet*.
        "rollover_carries_topup": True,
        "unwon_jackpot": None,
        "plussa": {
            "classes": ["2", "3", "4", "5", "6", "7", "8"],
            "multiplier": "5",
            "limit": "1000000.00",
            "extra": "4000000.00",
            "limit_basis": "boosted_base",
            "multiply": "rounded",
        },
    }


def _milli() -> dict[str, Any]:
    """Milli, §14 and §31 (digest §5.4, §15.3)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"numbers": 6, "max": 40, "additional": 1},
        "classes": [
            {"class": "1", "label": "6 correct", "kind": "jackpot", "max_jackpot": "2000000.00"},
            {"class": "2", "label": "5 + additional correct", "kind": "fixed", "prize": "5000.00"},
            {"class": "3", "label": "5 correct", "kind": "fixed", "prize": "500.00"},
            {"class": "4", "label": "4 correct", "kind": "fixed", "prize": "10.00"},
            {"class": "5", "label": "3 correct", "kind": "fixed", "prize": "2.00"},
            {"class": "6", "label": "2 correct", "kind": "fixed", "prize": "1.00"},
        ],
        "class_cap": {"amount": "1000000.00", "classes": ["2", "3", "4", "5", "6"], "scope": "per_class"},
        "unwon_jackpot": None,
        "tuplaus": None,
    }


def _jokeri() -> dict[str, Any]:
    """Jokeri, §18 and §35 (digest §5.8, §15.3)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"digits": 7},
        "matcher": "any_positions",
        "classes": [
            {"class": "1", "label": "7 digits in position", "kind": "jackpot", "digits": 7},
            {
                "class": "2",
                "label": "6 digits in position",
                "kind": "fixed",
                "prize": "20000.00",
                "digits": 6,
                "pool_if_winners_over": {"winners": 50, "pool": "1000000.00"},
            },
            {"class": "3", "label": "5 digits in position", "kind": "fixed", "prize": "500.00", "digits": 5},
            {"class": "4", "label": "4 digits in position", "kind": "fixed", "prize": "50.00", "digits": 4},
            {"class": "5", "label": "3 digits in position", "kind": "fixed", "prize": "6.00", "digits": 3},
            {"class": "6", "label": "2 digits in position", "kind": "fixed", "prize": "3.00", "digits": 2},
        ],
        "class_cap": None,
        "unwon_jackpot": {"mode": "replace", "classes": ["2", "3", "4", "5", "6"]},
        "tuplaus": {
            "classes": ["1", "2", "3", "4", "5", "6"],
            "multiplier": "2",
            "counts_against_cap": False,
            "multiply": "rounded",
        },
    }


def _lomatonni() -> dict[str, Any]:
    """Lomatonni, §19 and §36 (digest §5.9). No caps in the source; §23 allows one."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"cities": None, "number_max": 100},
        "classes": [
            {"class": "1", "label": "city and number correct", "kind": "fixed", "prize": "1000.00"},
            {"class": "2", "label": "city correct", "kind": "fixed", "prize": "5.00"},
        ],
        "class_cap": None,
        "unwon_jackpot": None,
        "tuplaus": None,
    }


# Keno §32: level -> hits -> (Kerroin, Kunkku); None = no prize ("—").
_KENO: dict[int, dict[int, tuple[int | None, int | None]]] = {
    11: {
        11: (1_000_000, 3_000_000),
        10: (25_000, 50_000),
        9: (500, 1_200),
        8: (50, 100),
        7: (6, 20),
        6: (2, 4),
        5: (1, 3),
        4: (None, 2),
        3: (None, 2),
        2: (None, 2),
        1: (None, 5),
        0: (1, None),
    },
    10: {
        10: (200_000, 500_000),
        9: (5_000, 10_000),
        8: (200, 500),
        7: (20, 50),
        6: (4, 10),
        5: (1, 4),
        4: (None, 2),
        3: (None, 2),
        2: (None, 2),
        1: (None, 4),
        0: (1, None),
    },
    9: {
        9: (50_000, 150_000),
        8: (1_200, 3_000),
        7: (50, 100),
        6: (10, 20),
        5: (2, 6),
        4: (None, 2),
        3: (None, 2),
        2: (None, 2),
        1: (None, 4),
    },
    8: {
        8: (10_000, 30_000),
        7: (240, 800),
        6: (20, 60),
        5: (3, 6),
        4: (1, 4),
        3: (None, 2),
        2: (None, 2),
        1: (None, 6),
    },
    7: {7: (2_400, 6_000), 6: (100, 300), 5: (10, 30), 4: (1, 6), 3: (None, 2), 2: (None, 2), 1: (None, 6)},
    6: {6: (420, 2_000), 5: (20, 90), 4: (3, 10), 3: (1, 4), 2: (None, 2), 1: (None, 6)},
    5: {5: (200, 600), 4: (9, 34), 3: (1, 6), 2: (None, 4), 1: (None, 6)},
    4: {4: (32, 200), 3: (2, 14), 2: (1, 6), 1: (None, 6)},
    3: {3: (18, 100), 2: (1, 10), 1: (None, 6)},
    2: {2: (7, 50), 1: (None, 10)},
}


def _cells(pair: tuple[int | None, int | None], names: tuple[str, str]) -> dict[str, str | None]:
    return {name: (None if v is None else str(v)) for name, v in zip(names, pair)}


def _keno() -> dict[str, Any]:
    """Keno, §15 and §32 (digest §5.5, §15.4)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"drawn": 20, "max": 70, "levels": [2, 11]},
        "multipliers": {
            str(level): {str(h): _cells(pair, ("base", "kunkku")) for h, pair in rows.items()}
            for level, rows in _KENO.items()
        },
        "caps": {
            "base_cell": "2500000.00",
            "kunkku_cell": "3000000.00",
            "overall": "15000000.00",
            "split": "stake",
        },
        "stake_basis": "base",
        "kunkku_mode": "drawn_in_picks",
    }


_KTEM: dict[int, tuple[int | None, int | None]] = {
    12: (125_000, 500_000),
    11: (250, 1_000),
    10: (25, 100),
    9: (5, 20),
    8: (1, 4),
    7: (None, 1),
    6: (None, 1),
    5: (None, 1),
    4: (1, 4),
    3: (5, 20),
    2: (25, 100),
    1: (250, 1_000),
    0: (125_000, 500_000),
}


def _ktem() -> dict[str, Any]:
    """Kaikki tai ei mitään with Onnenapila, §16 and §33 (digest §5.6)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"drawn": 12, "max": 24, "numbers": 12, "lucky_max": 4},
        "multipliers": {str(h): _cells(pair, ("base", "clover")) for h, pair in _KTEM.items()},
        "caps": {"class": "3000000.00", "split": "prize", "overall": None},  # overall: §23, operator-set
        "class_scope": "row",
        "stake_basis": "base",
    }


_SYNTTARIT = [
    ("1", "DMYL", 150_000),
    ("2", "DMY", 5_000),
    ("3", "MYL", 500),
    ("4", "DML", 250),
    ("5", "MY", 50),
    ("6", "DM", 15),
    ("7", "ML", 10),
    ("8", "M", 2),
]


def _synttarit() -> dict[str, Any]:
    """Synttärit, §17 and §34 (digest §5.7)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"years": None, "letters": None},
        "classes": [{"class": k, "match": m, "multiplier": str(x)} for k, m, x in _SYNTTARIT],
        "caps": {"class": "3000000.00", "split": "stake", "overall": None},
    }


_TAHDENLENTO: dict[int, dict[int, int]] = {  # numbers -> hits -> multiplier without bonus (bonus = 2x)
    8: {8: 30_000, 7: 300, 6: 30, 5: 3, 4: 1, 0: 1},
    7: {7: 5_000, 6: 100, 5: 7, 4: 2, 0: 1},
    6: {6: 1_000, 5: 15, 4: 2, 3: 1, 0: 1},
    5: {5: 200, 4: 12, 3: 2},
    4: {4: 35, 3: 4, 2: 1},
    3: {3: 16, 2: 2},
}


def _tahdenlento() -> dict[str, Any]:
    """Tähdenlento with its bonus draw, §20 and §37 (digest §5.10)."""
    return {
        "rounding": dict(CENT_DOWN),
        "format": {"drawn": 14, "max": 49, "types": [3, 8], "bonus_tokens": None},
        "multipliers": {
            str(n): {str(h): {"base": str(m), "bonus": str(2 * m)} for h, m in rows.items()}
            for n, rows in _TAHDENLENTO.items()
        },
        "caps": {
            "default": "600000.00",
            "results": {"8+bonus": "1200000.00"},
            "split": "stake",
            "overall": None,
        },
        "cap_scope": "cell",
        "stake_basis": "base",
    }


_BUILDERS = {
    "lotto": _lotto,
    "eurojackpot": _eurojackpot,
    "vikinglotto": _vikinglotto,
    "milli": _milli,
    "keno": _keno,
    "kaikki_tai_ei_mitaan": _ktem,
    "synttarit": _synttarit,
    "jokeri": _jokeri,
    "lomatonni": _lomatonni,
    "tahdenlento": _tahdenlento,
}

#: Game ids, in the order of §1.
GAMES: tuple[str, ...] = tuple(_BUILDERS)

DEFAULT_RULESETS: list[dict[str, Any]] = [
    {"game": game, "version": VERSION, "effective_from": EFFECTIVE_FROM, "params": build()}
    for game, build in _BUILDERS.items()
]


def default_ruleset(game: str) -> dict[str, Any]:
    """A deep copy of the default rule set of ``game`` (KeyError if unknown)."""
    for ruleset in DEFAULT_RULESETS:
        if ruleset["game"] == game:
            return copy.deepcopy(ruleset)
    raise KeyError(game)


def default_params(game: str) -> dict[str, Any]:
    """A deep copy of the default ``params`` of ``game`` (KeyError if unknown)."""
    params: dict[str, Any] = default_ruleset(game)["params"]
    return params
