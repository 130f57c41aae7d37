"""The legal frames of rulebooks 002 (RAY game halls and partner premises) and 004 (casino Billionaire).

**002 RAY** (kind ``ray``): the annex's Section IV (highest stakes and wins) is lost from the
transcript (002 §0.2, §4.1); the tables' maxima are "shown on a sign at the table" (GEN-04) and a stake
is invalid to the extent it exceeds them (GEN-05). So every limit class is ``None`` here: a round must
give the table's maximum for each class it uses (``venue.max_stake.<class>``) and the highest win
(``venue.win_cap``: an amount, or null when none applies; MAX-05 says only "rules x stakes x odds").
Minimum age 18 (GEN-12).

**004 Billionaire** (kind ``billionaire``): players must be 21 (S1 §1.8, S2 §2.5; a venue may raise
it, S2 §2.9). The rulebook gives no figure for any table limit: each table posts its minimum and
maximum stake and its maximum payout (S2 §2.13, §4.11). The frame therefore sets no maximum of its own
(the largest accepted amount stands in for "no legal figure"); the table's posted maximum is given as
``venue.max_stake.<class>`` and its maximum payout as ``venue.win_cap``. The maximum payout is per box
(004 A28: the net winnings of all stakes on the box in the round; a bet without a box is capped per
player, A38), so the cap scope is ``box``.
"""

from __future__ import annotations

from .base import MAX_AMOUNT, Venue
from .venues import register

#: The limit classes of the table games of each rulebook.
RAY_CLASSES = (
    *(f"roulette_inside_{n}" for n in range(1, 7)),
    "roulette_outside",
    "dice_bet",
    "blackjack_box",
    "poker_box",
    "card_box",
    "pvp_ante",
)
BILLIONAIRE_CLASSES = (
    *(f"roulette_inside_{n}" for n in range(1, 7)),
    "roulette_outside",
    "blackjack_box",
    "poker_box",
    "punto_banco_box",
    "card_box",
)

RAY: Venue = Venue(
    kind="ray",
    max_stake={cls: None for cls in RAY_CLASSES},
    win_cap=None,
    min_age=18,
    rule="002 GEN-04, GEN-05, GEN-12 (RAY game hall; Section IV lost)",
)

BILLIONAIRE: Venue = Venue(
    kind="billionaire",
    max_stake={cls: MAX_AMOUNT for cls in BILLIONAIRE_CLASSES},
    win_cap=None,
    min_age=21,
    rule="004 S1 §1.8, S2 §2.5, §2.13, §4.11 (Billionaire)",
    cap_scope="box",
)

register("002", RAY, win_cap_required=True)
register("004", BILLIONAIRE)

__all__ = ["RAY", "BILLIONAIRE"]
