"""An answer is recorded with its SHA-256 (the round check's audit event) and compared with what a table
paid, so the same round must give the same answer, to the letter, in every process. Python orders a
set of strings (cards, players) differently in each process (string hashing is randomised); an engine
that lets that order reach its answer gives another rule text or list order after a restart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.casino.rules.support import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = """
import json, sys
from pathlib import Path
from casino.rules.jsonio import compute
out = {}
for path in sorted(Path(sys.argv[1]).rglob("*.json")):
    try:
        out[path.name] = compute(json.loads(path.read_text())["input"])
    except Exception as exc:
        out[path.name] = repr(exc)
print(json.dumps(out, sort_keys=True))
"""


def _answers(hash_seed: int) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(EXAMPLES_DIR)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(run.stdout)


def test_every_worked_example_gives_the_same_answer_whatever_the_string_hashing():
    answers = [_answers(seed) for seed in range(1, 7)]
    assert len(answers[0]) > 200  # every family's examples were computed
    differing = sorted(name for name in answers[0] if len({json.dumps(a[name], sort_keys=True) for a in answers}) > 1)
    assert differing == []
