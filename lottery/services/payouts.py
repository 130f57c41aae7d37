"""Approval and payout of settled draws, refunds of cancelled draws (DESIGN §3 step 5; §8, §27).

settled -> approved (a second user: neither of the two who entered and confirmed the result) ->
paid (every player's prize credited to the game account through the ledger, one entry per winning
line and version; a retail prize is claimed at the point of sale). A payout at or above
LOTTERY_LARGE_WIN_CENTS waits for its own approval by yet another user. A corrected version pays
the difference per line: positive as a prize credit, negative as a ledger adjustment.

Both approvals are `compliance.approvals` requests: a run that settles asks for one of kind
`lottery.payout` (requested by "system:settlement"), and approving it asks for one of kind
`lottery.large_win` per held payout (requested by the settlement's approver). `settlement_approve`
and `payout_approve_large` decide the pending request; the handlers at the end of this module do
the work in the decider's transaction, from here or from the approvals page.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from compliance.approvals import approval_request, approval_void, register_approval_handler
from compliance.audit import audit_record
from compliance.errors import lazy_format
from compliance.jobs import job_enqueue, progress
from compliance.models import Approval
from compliance.money import format_cents

# Looked up on the module at each call, so that a test (or a fault drill) can cut a posting half way.
from players import services as player_services
from players.errors import PlayerError
from players.models import GameAccount

from .. import approval_words
from ..approval_kinds import LARGE_WIN_KIND, PAYOUT_KIND
from ..models import Draw, DrawState, Payout, RunState, SettlementRun, WagerRefund
from .draws import (
    decide_approval,
    draw_link,
    lock_draw,
    lock_draw_approvals,
    pending_approval,
    requester,
    require_state,
    staff_person,
)
from .errors import DrawStateError, FourEyesError
from .settlement import settled_run

log = logging.getLogger(__name__)
S = DrawState
PAID_BEFORE = (Payout.State.PAID, Payout.State.RETAIL)
PAYOUT_ACTOR = "system:payouts"
SETTLEMENT_ACTOR = "system:settlement"
# Four-eyes kinds (compliance.approvals): a settled run's approval for payout, and a held large win's.
NOT_HELD = _("This payout is %(state)s; only a held large win is approved.")
APPROVED_IT = _("You approved this settlement; a different user must approve its large wins.")


def large_win_cents() -> int:
    return int(getattr(settings, "LOTTERY_LARGE_WIN_CENTS", 10_000_000))


def _enqueue_pay(draw_id: int, actor=PAYOUT_ACTOR):
    """Record the draw's payment job in the caller's transaction (compliance.jobs): sent to a worker
    after commit, or by the dispatcher when the broker is back. While one is queued or running this
    attaches to it (a running one pays once more, so payouts made due meanwhile are paid). Called with
    the draw id only (benchmarks and drills replace it with `lambda draw_id: ...`); who asked is in the
    audit event of the change that calls it."""
    return job_enqueue(kind="lottery.tasks.pay_draw", key=f"lottery.pay_draw:{int(draw_id)}",
                       args={"draw_id": int(draw_id)}, actor=actor)


def settlement_request_approval(*, run: SettlementRun, draw: Draw) -> Approval:
    """A run has just settled: ask for its approval for payout, in the finishing transaction. The
    settlement itself asks ("system:settlement"); the handler refuses the result's enterer and confirmer."""
    run = SettlementRun.objects.select_related("result__entered_by", "result__confirmed_by").get(pk=run.pk)
    result = run.result
    return approval_request(
        actor=SETTLEMENT_ACTOR, kind=PAYOUT_KIND, obj=run,
        payload={"draw": draw.pk, "version": run.version, "result_version": result.version,
                 "winners": run.winners_count, "paid_cents": run.paid_cents,
                 "entered_by": result.entered_by.get_username() if result.entered_by_id else "",
                 "confirmed_by": result.confirmed_by.get_username() if result.confirmed_by_id else ""},
        reason=f"Settlement v{run.version} of {draw} is done: approve it for payout",
    )


def settlement_approve(*, actor, draw: Draw, now=None, request=None) -> SettlementRun:
    """Approve the settled run for payout: decides the pending `lottery.payout` request, whose handler
    (`_settlement_approved`) writes the payouts (set-based) and sends them to be paid."""

    user = staff_person(actor, _("Approving a settlement"))
    draw = Draw.objects.select_related("game").get(pk=draw.pk if isinstance(draw, Draw) else draw)
    require_state(draw, (S.SETTLED,), _("approving the settlement"))
    run = settled_run(draw)
    if run is None:
        raise DrawStateError(_("%(draw)s has no settled run to approve."), draw=str(draw))
    approval = pending_approval(PAYOUT_KIND, run, lazy_format(_("the settlement of %(draw)s"), draw=str(draw)))
    decide_approval(approval, actor=user, approve=True, now=now, request=request)
    return SettlementRun.objects.get(pk=run.pk)


def _settlement_approved(approval: Approval, *, approver) -> None:
    """Handler of `lottery.payout` (approved): payouts written, the draw approved, a `lottery.large_win`
    request per held payout, payment sent after commit. The approver is neither the result's enterer
    nor its confirmer."""
    draw_id = approval.payload["draw"]
    lock_draw_approvals(draw_id, (LARGE_WIN_KIND,))  # approval rows before the draw row; some may become void
    draw = lock_draw(draw_id)
    require_state(draw, (S.SETTLED,), _("approving the settlement"))
    run = SettlementRun.objects.select_for_update(of=("self",)).select_related(
        "result__entered_by", "result__confirmed_by").get(pk=approval.target_id)
    if run.state != RunState.SETTLED:
        raise DrawStateError(_("%(run)s is %(state)s; only a settled version is approved for payout."),
                             run=str(run), state=RunState(run.state).label)
    result = run.result
    if approver.pk in (result.entered_by_id, result.confirmed_by_id):
        raise FourEyesError(
            _("You entered or confirmed the result of %(draw)s; a different user must approve its payout."),
            draw=str(draw),
        )
    now = approval.decided_at
    supersede_unpaid(draw, reason=f"settlement version {run.version} approved", actor=approver)
    created = _write_payouts(draw, run)
    run.approved_by = approver
    run.approved_at = now
    run.save(update_fields=["approved_by", "approved_at"])
    counts = dict(Payout.objects.filter(run=run).values_list("state").annotate(n=Count("pk")).order_by())
    old = draw.state
    draw.state = S.APPROVED
    draw.save(update_fields=["state", "updated_at"])
    audit_record(actor=requester(approval), approver=approver, action="lottery.settlement_approved", obj=draw,
                 before={"state": old}, after={"state": S.APPROVED},
                 data={"run": run.pk, "version": run.version, "payouts": created, "by_state": counts,
                       "large_win_cents": large_win_cents(), "approval": approval.pk,
                       "entered_by": result.entered_by.get_username(),
                       "confirmed_by": result.confirmed_by.get_username()})
    for payout in Payout.objects.filter(run=run, state=Payout.State.HELD).order_by("pk"):
        approval_request(
            actor=approver, kind=LARGE_WIN_KIND, obj=payout,
            payload={"draw": draw.pk, "version": run.version, "line": payout.line_id, "player": payout.player_id,
                     "amount_cents": payout.amount_cents},
            reason=f"Large win of line {payout.line_id} in {draw}: {format_cents(payout.amount_cents, language='en')}",
        )
    _enqueue_pay(draw.pk)


def supersede_unpaid(draw: Draw, *, reason: str, actor=PAYOUT_ACTOR) -> int:
    """Payouts not paid yet (held, due, failed) no longer count once a correction replaces their version;
    the `lottery.large_win` requests of the held ones become void. Callers lock those requests before
    the draw row (`lock_draw_approvals`)."""
    held = [str(pk) for pk in Payout.objects.filter(draw=draw, state=Payout.State.HELD).values_list("pk", flat=True)]
    n = Payout.objects.filter(
        draw=draw, state__in=[Payout.State.HELD, Payout.State.DUE, Payout.State.FAILED]
    ).update(state=Payout.State.SUPERSEDED, error=f"superseded: {reason}")
    if held:
        pending = Approval.objects.filter(state=Approval.State.REQUESTED, kind=LARGE_WIN_KIND,
                                          target_type=Payout._meta.label_lower, target_id__in=held).order_by("pk")
        for approval in pending:
            approval_void(actor=actor, approval=approval, reason=f"payout superseded: {reason}")
    return n


def _write_payouts(draw: Draw, run: SettlementRun) -> int:
    """One row per line whose prize in this version differs from what was paid for it before. A line
    paid before that no longer wins takes its wager from those payouts, so the lines' partitions are
    not read."""
    large = large_win_cents()
    state = (f"CASE WHEN x.player_id IS NULL THEN '{Payout.State.RETAIL}' "
             f"WHEN x.amount >= {int(large)} THEN '{Payout.State.HELD}' ELSE '{Payout.State.DUE}' END")
    paid_before = (
        "SELECT line_id, wager_id, SUM(amount_cents) AS paid FROM lottery_payout WHERE draw_id = %(draw)s"
        f" AND state IN ('{PAID_BEFORE[0]}', '{PAID_BEFORE[1]}') GROUP BY line_id, wager_id"
    )
    sql = (
        "INSERT INTO lottery_payout (run_id, draw_id, line_id, wager_id, player_id, class_no, prize_cents, amount_cents,"
        " state, credited_cents, diverted_cents, ledger_reference, error)"
        f" SELECT %(run)s, %(draw)s, x.line_id, x.wager_id, x.player_id, x.class_no, x.prize, x.amount, {state}, 0, 0,"
        " 'lottery:' || %(draw)s || ':' || x.line_id || ':v' || %(version)s, ''"
        " FROM ("
        "  SELECT w.line_id, w.wager_id, g.player_id, w.class_no, w.prize_cents AS prize,"
        "   w.prize_cents - COALESCE(p.paid, 0) AS amount"
        "  FROM lottery_winning w JOIN lottery_wager g ON g.id = w.wager_id"
        f"  LEFT JOIN ({paid_before}) p ON p.line_id = w.line_id"
        "  WHERE w.run_id = %(run)s"
        "  UNION ALL"
        "  SELECT p.line_id, p.wager_id, g.player_id, NULL, 0, -p.paid"
        f"  FROM ({paid_before}) p JOIN lottery_wager g ON g.id = p.wager_id"
        "  WHERE NOT EXISTS (SELECT 1 FROM lottery_winning w WHERE w.run_id = %(run)s AND w.line_id = p.line_id)"
        " ) x WHERE x.amount <> 0"
        " ORDER BY x.line_id"  # payout ids follow the line, never the physical order of the winners
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"run": run.pk, "draw": draw.pk, "version": run.version})
        return cursor.rowcount


def payout_approve_large(*, actor, payout: Payout, request=None) -> Payout:
    """A large win's own approval, by someone other than the settlement's approver: decides the
    payout's pending `lottery.large_win` request (handler `_large_win_approved`)."""
    user = staff_person(actor, _("Approving a large win"))
    payout = Payout.objects.select_related("run", "draw__game").get(pk=payout.pk)
    if payout.state != Payout.State.HELD:
        raise DrawStateError(NOT_HELD, state=Payout.State(payout.state).label)
    if user.pk == payout.run.approved_by_id:
        raise FourEyesError(APPROVED_IT)
    approval = pending_approval(LARGE_WIN_KIND, payout, lazy_format(
        _("the large win of line %(line)s in %(draw)s"), line=payout.line_id, draw=str(payout.draw)))
    decide_approval(approval, actor=user, approve=True, request=request)
    return Payout.objects.get(pk=payout.pk)


def _large_win_approved(approval: Approval, *, approver) -> None:
    """Handler of `lottery.large_win` (approved): the held payout becomes due and is sent to be paid."""
    payout = Payout.objects.select_for_update(of=("self",)).select_related("run").get(pk=approval.target_id)
    if payout.state != Payout.State.HELD:
        raise DrawStateError(NOT_HELD, state=Payout.State(payout.state).label)
    if approver.pk == payout.run.approved_by_id:
        raise FourEyesError(APPROVED_IT)
    payout.state = Payout.State.DUE
    payout.approved_by = approver
    payout.approved_at = approval.decided_at
    payout.save(update_fields=["state", "approved_by", "approved_at"])
    audit_record(actor=requester(approval), approver=approver, action="lottery.large_win_approved", obj=payout,
                 significant=True, data={"draw": payout.draw_id, "line": payout.line_id,
                                         "amount_cents": payout.amount_cents, "player": payout.player_id,
                                         "approval": approval.pk})
    _enqueue_pay(payout.draw_id)


def pay_draw(draw: Draw | int, *, actor: str = PAYOUT_ACTOR) -> dict[str, int]:
    """Credit every due payout of the draw to its player's game account; safe to run again.

    Each payout is one ledger entry under its own reference, posted and recorded in one transaction;
    a rerun after a crash finds the entry (the ledger replays the reference) or pays what is left.
    """
    draw = Draw.objects.select_related("game").get(pk=draw.pk if isinstance(draw, Draw) else draw)
    paid = failed = 0
    credited = diverted = 0
    # Paid by player, then line: what reaches a capped account first (credited) and what is diverted to a
    # bank payout is decided by these keys, never by row ids or physical order (issue 15, item 3).
    due = Payout.objects.filter(draw=draw, state=Payout.State.DUE).order_by("player_id", "line_id", "pk")
    total = due.count()
    progress(0, total)
    for done, payout in enumerate(due.iterator(chunk_size=500)):
        if done and done % 100 == 0:
            progress(done, total)
        try:
            with transaction.atomic():
                locked = Payout.objects.select_for_update().get(pk=payout.pk)
                if locked.state != Payout.State.DUE:
                    continue
                account = GameAccount.objects.filter(player_id=locked.player_id).first()
                if account is None:
                    raise DrawStateError(_("player %(player)s has no game account"), player=locked.player_id)
                if locked.amount_cents > 0:
                    posting = player_services.account_prize(actor=actor, account=account, amount_cents=locked.amount_cents,
                                            reference=locked.ledger_reference, game=draw.game.code)
                else:
                    posting = player_services.account_adjust(actor=actor, account=account, amount_cents=locked.amount_cents,
                                             reference=locked.ledger_reference,
                                             note=f"Correction of {draw} (settlement version {payout.run.version})")
                entry = posting.entry
                locked.state = Payout.State.PAID
                locked.credited_cents = entry.amount_cents
                locked.diverted_cents = entry.diverted_cents
                locked.ledger_entry_id = entry.pk
                locked.paid_at = timezone.now()
                locked.save(update_fields=["state", "credited_cents", "diverted_cents", "ledger_entry_id", "paid_at"])
                paid += 1
                credited += entry.amount_cents
                diverted += entry.diverted_cents
        except (PlayerError, DrawStateError) as exc:
            failed += 1
            with translation.override("en"):  # a stored record is in English (compliance.money)
                message = str(exc)
            with transaction.atomic():
                Payout.objects.filter(pk=payout.pk, state=Payout.State.DUE).update(state=Payout.State.FAILED, error=message)
                audit_record(actor=actor, action="lottery.payout_failed", obj=payout, significant=True,
                             data={"draw": draw.pk, "line": payout.line_id, "amount_cents": payout.amount_cents,
                                   "player": payout.player_id, "error": message})
    with transaction.atomic():
        draw = lock_draw(draw)
        run_ids = list(SettlementRun.objects.filter(draw=draw, state=RunState.SETTLED).values_list("pk", flat=True))
        open_payouts = Payout.objects.filter(run_id__in=run_ids, state__in=[Payout.State.HELD, Payout.State.DUE,
                                                                              Payout.State.FAILED]).exists()
        if paid or failed:
            audit_record(actor=actor, action="lottery.payouts_paid", obj=draw,
                         data={"paid": paid, "failed": failed, "credited_cents": credited, "diverted_cents": diverted})
        if draw.state == S.APPROVED and not open_payouts:
            draw.state = S.PAID
            draw.save(update_fields=["state", "updated_at"])
            audit_record(actor=actor, action="lottery.draw_paid", obj=draw, before={"state": S.APPROVED},
                         after={"state": S.PAID})
    return {"paid": paid, "failed": failed, "credited_cents": credited, "diverted_cents": diverted}


def pay_refunds(draw: Draw | int, *, actor: str = PAYOUT_ACTOR) -> dict[str, int]:
    """Refund the stakes of a cancelled draw to the players' game accounts (§8); retail refunds stay
    due for the point of sale. One ledger entry per wager; safe to run again."""
    draw = Draw.objects.select_related("game").get(pk=draw.pk if isinstance(draw, Draw) else draw)
    paid = failed = 0
    refunds = WagerRefund.objects.filter(draw=draw, state=WagerRefund.State.DUE, wager__player_id__isnull=False)
    # By player, then wager: a refund over the balance cap is split in an order defined by keys.
    for refund in refunds.select_related("wager").order_by("wager__player_id", "wager_id", "pk").iterator(chunk_size=500):
        try:
            with transaction.atomic():
                locked = WagerRefund.objects.select_for_update().get(pk=refund.pk)
                if locked.state != WagerRefund.State.DUE:
                    continue
                account = GameAccount.objects.get(player_id=refund.wager.player_id)
                player_services.account_refund(actor=actor, account=account, amount_cents=locked.amount_cents,
                               reference=f"lottery-refund:{draw.pk}:{refund.wager_id}", game=draw.game.code,
                               note=f"{draw} cancelled")
                locked.state = WagerRefund.State.PAID
                locked.paid_at = timezone.now()
                locked.save(update_fields=["state", "paid_at"])
                paid += 1
        except (PlayerError, GameAccount.DoesNotExist) as exc:
            failed += 1
            audit_record(actor=actor, action="lottery.refund_failed", obj=refund, significant=True,
                         data={"draw": draw.pk, "wager": refund.wager_id, "error": str(exc)})
    if paid or failed:
        audit_record(actor=actor, action="lottery.refunds_paid", obj=draw, data={"paid": paid, "failed": failed})
    return {"paid": paid, "failed": failed}


@transaction.atomic
def payouts_retry(*, actor, draw: Draw, request=None) -> int:
    """Send the draw's failed payouts of its current version to be paid again (after staff fixed the
    cause), together with every payout still due; returns how many are sent to be paid.

    It returned 0 when a payment had stopped half-way (issue 15): only failed payouts were counted and
    only then was the payment sent, while the stranded ones were due, not failed."""

    user = staff_person(actor, _("Retrying payouts"))
    draw = lock_draw(draw)
    require_state(draw, (S.APPROVED,), _("retrying payouts"))
    run = settled_run(draw)
    failed = Payout.objects.filter(run=run, state=Payout.State.FAILED).update(state=Payout.State.DUE, error="")
    # Every due payout of the draw is sent, not only the ones that failed: payouts left due by a
    # payment that never ran to its end (worker killed, message lost) are paid too.
    due = Payout.objects.filter(draw=draw, state=Payout.State.DUE).count()
    audit_record(actor=user, action="lottery.payouts_retried", obj=draw, request=request,
                 data={"payouts": due, "failed_before": failed})
    if due:
        _enqueue_pay(draw.pk)
    return due


register_approval_handler(
    PAYOUT_KIND, _settlement_approved, permission="lottery.approve_settlement", link=draw_link,
    title=approval_words.PAYOUT_TITLE, describe=approval_words.describe_payout,
    rejection_refused=_("A settlement is not rejected: if its result is wrong, request a correction (§27); "
                        "until then its approval for payout stays pending."),
)
register_approval_handler(
    LARGE_WIN_KIND, _large_win_approved, permission="lottery.approve_large_win", link=draw_link,
    title=approval_words.LARGE_WIN_TITLE, describe=approval_words.describe_large_win,
    rejection_refused=_("A large win is not rejected: it stays held until a second person approves it or a "
                        "correction of the result replaces it."),
)
