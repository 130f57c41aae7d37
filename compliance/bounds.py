"""The largest values the database columns hold, for validators (`max_value=...`): a number that passes
validation always fits its column, on SQLite and PostgreSQL alike (issue 14: no 5xx on any input)."""

SMALLINT_MAX = 2**15 - 1  # SmallIntegerField
INT_MAX = 2**31 - 1  # IntegerField, PositiveIntegerField
BIGINT_MAX = 2**63 - 1  # BigIntegerField, BigAutoField (ids)
