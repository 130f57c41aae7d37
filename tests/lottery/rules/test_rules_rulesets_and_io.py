"""Rule sets as plain JSON data, the JSON round I/O and the engine's purity (no Django)."""

from __future__ import annotations

import ast
import copy
import json
import pathlib
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lottery.rules.rulesets as rulesets_module
from lottery.rules import (
    DEFAULT_RULESETS,
    GAMES,
    InvalidParams,
    RoundInputError,
    RulesError,
    calculate_round,
    default_params,
)
from lottery.rules.money import allocate_cents, parse_amount, round_to_step
from tests.lottery.rules.rules_support import PROPERTY

RULES_DIR = pathlib.Path(__file__).resolve().parents[3] / "lottery" / "rules"
MINIMAL_ROUNDS = {
    "lotto": {"turnover": "1000000.00", "winners": {"4": 10}},
    "eurojackpot": {"turnover": "1000000.00", "winners": {"12": 10}},
    "vikinglotto": {"turnover": "1000000.00", "winners": {"8": 10}},
    "milli": {"winners": {"4": 10}},
    "keno": {"lines": [{"level": 5, "hits": 5, "stake": "1.00"}]},
    "kaikki_tai_ei_mitaan": {"lines": [{"hits": 12, "stake": "1.00"}]},
    "synttarit": {"lines": [{"match": "DM", "stake": "1.00"}]},
    "jokeri": {"winners": {"4": 10}},
    "lomatonni": {"winners": {"2": 10}},
    "tahdenlento": {"lines": [{"numbers": 4, "hits": 4, "stake": "1.00"}]},
}


# -- rule sets ---------------------------------------------------------------------------------------


def test_default_rulesets_hold_one_versioned_rule_set_per_game() -> None:
    assert [r["game"] for r in DEFAULT_RULESETS] == list(GAMES)
    assert len(GAMES) == 10
    for r in DEFAULT_RULESETS:
        assert set(r) == {"game", "version", "effective_from", "params"}
        assert r["version"] and len(r["effective_from"]) == 10


def test_default_rulesets_are_json_without_floats() -> None:
    def walk(value: object) -> None:
        assert not isinstance(value, float), value
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(DEFAULT_RULESETS)
    assert json.loads(json.dumps(DEFAULT_RULESETS)) == DEFAULT_RULESETS


@pytest.mark.parametrize("game", GAMES)
def test_engine_accepts_json_roundtripped_params(game: str) -> None:
    params = json.loads(json.dumps(default_params(game)))
    assert calculate_round({"game": game, **MINIMAL_ROUNDS[game]}, params) == calculate_round(
        {"game": game, **MINIMAL_ROUNDS[game]}
    )


def test_engine_reads_shares_from_the_params_it_is_given() -> None:
    params = default_params("lotto")
    params["classes"][3]["share"] = "0.0400"
    out = calculate_round({"game": "lotto", **MINIMAL_ROUNDS["lotto"]}, params)
    assert out["classes"]["4"]["pool"] == "40000.00"


def test_engine_does_not_use_module_constants_when_params_are_given(monkeypatch: pytest.MonkeyPatch) -> None:
    params = default_params("keno")
    expected = calculate_round({"game": "keno", **MINIMAL_ROUNDS["keno"]}, params)
    monkeypatch.setattr(rulesets_module, "DEFAULT_RULESETS", [])
    monkeypatch.setattr(rulesets_module, "_KENO", {})
    assert calculate_round({"game": "keno", **MINIMAL_ROUNDS["keno"]}, params) == expected


def test_eurojackpot_parameters_carry_the_published_pool_fraction_rounding_and_jackpot_bounds() -> None:
    params = default_params("eurojackpot")
    assert params["pool_fraction"] == "0.50"
    assert params["rounding"] == {"step": "0.10", "mode": "down"}
    first = params["classes"][0]
    assert (first["min_pool"], first["max_pool"], first["overflow_to"]) == (
        "10000000.00",
        "120000000.00",
        "2",
    )
    shares = sum(Decimal(c["share"]) for c in params["classes"]) + Decimal(params["fund"]["share"])
    assert shares == Decimal("1")


def test_a_malformed_parameter_is_reported_with_its_path() -> None:
    params = default_params("lotto")
    params["classes"][1]["share"] = 0.038
    with pytest.raises(InvalidParams) as info:
        calculate_round({"game": "lotto", **MINIMAL_ROUNDS["lotto"]}, params)
    assert info.value.path == "params.classes[1].share"


def test_a_rounding_step_of_ten_cents_is_a_parameter() -> None:
    params = default_params("lotto")
    params["rounding"]["step"] = "0.10"
    out = calculate_round({"game": "lotto", "turnover": "10250000.00", "winners": {"2": 3}}, params)
    assert out["classes"]["2"]["prize"] == "129833.30"


# -- JSON round I/O -----------------------------------------------------------------------------------


def test_calculate_round_echoes_game_and_rules_version() -> None:
    out = calculate_round({"game": "lomatonni", "rules_version": "2024-1", "winners": {"1": 1}})
    assert (out["game"], out["rules_version"]) == ("lomatonni", "2024-1")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"game": "bingo"}, "game"),
        ({"game": "lotto", "winners": {}}, "turnover"),
        ({"game": "lotto", "turnover": "1.005", "winners": {}}, "turnover"),
        ({"game": "lotto", "turnover": 100.0, "winners": {}}, "turnover"),
        ({"game": "lotto", "turnover": "-1.00", "winners": {}}, "turnover"),
        ({"game": "lotto", "turnover": "1.00", "winners": {"3": "4"}}, "winners.3"),
        ({"game": "lotto", "turnover": "1.00", "winners": {"8": 1}}, "winners.8"),
        ({"game": "lotto", "turnover": "1.00", "winners": {}, "rollover_in": {"2": "x"}}, "rollover_in.2"),
        ({"game": "lotto", "turnover": "1.00", "winners": {}, "tuplaus": {"doubled": {"2": 1}}}, "tuplaus"),
        ({"game": "lotto", "turnover": "1.00", "winners": {}, "bonus": 1}, "bonus"),
        ({"game": "keno", "lines": []}, "lines"),
        ({"game": "keno", "lines": [{"level": 5, "hits": 6, "stake": "1.00"}]}, "lines[0].hits"),
        ({"game": "keno", "lines": [{"level": 5, "hits": 2, "stake": "1.00", "count": 0}]}, "lines[0].count"),
        ({"game": "keno", "lines": [{"level": 5, "hits": 2}]}, "lines[0].stake"),
        ({"game": "keno", "lines": [{"picks": [1, 2], "stake": "1.00"}]}, "result"),
        (
            {
                "game": "keno",
                "result": {"numbers": list(range(1, 21)), "kunkku": 1},
                "lines": [{"picks": [1, 1], "stake": "1.00"}],
            },
            "lines[0].picks",
        ),
        ({"game": "synttarit", "lines": [{"match": "DX", "stake": "1.00"}]}, "lines[0].match"),
        ({"game": "tahdenlento", "lines": [{"numbers": 9, "hits": 3, "stake": "1.00"}]}, "lines[0].numbers"),
    ],
)
def test_invalid_round_input_names_the_offending_field(data: dict, field: str) -> None:
    with pytest.raises(RoundInputError) as info:
        calculate_round(data)
    assert info.value.field == field
    assert info.value.message


def test_round_input_error_is_a_rules_error_for_one_except_clause_in_the_command() -> None:
    assert issubclass(RoundInputError, RulesError) and issubclass(InvalidParams, RulesError)


def test_param_overrides_in_the_input_are_merged_and_explained() -> None:
    out = calculate_round(
        {
            "game": "lotto",
            "turnover": "10250000.00",
            "winners": {"2": 3},
            "param_overrides": {"rounding": {"step": "0.10"}},
        }
    )
    assert out["classes"]["2"]["prize"] == "129833.30"
    assert out["explain"][0] == "Rule parameters overridden for this calculation: rounding.step"


def test_multiplier_output_lines_keep_the_input_order_and_fields() -> None:
    lines = [
        {"level": 7, "hits": 5, "king": True, "stake": "2.00", "count": 3},
        {"level": 2, "hits": 0, "stake": "1.00", "count": 1},
    ]
    out = calculate_round({"game": "keno", "lines": lines})
    assert out["lines"][0] == {
        **lines[0],
        "class": "7-5-kunkku",
        "calculated": "60.00",
        "prize": "60.00",
        "paid": "180.00",
    }
    assert out["lines"][1]["class"] is None


# -- money ---------------------------------------------------------------------------------------------


def test_rounding_down_to_the_cent_and_to_ten_cents() -> None:
    x = Fraction(1940000, 9)
    assert round_to_step(x, Fraction(1, 100)) == Fraction("215555.55")
    assert round_to_step(x, Fraction(1, 10)) == Fraction("215555.5")
    assert round_to_step(Fraction("0.125"), Fraction(1, 100), "half_up") == Fraction("0.13")


def test_amount_parser_refuses_floats_and_sub_cent_values() -> None:
    with pytest.raises(RoundInputError, match="not floats"):
        parse_amount(0.1, "x")
    with pytest.raises(RoundInputError, match="more than 2 decimal places"):
        parse_amount("0.001", "x")
    assert parse_amount("12.50", "x") == Fraction(25, 2)


@PROPERTY
@given(
    st.lists(st.fractions(min_value=0, max_value=10**7, max_denominator=10**6), min_size=1, max_size=8),
    st.integers(0, 10**9),
)
def test_largest_remainder_booking_adds_up_and_moves_each_part_by_less_than_a_cent(
    parts: list[Fraction], top: int
) -> None:
    total_cents = Fraction(top, 100)
    scale = total_cents / sum(parts) if sum(parts) else Fraction(0)
    exact = [p * scale for p in parts] if sum(parts) else [Fraction(0)] * (len(parts) - 1) + [total_cents]
    booked = allocate_cents(exact, total_cents)
    assert sum(booked) == total_cents
    assert all(abs(b - e) < Fraction(1, 100) for b, e in zip(booked, exact))
    assert all((b * 100).denominator == 1 for b in booked)


@PROPERTY
@given(st.integers(0, 10**12), st.integers(1, 10**6))
def test_rounding_a_pool_to_the_cent_first_never_changes_the_prize_per_winner(
    pool_micro: int, winners: int
) -> None:
    """Pools are booked in cents; floor(floor_cent(P) / n) == floor(P / n) (NOTES.md)."""
    pool = Fraction(pool_micro, 10**6)
    cent = Fraction(1, 100)
    assert round_to_step(round_to_step(pool, cent) / winners, cent) == round_to_step(pool / winners, cent)


# -- purity ------------------------------------------------------------------------------------------


def rules_modules() -> list[str]:
    names = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        rel = path.relative_to(RULES_DIR.parent.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return names


def test_rules_package_imports_nothing_from_django_or_the_database() -> None:
    banned = (
        "django",
        "rest_framework",
        "celery",
        "psycopg",
        "sqlite3",
        "lottery.models",
        "players",
        "compliance",
    )
    for path in RULES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith(banned), f"{path.name} imports {name}"


def test_every_rules_module_imports_with_django_absent() -> None:
    modules = rules_modules()
    assert "lottery.rules.jsonio" in modules and "lottery.rules.games.keno" in modules
    code = (
        "import importlib, sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'django' or name.startswith('django.'):\n"
        "            raise ImportError('django is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for m in {modules!r}:\n"
        "    importlib.import_module(m)\n"
        "assert not any(n == 'django' or n.startswith('django.') for n in sys.modules)\n"
        "print('ok')\n"
    )
    root = RULES_DIR.parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_default_params_returns_an_independent_copy() -> None:
    params = default_params("lotto")
    params["classes"].clear()
    assert default_params("lotto")["classes"]
    assert copy.deepcopy(DEFAULT_RULESETS) == DEFAULT_RULESETS
