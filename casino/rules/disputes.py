"""Who decides a dispute at a table, per venue frame (000-casino §3.4; 002 GEN-10; 004 §3.9). Pure:
no Django, no database.

* Game hall (000, GH L621): "In a dispute the **dealer** decides, after which the game ends or the game
  in progress continues."
* Casino (000, CAS L1075): "the **dealer and/or the inspector** decides" (one of them, or both).
* RAY gaming point or arcade (002 GEN-10): "The dealer decides any conflict situations at the table."
* Casino Billionaire (004 Ch.1 §1.2.17, Ch.11 §11.12.3): the establishment's **administration** decides,
  and its decision is final. The digest names no other decider of a dispute, so no other role is
  accepted there (decision recorded in docs/casino-operations.md).

A dispute names one decider per role; at most as many as the frame has roles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEALER, INSPECTOR, ADMINISTRATION = "dealer", "inspector", "administration"
ROLES = (DEALER, INSPECTOR, ADMINISTRATION)


@dataclass(frozen=True)
class Deciders:
    roles: tuple[str, ...]  # the roles that may decide, in the rulebook's order
    rule: str  # the clause


#: (rulebook, frame of casino.rules.venues) -> who may decide a dispute there.
DECIDERS: dict[tuple[str, str], Deciders] = {
    ("000", "game_hall"): Deciders((DEALER,), "000-casino §3.4 (GH L621)"),
    ("000", "casino"): Deciders((DEALER, INSPECTOR), "000-casino §3.4 (CAS L1075)"),
    ("002", "ray"): Deciders((DEALER,), "002 GEN-10"),
    ("004", "billionaire"): Deciders((ADMINISTRATION,), "004 Ch.1 §1.2.17, Ch.11 §11.12.3"),
}

# Problems `check_deciders` reports (the service says them in words).
NO_DECIDER, ROLE_NOT_ALLOWED, ROLE_TWICE, UNKNOWN_FRAME = "no_decider", "role_not_allowed", "role_twice", "unknown_frame"


def deciders_for(rulebook: str, frame: str) -> Deciders | None:
    return DECIDERS.get((rulebook, frame))


def check_deciders(rulebook: str, frame: str, roles: Sequence[str]) -> list[tuple[int | None, str]]:
    """The problems of a dispute's deciders' roles at a venue frame, as (index of the decider or None,
    problem code); empty when the rulebook allows them."""
    allowed = deciders_for(rulebook, frame)
    if allowed is None:
        return [(None, UNKNOWN_FRAME)]
    if not roles:
        return [(None, NO_DECIDER)]
    problems: list[tuple[int | None, str]] = []
    seen: set[str] = set()
    for index, role in enumerate(roles):
        if role not in allowed.roles:
            problems.append((index, ROLE_NOT_ALLOWED))
        elif role in seen:
            problems.append((index, ROLE_TWICE))
        seen.add(role)
    return problems
