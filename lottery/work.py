"""The lottery's work queues (compliance.queues, issue 18 item 3): draws whose result is to be entered,
sales the clock has not moved on, settlements that failed or halted and payouts that failed, each a
sentence with a link to the draw; and how the dashboard says the lottery's four-eyes requests. Each
queue reads its items in one or two queries, however many draws wait."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, Exists, OuterRef
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from compliance.models import Approval
from compliance.money import format_cents
from compliance.queues import QueueItem, WorkQueue

from .approval_kinds import CORRECTION_KIND, LARGE_WIN_KIND, PAYOUT_KIND, RESULT_KIND
from .games import registry
from .models import Draw, DrawState, Payout, RunState, SettlementRun
from .services.draws import JACKPOT_KIND

S = DrawState
# The clock (close_due_draws) opens and closes sales every minute; a draw it has left behind this long
# waits for a person.
CLOCK_GRACE = dt.timedelta(minutes=5)


def _draw_url(draw_id: int, anchor: str = "") -> str:
    return reverse("lottery:draw", args=[draw_id]) + anchor


def results_to_enter(user) -> list[QueueItem]:
    draws = (Draw.objects.filter(state=S.CLOSED, draw_at__lte=timezone.now(), game__code__in=[spec.code for spec in registry.all()])
             .select_related("game").order_by("draw_at", "pk"))
    return [QueueItem(text=gettext("%(draw)s awaits its result") % {"draw": d}, url=_draw_url(d.pk),
                      key=f"draw-{d.pk}-result") for d in draws]


def sales_left_behind(user) -> list[QueueItem]:
    late = timezone.now() - CLOCK_GRACE
    draws = (Draw.objects.filter(state=S.PLANNED, sales_open_at__lte=late, sales_close_at__gt=timezone.now())
             | Draw.objects.filter(state=S.OPEN, sales_close_at__lte=late)).select_related("game").order_by("sales_close_at", "pk")
    items = []
    for d in draws:
        text = (gettext("Sales of %(draw)s have not opened; open them") if d.state == S.PLANNED
                else gettext("Sales of %(draw)s are still open after their close time; close them"))
        items.append(QueueItem(text=text % {"draw": d}, url=_draw_url(d.pk), key=f"draw-{d.pk}-sales"))
    return items


def settlements_stopped(user) -> list[QueueItem]:
    newer = SettlementRun.objects.filter(draw=OuterRef("draw"), version__gt=OuterRef("version"))
    runs = (SettlementRun.objects.filter(state__in=(RunState.FAILED, RunState.HALTED))
            .exclude(draw__state=S.CANCELLED).exclude(Exists(newer)).select_related("draw__game").order_by("pk"))
    items = []
    for run in runs:
        text = (gettext("The settlement of %(draw)s (version %(version)s) halted: its two computations disagree")
                if run.state == RunState.HALTED else
                gettext("The settlement of %(draw)s (version %(version)s) failed; run it again"))
        items.append(QueueItem(text=text % {"draw": run.draw, "version": run.version}, url=_draw_url(run.draw_id),
                               key=f"draw-{run.draw_id}-settlement"))
    return items


def payouts_failed(user) -> list[QueueItem]:
    failed = dict(Payout.objects.filter(state=Payout.State.FAILED).values("draw_id").annotate(n=Count("pk"))
                  .values_list("draw_id", "n"))
    if not failed:
        return []
    draws = Draw.objects.filter(pk__in=failed).select_related("game").order_by("draw_at", "pk")
    return [QueueItem(text=ngettext("%(n)s payout of %(draw)s failed; pay it again",
                                    "%(n)s payouts of %(draw)s failed; pay them again", failed[d.pk]) % {
                          "n": failed[d.pk], "draw": d},
                      url=_draw_url(d.pk), key=f"draw-{d.pk}-payouts") for d in draws]


# -- how the dashboard says the lottery's four-eyes requests -----------------------------------------------

def _draws_of(approvals: list[Approval]) -> dict[int, Draw]:
    ids = set()
    for a in approvals:
        draw = (a.payload or {}).get("draw") or (a.target_id if a.target_type == "lottery.draw" else None)
        if draw is not None:
            ids.add(int(draw))
    return {d.pk: d for d in Draw.objects.filter(pk__in=ids).select_related("game")}


def _phrases(template):
    def phrases(approvals: list[Approval]) -> dict[int, str]:
        draws = _draws_of(approvals)
        out = {}
        for a in approvals:
            p = a.payload or {}
            draw = draws.get(int(p.get("draw") or a.target_id or 0))
            if draw is None:
                continue
            amount = p.get("amount_cents", p.get("jackpot_cents"))
            out[a.pk] = str(template) % {"draw": draw, "version": p.get("version", ""),
                                             "amount": format_cents(amount) if amount is not None else ""}
        return out

    return phrases


# Marked for translation here, said in the reader's language when shown (str() of the lazy text).
APPROVAL_PHRASES = {
    RESULT_KIND: _phrases(_("The result of %(draw)s awaits confirmation")),
    CORRECTION_KIND: _phrases(_("A correction of the result of %(draw)s awaits confirmation")),
    PAYOUT_KIND: _phrases(_("The settlement of %(draw)s (version %(version)s) awaits approval for payout")),
    LARGE_WIN_KIND: _phrases(_("A large win of %(amount)s in %(draw)s awaits approval")),
    JACKPOT_KIND: _phrases(_("A jackpot of %(amount)s for %(draw)s awaits approval")),
}

QUEUES = [
    WorkQueue(key="lottery.results", title=_("Results to enter"), permission="lottery.enter_result",
              items=results_to_enter, nav="lottery:draws"),
    WorkQueue(key="lottery.sales", title=_("Sales the clock has not moved on"), permission="lottery.manage_draw",
              items=sales_left_behind, nav="lottery:draws"),
    WorkQueue(key="lottery.settlements", title=_("Settlements that stopped"), permission="lottery.manage_settlement",
              items=settlements_stopped, nav="lottery:draws"),
    WorkQueue(key="lottery.payouts", title=_("Failed payouts"), permission="lottery.approve_settlement",
              items=payouts_failed, nav="lottery:draws"),
]
