"""Running the JSON-in, JSON-out commands (`casino_compute`, `lottery_compute`; compliance.jsoncommand)
as the shell does: the document goes to a file, the answer is parsed, bad input must exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command


def _file(tmp_path: Path, doc) -> Path:
    path = tmp_path / "in.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def run_command(name: str, tmp_path: Path, doc) -> dict:
    """The command's answer to `doc` (a JSON value, or the text of a file)."""
    out = io.StringIO()
    call_command(name, "--input", str(_file(tmp_path, doc)), stdout=out)
    return json.loads(out.getvalue())


def command_output(name: str, tmp_path: Path, doc) -> str:
    out = io.StringIO()
    call_command(name, "--input", str(_file(tmp_path, doc)), stdout=out)
    return out.getvalue()


def refused(name: str, tmp_path: Path, doc, *, path: Path | None = None) -> str:
    """The command refuses `doc` with exit status 2; what it wrote on stderr."""
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command(name, "--input", str(path or _file(tmp_path, doc)), stdout=io.StringIO(), stderr=err)
    assert exit_.value.code == 2
    return err.getvalue()
