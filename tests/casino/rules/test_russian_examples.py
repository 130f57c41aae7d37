"""The digests' worked examples of Russian, Open Russian and Novo poker (000-casino §4 E11, E16 (a);
004 §5 E11-E18) as JSON pairs run through casino.rules.jsonio.compute."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casino.rules.jsonio import compute
from tests.jsonpairs import partial_match as contains

EXAMPLES = sorted((Path(__file__).parent / "examples" / "russian_poker").glob("*.json"))


def test_every_example_is_here():
    names = {p.stem.split("_")[0] + "_" + p.stem.split("_")[1] for p in EXAMPLES}
    assert {
        "000_E11",
        "000_E16a",
        "004_E11",
        "004_E12",
        "004_E13a",
        "004_E13b",
        "004_E13c",
        "004_E14",
        "004_E15",
        "004_E16",
        "004_E17",
        "004_E18",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_worked_example(path):
    pair = json.loads(path.read_text())
    contains(compute(pair["input"]), pair["expected"])


def test_the_doc_rounds_compute():
    """Every round in docs/casino/russian_poker.md computes (a reader can copy them)."""
    doc = (Path(__file__).parents[3] / "docs" / "casino" / "russian_poker.md").read_text()
    rounds = [json.loads(b.split("```", 1)[0]) for b in doc.split("```json\n")[1:]]
    rounds = [r for r in rounds if r.get("kind") == "round"]
    assert len(rounds) == 7
    for r in rounds:
        assert compute(r)["bets"]
