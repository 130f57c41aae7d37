"""``lottery_compute``: one JSON document in, its JSON answer out, for the lottery-side computations
that are not a round's prizes (docs/instant-and-pools.md). Pure: no Django, no database.

Kinds: ``pool_shares`` (§38-§39), ``nettiarvat_refund`` and ``nettiarvat_draw`` (NA §4-§15),
``rahapika_eligibility`` and ``rahapika_draw`` (RP §9-§18), ``additional_draw`` (§40-§43).
A round's prizes stay with ``calculate_prizes`` (docs/prize-engine.md), whose input has no ``kind``.
Bad input raises :class:`~lottery.rules.errors.RoundInputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .additional_draw import additional_draw
from .errors import RoundInputError
from .nettiarvat import nettiarvat_draw, nettiarvat_refund
from .pool_play import pool_shares
from .rahapika import rahapika_draw, rahapika_eligibility

KINDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "pool_shares": pool_shares,
    "nettiarvat_refund": nettiarvat_refund,
    "nettiarvat_draw": nettiarvat_draw,
    "rahapika_eligibility": rahapika_eligibility,
    "rahapika_draw": rahapika_draw,
    "additional_draw": additional_draw,
}


def compute(doc: Any) -> dict[str, Any]:
    if not isinstance(doc, Mapping):
        raise RoundInputError("$", "the input must be a JSON object")
    kind = doc.get("kind")
    if kind not in KINDS:
        raise RoundInputError("kind", f"{kind!r} is not one of: {', '.join(sorted(KINDS))}")
    return {"kind": kind, **KINDS[kind](doc)}
