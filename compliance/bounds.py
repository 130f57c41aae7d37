"""The largest values the database columns hold, for validators (`max_value=...`): a number that passes
validation always fits its column, on SQLite and PostgreSQL alike (issue 14: no 5xx on any input)."""

import re

SMALLINT_MAX = 2**15 - 1  # SmallIntegerField
INT_MAX = 2**31 - 1  # IntegerField, PositiveIntegerField
BIGINT_MAX = 2**63 - 1  # BigIntegerField, BigAutoField (ids)

_INT = re.compile(r"[0-9]{1,19}")
_SIGNED_INT = re.compile(r"-?[0-9]{1,19}")


def parse_int(text, *, maximum: int = BIGINT_MAX, signed: bool = False) -> int | None:
    """`text` as an int when it is a plain ASCII integer (a leading "-" only when `signed`) no larger
    than `maximum` in size; None otherwise. `str.isdigit()` is not enough: "²" passes it and `int()`
    refuses it, and "9" * 30 passes both but fits no column."""
    if not isinstance(text, str) or not (_SIGNED_INT if signed else _INT).fullmatch(text):
        return None
    value = int(text)
    return value if abs(value) <= maximum else None
