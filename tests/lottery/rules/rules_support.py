"""Helpers shared by the rules-engine tests (imported as a plain module: no package here)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, settings

#: Keep the whole rules suite well under a minute (brief: ~60 s).
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def d(value: str) -> Decimal:
    return Decimal(value)


def cents(value: int) -> str:
    """Integer cents -> decimal string in euros."""
    return f"{value // 100}.{value % 100:02d}"


def assert_round_books_balance(out: dict[str, Any]) -> None:
    """Per class ``allocated + extra = paid + breakage``; per round money in = out."""
    t = {k: d(v) for k, v in out["totals"].items()}
    for key, c in out["classes"].items():
        assert d(c["allocated"]) + d(c["extra"]) == d(c["paid"]) + d(c["breakage"]), key
        assert d(c["breakage"]) >= 0, key
        assert d(c["paid"]) >= 0, key
    out_side = (
        t["paid"]
        + t["breakage"]
        + t["rollover_out"]
        + sum((t.get(k, Decimal(0)) for k in ("fund", "overflow_out", "central_out")), Decimal(0))
    )
    assert t["money_in"] == out_side
    assert t["paid"] == sum(d(c["paid"]) for c in out["classes"].values())
    assert t["breakage"] == sum(d(c["breakage"]) for c in out["classes"].values())


def winners_of(out: dict[str, Any]) -> dict[str, int]:
    return {k: c["winners"] for k, c in out["classes"].items()}
