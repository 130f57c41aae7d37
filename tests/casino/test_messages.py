"""Every refusal a round engine can raise reaches staff and systems in their language: the casino's
boundary (casino.messages) has a translated template for each message shape, found by walking the
engines' source for `EngineError(field, message)`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from casino import messages
from casino.rules.base import EngineError
from compliance import roles
from tests.casino.test_round_check_fields import ROULETTE, URL, versions  # noqa: F401  (fixture)

RULES = Path(messages.__file__).parent / "rules"
#: What a round check (page, API) and the complaint kind reach: the round, its bets, venues, cards
#: and every game family. (Poker-room and slot-machine kinds are computed only by the command.)
MODULES = sorted([*(RULES / "games").glob("*.py"),
                  *(RULES / name for name in ("base.py", "jsonio.py", "venues.py", "venues_other.py", "cards.py",
                                              "registry.py", "complaints.py"))])
#: Messages an engine passes on from elsewhere (`str(exc)` of cards.parse_card; a conditional).
PASSED_ON = ["'Zz' is not a card such as As, Kh, 10d, 9c", "a symbol bet has one field, `symbol`", "is required"]


def _text(node: ast.expr) -> list[str]:
    """The English message(s) of an f-string or constant, each value replaced by a sample."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values)]
    if isinstance(node, ast.IfExp):
        return _text(node.body) + _text(node.orelse)
    return []


def engine_messages() -> list[tuple[str, str]]:
    found = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "EngineError"
                    and len(node.args) == 2):
                texts = _text(node.args[1])
                found.extend((f"{path.name}:{node.lineno}", t) for t in texts)
    return found


MESSAGES = engine_messages()


def test_the_walk_finds_the_engines_messages():
    assert len(MESSAGES) > 250 and any(m == "a box number from 1 to 99" for _w, m in MESSAGES)


def test_every_engine_message_has_a_translation():
    missing = [f"{where}: {text}" for where, text in MESSAGES if not messages.translated(text)]
    missing += [text for text in PASSED_ON if not messages.translated(text)]
    assert not missing, "engine messages with no translated template in casino.messages:\n" + "\n".join(missing)


@pytest.mark.parametrize("language", ["fi", "sv"])
def test_every_template_is_translated(language):
    untranslated = []
    for _pattern, template in messages.PATTERNS:
        with translation.override(language):
            shown = str(template)
        with translation.override("en"):
            english = str(template)
        if shown == english:
            untranslated.append(english)
    assert not untranslated, "\n".join(untranslated)


def test_the_parameters_are_filled_in():
    template, params = messages.engine_message(EngineError("outcome.boxes", "box 3 has two hands"))
    with translation.override("fi"):
        assert str(template) % params == "boksilla 3 on kaksi kättä"


def test_a_finnish_page_shows_the_engines_refusal_in_finnish(staff_client, versions):  # noqa: F811
    client = staff_client(roles.OPERATOR)
    with translation.override("fi"):
        response = client.post(URL, {**ROULETTE, "bets-0-stake": "12.345"}, HTTP_ACCEPT_LANGUAGE="fi")
    body = response.content.decode()
    assert "enintään kaksi desimaalia" in body and "at most two decimal places" not in body


def test_a_finnish_api_caller_gets_the_refusal_in_finnish(api_client_for, versions):  # noqa: F811
    body = {"rulebook": "000", "game": "roulette", "variant": "single_zero_la_partage", "venue": "casino",
            "bets": [{"type": "split", "numbers": [17, 20], "stake": "100.00"}], "outcome": {"number": 37},
            "round_at": "2026-06-01T20:00:00+03:00"}
    response = api_client_for(roles.OPERATOR).post("/api/v1/casino/rounds/check/", body, format="json",
                                                  HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 400 and list(response.data["fields"]) == ["outcome.number"]
    text = " ".join(map(str, response.data["fields"]["outcome.number"])) + response.data["detail"]
    assert "ei ole tämän pyörän numero" in text and "is not a number" not in text


@pytest.mark.usefixtures("language_restored")
def test_a_discrepancy_detail_is_said_in_the_readers_language_and_a_rule_citation_is_kept():
    with translation.override("fi"):
        refused = messages.detail_words("bets[0].stake: the amount must be positive")
        violation = messages.detail_words("box 2 has two ante bets")
        citation = messages.detail_words("000-casino C-1: high 1:1")
    assert (refused.startswith("bets[0].stake: "), "the amount must be positive" in refused,
            violation != "box 2 has two ante bets", citation) == (True, False, True, "000-casino C-1: high 1:1")
    assert (messages.cites_rule("payout", "000-casino C-1: high 1:1"), messages.cites_rule("player_refused", "under_age"),
            messages.cites_rule("not_allowed", "box 2 has two ante bets")) == (True, False, False)
