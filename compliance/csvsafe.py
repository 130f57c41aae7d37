"""CSV that a spreadsheet opens safely (issue 14, finding 6; docs/compliance.md, "CSV exports").

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by Excel,
LibreOffice and Google Sheets: a player named `=HYPERLINK(...)` would put a live link, or worse, into
a compliance officer's extract. Every CSV the product writes goes through `csv_writer()`, which
prefixes such a cell with `'` (OWASP's advice), so it is shown as the text it is.

One exception, decided so that amounts stay numbers: a cell that is a plain decimal number
(`-50.00`, `+3`, `1200`) is written as it is; a number is never a formula. Everything else that
starts with one of those characters is neutralised, including `-1+2` or `+358 40 123` (not plain).
"""

from __future__ import annotations

import csv
import re
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def safe_cell(value: Any) -> Any:
    """`value`, with a `'` in front when a spreadsheet would read the text as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, writer):
        self._writer = writer

    def writerow(self, row):
        return self._writer.writerow([safe_cell(v) for v in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def csv_writer(out, **kwargs) -> _SafeWriter:
    """`csv.writer(out, **kwargs)` whose every cell goes through `safe_cell`."""
    return _SafeWriter(csv.writer(out, **kwargs))
