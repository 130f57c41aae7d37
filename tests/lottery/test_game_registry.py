"""The game registry (issue 16 item 1): one spec per game, asked by everything outside the game's module."""

from __future__ import annotations

import ast
import pathlib

import pytest
from django.utils import translation

from compliance.games import DuplicateGame, GameRegistry, GameSpec, UnknownGame
from lottery.games import registry
from lottery.models import GAME_CHOICES
from lottery.rules import default_params
from lottery.services import DrawInputError, result_enter
from tests.factories import DrawFactory

# A valid result and a valid line of each game under its default rule version (API terms).
SAMPLES = {
    "lotto": ({"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3}, {"numbers": [1, 2, 3, 4, 5, 6, 9]}),
    "eurojackpot": ({"numbers": [1, 2, 3, 4, 5], "stars": [1, 2]}, {"numbers": [5, 6, 7, 8, 9], "stars": [3, 12]}),
    "vikinglotto": ({"numbers": [1, 2, 3, 4, 5, 6], "viking": 3, "plus": 2},
                    {"numbers": [7, 8, 9, 10, 11, 48], "viking": 5}),
    "milli": ({"numbers": [1, 2, 3, 4, 5, 6], "additional": 8}, {"numbers": [1, 2, 3, 4, 5, 40]}),
    "keno": ({"numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 64, 65, 66, 67, 70], "kunkku": 66},
             {"numbers": [1, 2, 3, 64], "kunkku": True}),
    "kaikki_tai_ei_mitaan": ({"numbers": list(range(1, 13)), "lucky": 2},
                             {"numbers": list(range(13, 25)), "lucky": 3}),
    "synttarit": ({"date": "1990-05-17", "letter": "K"}, {"date": "1990-05-17", "letter": "K"}),
    "jokeri": ({"digits": "0123456"}, {"digits": "0123999", "tuplaus": {"position": 2, "digit": 1}}),
    "lomatonni": ({"city": "Rooma", "number": 22}, {"city": "Rooma", "number": 22}),
    "tahdenlento": ({"numbers": list(range(1, 15)), "bonus": 2}, {"numbers": [1, 2, 3, 4], "bonus": 2}),
}


def test_every_game_of_the_lottery_is_registered_once():
    assert sorted(registry.codes()) == sorted(code for code, _ in GAME_CHOICES) == sorted(SAMPLES)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_a_result_round_trips_through_its_games_codec(db, code):
    spec, params = registry.get(code), default_params(code)
    parsed = spec.codec.parse_result(params, SAMPLES[code][0])
    again = spec.codec.parse_result(params, parsed.numbers)
    assert (again, registry.of_result(parsed.numbers)) == (parsed, spec)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_a_line_round_trips_through_its_games_codec(db, code):
    codec, params = registry.get(code).codec, default_params(code)
    values = codec.parse_line(params, SAMPLES[code][1])
    described = codec.describe_line(values.main_mask, values.extra_mask, values.plus, values.flags, params)
    assert codec.parse_line(params, described) == values


def test_the_registry_refuses_a_second_game_with_the_same_code():
    games = GameRegistry("test")
    games.register(GameSpec(code="blackjack", name="Blackjack"))
    with pytest.raises(DuplicateGame):
        games.register(GameSpec(code="blackjack", name="Blackjack again"))


def test_an_unknown_game_is_a_domain_error_that_names_it():
    with pytest.raises(UnknownGame) as caught:
        registry.get("bingo")
    assert (caught.value.code, "bingo" in str(caught.value)) == ("unknown_game", True)


def test_the_add_on_games_come_from_the_specs():
    assert registry.addon_games() == ("jokeri", "lomatonni")


# ------------------------------------------------------------------------------------------------
# no branching on a game's name outside its own module
# ------------------------------------------------------------------------------------------------

LOTTERY = pathlib.Path(__file__).resolve().parents[2] / "lottery"
CODES = frozenset(code for code, _ in GAME_CHOICES)


def _own_module(path: pathlib.Path, code: str) -> bool:
    """A game's own module (`lottery/games/<module>.py`, whose codec has the code) and its engine."""
    if path.parent.name == "games" and path.parent.parent.name == "rules":
        return True  # the pure engines: one module per game, and their own tables of games
    spec = registry.find(code)
    return spec is not None and path.parent == LOTTERY / "games" and \
        pathlib.Path(type(spec.codec).__module__.replace(".", "/")).name == path.stem


def _game_literals(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in CODES]


def branches_on_game_names(path: pathlib.Path, source: str | None = None) -> list[str]:
    """Comparisons (==, !=, in, not in) and match cases that test a game code literal."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    found = []
    for node in ast.walk(tree):
        tested: list[str] = []
        if isinstance(node, ast.Compare):
            tested = _game_literals(node)
        elif isinstance(node, ast.match_case):
            tested = _game_literals(node.pattern)
        found += [f"{path.relative_to(LOTTERY.parent)}:{node.lineno} {code}" for code in tested
                  if not _own_module(path, code)]
    return found


def test_no_module_of_the_lottery_branches_on_a_game_name_outside_the_games_own_module():
    sources = sorted(p for p in LOTTERY.rglob("*.py") if "migrations" not in p.parts)
    assert [hit for path in sources for hit in branches_on_game_names(path)] == []


def test_the_check_finds_a_branch_on_a_game_name_in_a_view_but_not_in_the_games_own_module():
    probe = 'def f(game):\n    return 1 if game == "keno" else 2\n'
    assert (branches_on_game_names(LOTTERY / "draw_views.py", probe),
            branches_on_game_names(LOTTERY / "games" / "keno.py", probe)) == (["lottery/draw_views.py:2 keno"], [])


# ------------------------------------------------------------------------------------------------
# messages in the reader's language
# ------------------------------------------------------------------------------------------------

def test_a_result_error_raised_in_english_shows_in_finnish_to_a_finnish_reader(db, enterer):
    draw = DrawFactory(state="closed")
    with translation.override("en"), pytest.raises(DrawInputError) as caught:
        result_enter(actor=enterer, draw=draw, numbers={"numbers": [1, 2, 3, 4, 5, 6, 7], "plus": 3},
                     draw_method="device", witnesses="W")
    with translation.override("fi"):
        assert str(caught.value) == "Lotto, tulos: lisänumero puuttuu"


def test_a_result_error_shows_in_english_to_an_english_reader(db, enterer):
    draw = DrawFactory(state="closed")
    with pytest.raises(DrawInputError) as caught:
        result_enter(actor=enterer, draw=draw, numbers={"numbers": [1, 2, 3, 4, 5, 6, 7], "plus": 3},
                     draw_method="device", witnesses="W")
    with translation.override("en"):
        assert str(caught.value) == "Lotto result: the additional number is required"


@pytest.mark.parametrize(("language", "name"), [("fi", "7 oikein"), ("sv", "7 rätt"), ("en", "7 correct")])
def test_a_prize_class_name_is_shown_in_the_readers_language(language, name):
    with translation.override(language):
        assert registry.get("lotto").class_name("1", "7 correct") == name


def test_a_numeric_prize_class_name_reads_the_same_in_every_language():
    with translation.override("fi"):
        assert registry.get("eurojackpot").class_name("2", "5+1") == "5+1"
