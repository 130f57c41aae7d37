"""What each of the draw pipeline's four-eyes requests is about, in words (compliance.approvals
`describe=`): the draw by name ("Lotto #1002") with its page, the result in the game's own notation,
amounts in euros, who entered and who confirmed. Registered with the handlers in lottery.services."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.models import Approval
from compliance.money import format_cents
from compliance.words import Fact, Subject, register_words
from players.approval_words import person_facts
from players.models import Player

from .games.registry import result_text
from .models import Draw, DrawMethod, DrawResult, Payout, SettlementRun

RESULT_TITLE = _("Draw result to confirm")
CORRECTION_TITLE = _("Corrected draw result (§27)")
PAYOUT_TITLE = _("Settlement to approve for payout")
LARGE_WIN_TITLE = _("Large win to approve")
JACKPOT_TITLE = _("Jackpot to approve")


def _draw(approval: Approval) -> Draw | None:
    draw_id = (approval.payload or {}).get("draw")
    if draw_id is None and approval.target_type == "lottery.draw":
        draw_id = approval.target_id
    if draw_id is None:
        return None
    return Draw.objects.select_related("game").filter(pk=draw_id).first()


def _draw_subject(approval: Approval) -> tuple[Subject, Draw | None]:
    draw = _draw(approval)
    if draw is None:
        return Subject(title=approval.target_repr), None
    return Subject(title=str(draw), url=reverse("lottery:draw", args=[draw.pk])), draw


def _method(code: str) -> str:
    return str(DrawMethod(code).label) if code in DrawMethod.values else (code or "—")


def describe_result(approval: Approval) -> Subject:
    p = approval.payload or {}
    subject, _draw_obj = _draw_subject(approval)
    subject.facts = [
        Fact(_("Result"), result_text(p.get("numbers") or {}) or "—"),
        Fact(_("Result version"), str(p.get("version", "—"))),
        Fact(_("Draw method"), _method(p.get("draw_method", ""))),
        Fact(_("Witnesses"), p.get("witnesses") or "—"),
    ]
    subject.reason = gettext("Confirm the result of %(draw)s") % {"draw": subject.title}
    return subject


def describe_correction(approval: Approval) -> Subject:
    p = approval.payload or {}
    subject, _draw_obj = _draw_subject(approval)
    subject.facts = [
        Fact(_("Confirmed result"), f"{result_text(p.get('replaces_numbers') or {})} "
                                    f"({gettext('version %(number)s') % {'number': p.get('replaces_version', '—')}})"),
        Fact(_("Corrected result"), f"{result_text(p.get('numbers') or {})} "
                                    f"({gettext('version %(number)s') % {'number': p.get('version', '—')}})"),
    ]
    return subject


def describe_payout(approval: Approval) -> Subject:
    p = approval.payload or {}
    subject, _draw_obj = _draw_subject(approval)
    run = SettlementRun.objects.filter(pk=approval.target_id).first()
    winners = run.winners_count if run is not None else p.get("winners", 0)
    paid = run.paid_cents if run is not None else p.get("paid_cents", 0)
    subject.facts = [
        Fact(_("Settlement version"), str(p.get("version", "—"))),
        Fact(_("Result version"), str(p.get("result_version", "—"))),
        Fact(_("Winners"), str(winners)),
        Fact(_("Prizes in total"), format_cents(int(paid or 0))),
        Fact(_("Result entered by"), p.get("entered_by") or "—"),
        Fact(_("Result confirmed by"), p.get("confirmed_by") or "—"),
    ]
    subject.reason = gettext("Settlement version %(version)s of %(draw)s is done: approve it for payout") % {
        "version": p.get("version", "—"), "draw": subject.title}
    return subject


def describe_large_win(approval: Approval) -> Subject:
    p = approval.payload or {}
    subject, _draw_obj = _draw_subject(approval)
    payout = Payout.objects.filter(pk=approval.target_id).first()
    facts = [Fact(_("Amount"), format_cents(int(p.get("amount_cents") or 0))),
             Fact(_("Settlement version"), str(p.get("version", "—")))]
    if payout is not None:
        facts.append(Fact(_("Payout state"), str(payout.get_state_display())))
    player = Player.objects.select_related("person").filter(pk=p["player"]).first() if p.get("player") else None
    if player is not None:  # the winner as a decider needs them: who, and what bars them
        facts += person_facts(player)
    facts.append(Fact(_("Line"), str(p.get("line", "—"))))
    subject.facts = facts
    subject.reason = gettext("Large win in %(draw)s: %(amount)s") % {
        "draw": subject.title, "amount": format_cents(int(p.get("amount_cents") or 0))}
    return subject


def describe_jackpot(approval: Approval) -> Subject:
    p = approval.payload or {}
    subject, _draw_obj = _draw_subject(approval)
    was = p.get("was")
    subject.facts = [
        Fact(_("New jackpot"), format_cents(int(p.get("jackpot_cents") or 0))),
        Fact(_("Jackpot now"), format_cents(int(was)) if was is not None else "—"),
    ]
    subject.reason = gettext("Jackpot of %(draw)s: %(amount)s") % {
        "draw": subject.title, "amount": format_cents(int(p.get("jackpot_cents") or 0))}
    return subject


def _named(model, related: str):
    def name(pk: str) -> str:
        obj = model.objects.select_related(related).filter(pk=int(pk)).first()
        return str(obj) if obj is not None else ""

    return name


def _draw_page_of(model):
    def url(pk: str) -> str:
        draw_id = model.objects.filter(pk=int(pk)).values_list("draw_id", flat=True).first()
        return reverse("lottery:draw", args=[draw_id]) if draw_id else ""

    return url


def _draw_name(pk: str) -> str:
    draw = Draw.objects.select_related("game").filter(pk=int(pk)).first()
    return str(draw) if draw is not None else ""


def register() -> None:
    """The words of the lottery's audit actions and objects (compliance.words)."""
    register_words(
        actions={
            "lottery.draw_scheduled": _("Draw scheduled"),
            "lottery.sales_opened": _("Sales opened"),
            "lottery.sales_closed": _("Sales closed"),
            "lottery.draw_closed": _("Sales closed"),
            "lottery.draw_cancelled": _("Draw cancelled"),
            "lottery.jackpot_set": _("Jackpot set"),
            "lottery.central_inputs_set": _("Central figures entered"),
            "lottery.result_entered": _("Result entered"),
            "lottery.result_confirmed": _("Result confirmed"),
            "lottery.result_rejected": _("Result rejected"),
            "lottery.correction_requested": _("Correction requested"),
            "lottery.correction_confirmed": _("Correction confirmed"),
            "lottery.correction_rejected": _("Correction rejected"),
            "lottery.settlement_queued": _("Settlement queued"),
            "lottery.settlement_claimed": _("Settlement started"),
            "lottery.draw_settled": _("Draw settled"),
            "lottery.settlement_failed": _("Settlement failed"),
            "lottery.settlement_disagreement": _("Settlement checks disagree"),
            "lottery.settlement_retried": _("Settlement retried"),
            "lottery.settlement_approved": _("Settlement approved for payout"),
            "lottery.large_win_approved": _("Large win approved"),
            "lottery.payouts_paid": _("Payouts paid"),
            "lottery.payout_failed": _("Payout failed"),
            "lottery.payouts_retried": _("Payouts retried"),
            "lottery.draw_paid": _("Draw paid"),
            "lottery.refunds_paid": _("Stakes refunded"),
            "lottery.refund_failed": _("Refund failed"),
            "lottery.retail_import_queued": _("Sales file queued"),
            "lottery.retail_imported": _("Sales file imported"),
            "lottery.retail_import_failed": _("Sales file import failed"),
            "lottery.retail_import_refused": _("Sales file refused"),
            "lottery.ruleset_published": _("Prize rules published"),
            "lottery.wager_accepted": _("Wager accepted"),
            "lottery.rollover_handed_over": _("Rollover handed over"),
            "lottery.rollover_not_handed_over": _("Rollover not handed over"),
        },
        object_types={
            "lottery.draw": _("Draw"),
            "lottery.drawresult": _("Draw result"),
            "lottery.settlementrun": _("Settlement"),
            "lottery.payout": _("Payout"),
            "lottery.retailimport": _("Sales file"),
            "lottery.ruleset": _("Prize rules"),
            "lottery.wager": _("Wager"),
        },
        keys={
            "draw": _("Draw"),
            "version": _("Version"),
            "result_version": _("Result version"),
            "numbers": _("Numbers"),
            "draw_method": _("Draw method"),
            "witnesses": _("Witnesses"),
            "winners": _("Winners"),
            "entered_by": _("Entered by"),
            "confirmed_by": _("Confirmed by"),
            "jackpot": _("Jackpot"),
            "payouts": _("Payouts"),
            "line": _("Line"),
            "player": _("Player"),
            "common_pools": _("Common pools (€) by class"),
            "central": _("Imported from the central system, by class"),
            "prize_pool": _("Prize pool (€)"),
            "prize": _("Prize (€)"),
            "additional": _("Additional number"),
            "addon_draws_linked": _("Add-on draws linked"),
            "approval": _("Approval"),
            "by_state": _("Payouts by state"),
            "draw_at": _("Draw time"),
            "effective_from": _("Effective from"),
            "large_win": _("Large win"),
            "lines": _("Lines"),
            "main_draw": _("Main draw"),
            "method": _("Method"),
            "number": _("Number"),
            "params_sha256": _("Fingerprint of the prize rules"),
            "previous": _("Previous settlement"),
            "previous_version": _("Previous version"),
            "rollover_in": _("Rollover brought in"),
            "ruleset": _("Prize rules"),
            "run": _("Settlement run"),
            "sales_close_at": _("Sales close"),
            "sales_open_at": _("Sales open"),
            "stake": _("Stake"),
            "tickets": _("Tickets"),
            "turnover": _("Turnover"),
        },
        names={"lottery.draw": _draw_name, "lottery.drawresult": _named(DrawResult, "draw__game"),
               "lottery.settlementrun": _named(SettlementRun, "draw__game")},
        refs={"draw": "lottery.draw", "draw_id": "lottery.draw"},
        links={
            "lottery.draw": lambda pk: reverse("lottery:draw", args=[int(pk)]),
            "lottery.retailimport": lambda pk: reverse("lottery:import", args=[int(pk)]),
            "lottery.drawresult": _draw_page_of(DrawResult),
            "lottery.settlementrun": _draw_page_of(SettlementRun),
            "lottery.payout": _draw_page_of(Payout),
            "lottery.ruleset": lambda pk: reverse("lottery:ruleset", args=[int(pk)]),
        },
    )
