"""Lottery reads shared by pages, commands and the API."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q

from compliance.models import Approval

from .approval_kinds import CORRECTION_KIND, LARGE_WIN_KIND, PAYOUT_KIND, RESULT_KIND
from .models import RETAIL, Draw, Line, Payout, RuleSet, RunState, SettlementRun, TierResult, Wager, Winning
from .rules.errors import RoundInputError
from .rules.jsonio import calculate_round
from .rules.rulesets import GAMES


def ruleset_effective(game: str, on: dt.date) -> RuleSet | None:
    """The version in force on a date: the latest effective_from on or before it."""
    return RuleSet.objects.filter(game=game, effective_from__lte=on).order_by("-effective_from").first()


def ruleset_for_round(game: str, version: str | None, on: dt.date) -> RuleSet:
    if version:
        found = RuleSet.objects.filter(game=game, version=version).first()
        if found is None:
            raise RuleSet.DoesNotExist(f"{game} has no rule version {version!r}")
        return found
    found = ruleset_effective(game, on)
    if found is None:
        raise RuleSet.DoesNotExist(f"{game} has no rule version in force on {on:%Y-%m-%d}")
    return found


def prize_calculation(data: dict, *, version: str | None = None, on: dt.date | None = None) -> tuple[RuleSet, dict]:
    """Compute one round (the `calculate_prizes` JSON format) with the rule version named by
    `version`, else the round's `rules_version`, else the one in force on `on` (default today).

    Raises `lottery.rules.errors.RulesError` (a `RoundInputError` names the field) or
    `RuleSet.DoesNotExist`. The result names the version used.
    """
    from django.utils import timezone

    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RoundInputError("game", f"unknown game {game!r}; one of {', '.join(GAMES)}")
    ruleset = ruleset_for_round(game, version or data.get("rules_version"), on or timezone.localdate())
    result = calculate_round({**data, "rules_version": ruleset.version}, ruleset.params)
    result["rules_version"] = ruleset.version
    return ruleset, result


# ------------------------------------------------------------------------------------------------
# draws, settlement and winners
# ------------------------------------------------------------------------------------------------

BOARD_COLUMNS = [
    ("upcoming", ("planned",)),
    ("open", ("open",)),
    ("awaiting_result", ("closed",)),
    ("awaiting_confirmation", ("result_entered",)),
    ("settling", ("result_confirmed", "corrected")),
    ("settled", ("settled", "approved", "paid")),
    ("cancelled", ("cancelled",)),
]


def draw_board(*, game: str | None = None, per_column: int = 25) -> dict[str, list]:
    """Draws by stage of the pipeline: the nearest upcoming first, the latest finished first."""
    qs = Draw.objects.select_related("game")
    if game:
        qs = qs.filter(game__code=game)
    out = {}
    for key, states in BOARD_COLUMNS:
        order = ("-draw_at",) if key in ("settled", "cancelled") else ("sales_close_at", "draw_at")
        out[key] = list(qs.filter(state__in=states).order_by(*order)[:per_column])
    return out


def current_run(draw):
    """The run to show: an unfinished one (settling, failed, halted) or else the settled one."""
    return (
        SettlementRun.objects.filter(draw=draw).exclude(state=RunState.SUPERSEDED).order_by("-version").first()
    )


PARTIAL_TICKETS = 500  # wagers a partial ticket reference may name on one page's look-up


def payout_state_code(state: str, amount_cents: int) -> str:
    """A payout's state for the listings: a negative amount (a correction lowered or removed the prize)
    is a recovery, never "retail: point of sale" or "paid"."""
    if amount_cents is not None and amount_cents < 0:
        return {"retail": "recovery_retail", "paid": "recovered"}.get(state, "recovery_" + state
                                                                     if state in ("due", "failed") else state)
    return state


@dataclass(frozen=True)
class WinnerFilter:
    class_no: int | None = None
    boosted: bool | None = None
    min_prize_cents: int | None = None
    ticket: str = ""
    order: str = "line"  # line | prize (largest first)


def winners_page(run, flt: WinnerFilter, *, after: str | None = None, limit: int = 50) -> tuple[list[dict], str | None]:
    """One page of a run's winners and the cursor of the next page (keyset pagination: every page
    is an index range scan, whatever the number of winners; no COUNT over the table).

    `after` is the cursor returned with the previous page. `ticket` is a retail ticket reference, or
    "channel:reference" for a wager of another channel.
    """
    qs = Winning.objects.filter(run=run)
    if flt.class_no is not None:
        qs = qs.filter(class_no=flt.class_no)
    if flt.boosted is not None:
        qs = qs.filter(boosted=flt.boosted)
    if flt.min_prize_cents is not None:
        qs = qs.filter(prize_cents__gte=flt.min_prize_cents)
    if flt.ticket:
        # ticket -> its wagers (unique index) -> their lines in this draw (wager index) -> the winnings
        # of those lines ((run, line) index): no scan of the run's winnings.
        channel, _, reference = flt.ticket.rpartition(":") if ":" in flt.ticket else (RETAIL, "", flt.ticket)
        wager_ids = list(Wager.objects.filter(channel=channel, reference=reference).values_list("pk", flat=True))
        if not wager_ids:
            # Part of a reference ("A12" for "A1234"): the draw's wagers whose reference holds it, any
            # channel (a scan of the draw's wagers, only when the exact look-up found nothing).
            partial = Wager.objects.filter(draw_id=run.draw_id, reference__icontains=reference)
            if ":" in flt.ticket:
                partial = partial.filter(channel__icontains=channel)
            wager_ids = list(partial.values_list("pk", flat=True)[:PARTIAL_TICKETS])
        line_ids = list(Line.objects.filter(wager_id__in=wager_ids, draw_id=run.draw_id).values_list("pk", flat=True))
        qs = qs.filter(line_id__in=line_ids)
    if flt.order == "prize":
        # Both columns descending, so the (run, prize, line) index is read backwards, without a sort.
        if after:
            prize, line = (int(x) for x in after.split(":"))
            qs = qs.filter(Q(prize_cents__lt=prize) | Q(prize_cents=prize, line_id__lt=line))
        qs = qs.order_by("-prize_cents", "-line_id")
    else:
        if after:
            qs = qs.filter(line_id__gt=int(after))
        qs = qs.order_by("line_id")
    rows = list(qs.values("line_id", "wager_id", "class_no", "boosted", "prize_cents")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    lines = {x["id"]: x for x in Line.objects.filter(pk__in=[r["line_id"] for r in rows])
             .values("id", "main_mask", "extra_mask", "plus", "flags", "stake_cents", "addon_cents")}
    wagers = {x["id"]: x for x in Wager.objects.filter(pk__in={r["wager_id"] for r in rows})
              .values("id", "reference", "channel", "player_id", "retail_terminal")}
    payouts = {p["line_id"]: p for p in Payout.objects.filter(run=run, line_id__in=[r["line_id"] for r in rows])
               .values("line_id", "state", "amount_cents")}
    for r in rows:
        r["line"] = lines.get(r["line_id"], {})
        r["wager"] = wagers.get(r["wager_id"], {})
        payout = payouts.get(r["line_id"])
        r["payout_cents"] = payout["amount_cents"] if payout else None
        r["payout_state"] = payout_state_code(payout["state"], payout["amount_cents"]) if payout else (
            "unchanged" if run.approved_at else "unapproved")
    cursor = None
    if more and rows:
        last = rows[-1]
        cursor = f"{last['prize_cents']}:{last['line_id']}" if flt.order == "prize" else str(last["line_id"])
    return rows, cursor


def settlement_diff_classes(run) -> list[dict]:
    """Per class: the previous version's and this version's winners, prize and paid total (§27)."""
    new = {t.class_key: t for t in TierResult.objects.filter(run=run)}
    old = {t.class_key: t for t in TierResult.objects.filter(run_id=run.previous_id)} if run.previous_id else {}
    out = []
    # Classes in table order (a multiplier game's cells are keys such as "10-7-kunkku").
    order = {k: t.position for k, t in {**old, **new}.items()}
    for key in sorted(set(new) | set(old), key=lambda k: (order[k], k)):
        a, b = old.get(key), new.get(key)
        row = {
            "class_key": key,
            "label": (b or a).label,
            "old_winners": a.winners if a else 0, "new_winners": b.winners if b else 0,
            "old_prize_cents": a.prize_cents if a else None, "new_prize_cents": b.prize_cents if b else None,
            "old_paid_cents": a.paid_cents if a else 0, "new_paid_cents": b.paid_cents if b else 0,
        }
        row["changed"] = (row["old_winners"], row["old_prize_cents"], row["old_paid_cents"]) != (
            row["new_winners"], row["new_prize_cents"], row["new_paid_cents"])
        out.append(row)
    return out


def settlement_diff_winners(run, *, after: int | None = None, limit: int = 100) -> tuple[list[dict], int | None]:
    """Winners whose class or prize changed between the previous version and this one, by line,
    keyset-paginated: added (no old prize), removed (no new prize) and changed lines."""
    from django.db import connection

    if not run.previous_id:
        return [], None
    start = after or 0
    sql = (
        "SELECT line_id, old_class, old_prize, new_class, new_prize FROM ("
        " SELECT o.line_id, o.class_no AS old_class, o.prize_cents AS old_prize, n.class_no AS new_class,"
        "  n.prize_cents AS new_prize FROM lottery_winning o LEFT JOIN lottery_winning n"
        "  ON n.run_id = %s AND n.line_id = o.line_id WHERE o.run_id = %s AND o.line_id > %s"
        "  AND (n.line_id IS NULL OR n.prize_cents <> o.prize_cents OR n.class_no <> o.class_no)"
        " UNION ALL"
        " SELECT n.line_id, NULL, NULL, n.class_no, n.prize_cents FROM lottery_winning n"
        "  WHERE n.run_id = %s AND n.line_id > %s AND NOT EXISTS"
        "  (SELECT 1 FROM lottery_winning o WHERE o.run_id = %s AND o.line_id = n.line_id)"
        ") d ORDER BY line_id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [run.pk, run.previous_id, start, run.pk, start, run.previous_id, limit + 1])
        rows = [dict(zip(("line_id", "old_class", "old_prize_cents", "new_class", "new_prize_cents"), r))
                for r in cursor.fetchall()]
    more = len(rows) > limit
    rows = rows[:limit]
    for r in rows:
        r["delta_cents"] = (r["new_prize_cents"] or 0) - (r["old_prize_cents"] or 0)
    return rows, (rows[-1]["line_id"] if more and rows else None)


def draw_pending_approvals(draw) -> list:
    """The draw's four-eyes requests waiting for a second person (compliance.approvals): the result's
    confirmation, a correction's, the settlement's approval for payout, large wins; oldest first."""
    return list(
        Approval.objects.filter(state=Approval.State.REQUESTED, payload__draw=draw.pk,
                                kind__in=(RESULT_KIND, CORRECTION_KIND, PAYOUT_KIND, LARGE_WIN_KIND))
        .select_related("requested_by").order_by("requested_at", "pk")
    )
