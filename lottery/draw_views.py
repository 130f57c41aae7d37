"""Staff pages of the draw pipeline: board, draw page and its actions, progress, winners, imports.

Thin: forms validate, services change, selectors read. Each action is its own POST-only view with
the permission of its step; a refusal (DrawError) comes back as a message on the draw page.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import BooleanField, Case, Count, F, Q, Sum, Value, When
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.functional import cached_property
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import DetailView, FormView, TemplateView

from compliance.access import StaffPermissionRequired
from compliance.approvals import approval_subject
from compliance.bounds import INT_MAX, parse_int
from compliance.confirm import confirmation_page, needs_confirmation
from compliance.file_jobs import percent
from compliance.jobs import job_status, latest_jobs
from compliance.money import format_cents
from compliance.refusals import show_refusal
from compliance.reports import report_request

from . import forms, services
from .games import registry
from .games.messages import shown_row_message
from .games.registry import result_text
from .models import (
    Draw,
    DrawResult,
    DrawState,
    Game,
    Line,
    Payout,
    ResultStatus,
    RetailImport,
    RunState,
    TierResult,
)
from .reports import state_label
from .selectors import (
    BOARD_COLUMNS,
    WinnerFilter,
    current_run,
    draw_board,
    draw_pending_approvals,
    payout_state_code,
    settlement_diff_classes,
    settlement_diff_winners,
    winners_page,
)
from .services.retail import retail_import_submit
from .services.settlement import job_key, open_run, settled_run, settlement_retry

S = DrawState
COLUMN_LABELS = {
    "upcoming": gettext_lazy("Upcoming"),
    "open": gettext_lazy("Open for sales"),
    "awaiting_result": gettext_lazy("Awaiting result"),
    "awaiting_confirmation": gettext_lazy("Awaiting confirmation"),
    "settling": gettext_lazy("Settling"),
    "settled": gettext_lazy("Settled"),
    "cancelled": gettext_lazy("Cancelled"),
}
# What each four-eyes request of the draw waits for (compliance.approvals kinds).
APPROVAL_STEPS = {
    "lottery.result": gettext_lazy("Confirmation of the entered result"),
    "lottery.correction": gettext_lazy("Confirmation of the correction"),
    "lottery.payout": gettext_lazy("Approval of the settlement for payout"),
    "lottery.large_win": gettext_lazy("Approval of a large win"),
}

# The draw page's forms an action may hand back as typed (DrawActionView.form_context).
FORM_NAMES = ("result_form", "correction_form", "jackpot_form", "central_form", "cancel_form")

# The winners page's cursor: "line" or "prize:line" (ids and cents fit a bigint).
WINNERS_CURSOR = re.compile(r"[0-9]{1,18}(:[0-9]{1,18})?")


class DrawBoardView(StaffPermissionRequired, TemplateView):
    permission_required = "lottery.view_draw"
    template_name = "lottery/draw_board.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        game = self.request.GET.get("game") or None
        board = draw_board(game=game)
        ctx.update(
            columns=[{"key": key, "label": COLUMN_LABELS[key], "draws": board[key]} for key, _states in BOARD_COLUMNS],
            games=Game.objects.all(),
            game=game,
        )
        return ctx


class DrawScheduleView(StaffPermissionRequired, FormView):
    permission_required = "lottery.manage_draw"
    template_name = "lottery/draw_form.html"
    form_class = forms.DrawScheduleForm

    def form_valid(self, form):
        d = form.cleaned_data
        try:
            draw = services.draw_schedule(
                actor=self.request.user, game=d["game"], number=d["number"], sales_open_at=d["sales_open_at"],
                sales_close_at=d["sales_close_at"], draw_at=d["draw_at"], jackpot_cents=form.jackpot_cents(),
                request=self.request,
            )
        except services.DrawError as exc:
            show_refusal(self.request, exc, form)
            return self.form_invalid(form)
        messages.success(self.request, _("%(draw)s is scheduled.") % {"draw": draw})
        return HttpResponseRedirect(reverse("lottery:draw", args=[draw.pk]))


def run_error(run) -> str:
    """Why a settlement run failed or halted, in the reader's language where the run kept its messages;
    a crash's own text otherwise."""
    if run is None:
        return ""
    if run.error_messages:
        return "; ".join(shown_row_message(m) for m in run.error_messages)
    return run.error


def _actions(draw: Draw, user, pending: DrawResult | None, proposed: DrawResult | None, run) -> list[str]:
    """The actions the draw's state allows and the user may take (the services check again)."""
    can = user.has_perm
    state = draw.state
    out = []
    if can("lottery.manage_draw"):
        now = timezone.now()
        # Offered when the clock allows them (the services refuse them otherwise).
        if state == S.PLANNED and draw.sales_open_at <= now < draw.sales_close_at:
            out.append("open")
        if state == S.OPEN and now >= draw.sales_close_at:
            out.append("close")
        if state in (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED) and draw.has_jackpot:
            out.append("jackpot")
        if state in (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED, S.RESULT_CONFIRMED, S.CORRECTED) and \
                getattr(registry.find(draw.game.code), "central_inputs", False):
            out.append("central")
    if can("lottery.import_sales") and state in (S.OPEN, S.CLOSED) and draw.game.code in registry.REGISTRY:
        out.append("import")
    if can("lottery.enter_result") and state == S.CLOSED and draw.game.code in registry.REGISTRY:
        out.append("enter")
    if state == S.RESULT_ENTERED and pending is not None:
        mine = pending.entered_by_id == user.pk
        if can("lottery.confirm_result"):
            out.append("confirm_other" if mine else "confirm")
            if not mine:
                out.append("reject")
        if mine and can("lottery.enter_result"):
            out.append("withdraw")  # the enterer takes their own result back before it is confirmed
    if can("lottery.cancel_draw") and state in (S.PLANNED, S.OPEN, S.CLOSED, S.RESULT_ENTERED):
        out.append("cancel")
    if can("lottery.correct_result") and state in (S.RESULT_CONFIRMED, S.SETTLED, S.APPROVED, S.PAID, S.CORRECTED):
        if proposed is None:
            out.append("correct")
        else:
            out.append("correction_confirm" if proposed.entered_by_id != user.pk else "correction_confirm_other")
            out.append("correction_reject")
    if can("lottery.manage_settlement") and run is not None and run.state in (RunState.FAILED, RunState.HALTED):
        out.append("retry")
    if can("lottery.approve_settlement") and state == S.SETTLED and run is not None and run.state == RunState.SETTLED:
        result = run.result
        out.append("approve_other" if user.pk in (result.entered_by_id, result.confirmed_by_id) else "approve")
    if can("lottery.approve_settlement") and state == S.APPROVED:
        out.append("payouts_retry")
    return out


class DrawDetailView(StaffPermissionRequired, DetailView):
    permission_required = "lottery.view_draw"
    template_name = "lottery/draw_detail.html"
    context_object_name = "draw"

    def get_queryset(self):
        return Draw.objects.select_related("game", "ruleset", "main_draw__game", "rollover_from__game")

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        draw = self.object
        user = self.request.user
        results = list(DrawResult.objects.filter(draw=draw).select_related("entered_by", "confirmed_by", "rejected_by"))
        pending = next((r for r in results if r.status == ResultStatus.ENTERED), None)
        proposed = next((r for r in results if r.status == ResultStatus.PROPOSED), None)
        confirmed = next((r for r in results if r.status == ResultStatus.CONFIRMED), None)
        run = current_run(draw)
        shown = settled_run(draw) or run
        game = draw.game.code
        actions = _actions(draw, user, pending, proposed, run)
        waiting = draw_pending_approvals(draw)
        large_wins = {a.target_id: a for a in waiting if a.kind == "lottery.large_win"}
        held = list(Payout.objects.filter(run=shown, state=Payout.State.HELD).order_by("-amount_cents")[:50]) if shown else []
        for payout in held:
            payout.pending_approval = large_wins.get(str(payout.pk))
        jobs = _draw_jobs(draw, run, user)
        # A refused action renders this page again with its form as typed (DrawActionView.refused).
        bound = {name: kwargs[name] for name in FORM_NAMES if name in kwargs}
        ctx.update(
            settle_job=jobs["settle"], pay_job=jobs["pay"], refund_job=jobs["refund"],
            job_stalled=bool(jobs["settle"] and (jobs["settle"]["stalled"] or jobs["settle"]["waiting"])),
            # the reason in the reader's words when the system wrote it ("Confirm the result of ..."), else as typed
            approvals=[{"approval": a, "step": APPROVAL_STEPS.get(a.kind, a.kind),
                        "reason": approval_subject(a).reason or a.reason} for a in waiting
                       if a.kind != "lottery.large_win"],
            results=results, pending=pending, proposed=proposed, confirmed=confirmed, run=run, shown_run=shown,
            run_error=run_error(run),
            tiers=list(TierResult.objects.filter(run=shown)) if shown else [],
            runs=list(draw.settlement_runs.order_by("-version")),
            imports=list(RetailImport.objects.filter(draw=draw)[:20]),
            addon_draws=list(draw.addon_draws.select_related("game")),
            actions=actions,
            settling=run is not None and run.state in (RunState.PENDING, RunState.RUNNING),
            supported=game in registry.REGISTRY,
            result_form=forms.ResultEntryForm(game=game, params=draw.ruleset.params, prefix="enter"),
            correction_form=forms.CorrectionForm(game=game, params=draw.ruleset.params, prefix="correct"),
            jackpot_form=forms.JackpotForm(prefix="jackpot", initial={
                "jackpot": None if draw.jackpot_cents is None else Decimal(draw.jackpot_cents).scaleb(-2),
                "to_highest_class": draw.jackpot_to_highest_class}),
            central_form=forms.CentralInputsForm(prefix="central", params=draw.ruleset.params,
                                                 initial_figures=draw.central_inputs),
            reason_form=forms.ReasonForm(),
            cancel_form=forms.RequiredReasonForm(prefix="cancel"),
            import_form=forms.RetailImportForm(),
            payouts=_payout_summary(shown) if shown else [],
            payout_versions=payout_versions(draw),
            held=held,
            # The payout report (compliance.reports) is of a settled version.
            payout_report=shown is not None and shown.state == RunState.SETTLED and user.has_perm("compliance.add_report"),
            withdraw_form=forms.ReasonForm(prefix="withdraw"),
        )
        ctx.update(bound)
        return ctx


def _draw_jobs(draw: Draw, run, user) -> dict[str, dict | None]:
    """The newest settlement (of the current run), payment and refund jobs of the draw, as the page
    shows them (compliance.jobs.job_status: stalled since, waiting for the job system, retry)."""


    keys = {"pay": f"lottery.pay_draw:{draw.pk}", "refund": f"lottery.pay_refunds:{draw.pk}"}
    if run is not None:
        keys["settle"] = job_key(run.pk)
    latest = latest_jobs(keys.values())
    now = timezone.now()
    return {name: job_status(latest.get(keys[name]), user, now=now) if name in keys else None
            for name in ("settle", "pay", "refund")}


def payout_versions(draw) -> dict:
    """What each settlement version paid (a corrected version pays the difference per line: its
    recoveries are negative) and what the winners got in all (issue 18: not only the difference).
    Payouts superseded before they were paid count for nothing."""
    counted = Payout.objects.filter(draw=draw).exclude(state=Payout.State.SUPERSEDED)
    rows = list(counted.values("run_id").annotate(
        n=Count("pk"),
        paid=Sum("amount_cents", filter=Q(amount_cents__gt=0)),
        recovered=Sum("amount_cents", filter=Q(amount_cents__lt=0)),
        net=Sum("amount_cents"),
    ).order_by("run_id"))
    runs = {r.pk: r for r in draw.settlement_runs.filter(pk__in=[r["run_id"] for r in rows])}
    versions = [{"version": runs[r["run_id"]].version, "prizes": runs[r["run_id"]].paid_cents, "n": r["n"],
                 "paid": r["paid"] or 0, "recovered": r["recovered"] or 0, "net": r["net"] or 0}
                for r in rows if r["run_id"] in runs]
    versions.sort(key=lambda v: v["version"])
    return {"versions": versions, "net": sum(v["net"] for v in versions),
            "paid": sum(v["paid"] for v in versions), "recovered": sum(v["recovered"] for v in versions)}


def _payout_summary(run) -> list[dict]:
    """The run's payouts by state, a correction's recoveries (negative amounts) on rows of their own: a
    -122 € recovery summed into "retail: point of sale" read as 6 € to redeem at the till."""
    rows = (Payout.objects.filter(run=run)
            .annotate(recovery=Case(When(amount_cents__lt=0, then=Value(True)), default=Value(False),
                                    output_field=BooleanField()))
            .values("state", "recovery").annotate(n=Count("pk"), total=Sum("amount_cents")).order_by("recovery", "state"))
    labels = dict(Payout.State.choices)
    return [{"state": payout_state_code(r["state"], -1 if r["recovery"] else 0),
             "label": state_label(payout_state_code(r["state"], -1)) if r["recovery"] else labels.get(r["state"], r["state"]),
             "n": r["n"], "total": r["total"]} for r in rows]


class DrawProgressView(StaffPermissionRequired, View):
    """JSON polled by the draw page while a settlement runs."""

    permission_required = "lottery.view_draw"

    def get(self, request, pk: int):
        draw = get_object_or_404(Draw, pk=pk)
        run = current_run(draw)
        jobs = _draw_jobs(draw, run, request.user)
        data = {"draw_state": draw.state, "run": None, "job": jobs["settle"], "pay_job": jobs["pay"]}
        if run is not None:
            data["run"] = {
                "version": run.version, "state": run.state, "phase": run.phase, "percent": run.percent,
                "chunks_done": run.chunks_done, "chunks_total": run.chunks_total, "lines": run.lines_count,
                "winners": run.winners_count, "error": run_error(run),
            }
        return JsonResponse(data)


# ------------------------------------------------------------------------------------------------
# actions
# ------------------------------------------------------------------------------------------------

class DrawActionView(StaffPermissionRequired, View):
    """A step posted from the draw page. When its form is refused (invalid, or the service says no),
    the draw page is rendered again with the form as it was typed and each error beside its field
    (`form_context`: the form's name on the page; `form_action`: the action that shows it), so nothing
    typed is lost. A step without a form, or whose form the page no longer offers (the state moved
    meanwhile), answers with a message on the draw page."""

    http_method_names = ["post"]
    form_class = None
    form_prefix = None
    form_context: str | None = None
    form_action: str | None = None
    done_message = ""
    # Irreversible steps ask first: the button's label on the confirmation page, the page's title and
    # `consequence(draw, form)`, the sentence that says what will happen.
    confirm_label: Any = ""
    confirm_title: Any = ""

    def consequence(self, draw, form) -> str:  # pragma: no cover - each confirming subclass says its own
        raise NotImplementedError

    def post(self, request, pk: int):
        draw = get_object_or_404(Draw.objects.select_related("game", "ruleset"), pk=pk)
        form = None
        if self.form_class is not None:
            form = self.make_form(draw)
            if not form.is_valid():
                return self.refused(draw, form)
        if self.confirm_label and needs_confirmation(request):
            # An irreversible step: first say what it will do (compliance.confirm).
            return confirmation_page(request, title=self.confirm_title % {"draw": draw},
                                     consequence=self.consequence(draw, form), action_label=self.confirm_label,
                                     back_url=reverse("lottery:draw", args=[draw.pk]))
        try:
            self.perform(draw, form)
        except services.DrawError as exc:
            return self.refused(draw, form, exc)
        messages.success(request, self.done_message % {"draw": draw})
        return self.back(draw)

    def refused(self, draw, form, exc=None):
        page = DrawDetailView()
        page.setup(self.request, pk=draw.pk)
        page.object = page.get_object()
        if form is not None and self.form_context:
            if exc is not None:
                show_refusal(self.request, exc, form)
            ctx = page.get_context_data(object=page.object, **{self.form_context: form})
            if self.form_action in ctx["actions"]:
                return page.render_to_response(ctx)
        if exc is not None:
            show_refusal(self.request, exc)
        elif form is not None:
            for field, errors in form.errors.items():
                for error in errors:
                    messages.error(self.request, f"{form.fields[field].label}: {error}" if field in form.fields else error)
        return self.back(draw)

    def make_form(self, draw):
        return self.form_class(self.request.POST, self.request.FILES, prefix=self.form_prefix)

    def back(self, draw):
        return HttpResponseRedirect(reverse("lottery:draw", args=[draw.pk]))

    def perform(self, draw, form):  # pragma: no cover - every subclass defines it
        raise NotImplementedError


class OpenSalesView(DrawActionView):
    permission_required = "lottery.manage_draw"
    done_message = gettext_lazy("Sales of %(draw)s are open.")

    def perform(self, draw, form):
        services.draw_open_sales(actor=self.request.user, draw=draw, request=self.request)


class CloseSalesView(DrawActionView):
    permission_required = "lottery.manage_draw"
    done_message = gettext_lazy("Sales of %(draw)s are closed.")

    def perform(self, draw, form):
        services.draw_close_sales(actor=self.request.user, draw=draw, request=self.request)


class JackpotView(DrawActionView):
    permission_required = "lottery.manage_draw"
    form_class = forms.JackpotForm
    form_prefix = "jackpot"
    form_context = "jackpot_form"
    form_action = "jackpot"
    done_message = gettext_lazy("The jackpot of %(draw)s is recorded.")

    def perform(self, draw, form):
        draw = services.draw_set_jackpot(actor=self.request.user, draw=draw, jackpot_cents=form.jackpot_cents(),
                                         to_highest_class=form.cleaned_data["to_highest_class"],
                                         request=self.request)
        if draw.jackpot_pending:
            self.done_message = gettext_lazy("The jackpot of %(draw)s is above the amount one person may set; "
                                             "it is set when a second person approves it.")


class CentralInputsView(DrawActionView):
    permission_required = "lottery.manage_draw"
    form_class = forms.CentralInputsForm
    form_prefix = "central"
    form_context = "central_form"
    form_action = "central"
    done_message = gettext_lazy("The central system's figures for %(draw)s are recorded.")

    def make_form(self, draw):
        return forms.CentralInputsForm(self.request.POST, prefix=self.form_prefix, params=draw.ruleset.params)

    def perform(self, draw, form):
        services.draw_set_central_inputs(actor=self.request.user, draw=draw, inputs=form.cleaned_figures(),
                                         request=self.request)


class EnterResultView(DrawActionView):
    permission_required = "lottery.enter_result"
    form_class = forms.ResultEntryForm
    form_prefix = "enter"
    form_context = "result_form"
    form_action = "enter"
    done_message = gettext_lazy("The result of %(draw)s is entered; a second user must confirm it.")

    def make_form(self, draw):
        return forms.ResultEntryForm(self.request.POST, game=draw.game.code, params=draw.ruleset.params,
                                     prefix=self.form_prefix)

    def perform(self, draw, form):
        services.result_enter(actor=self.request.user, draw=draw, numbers=form.result(),
                              draw_method=form.cleaned_data["draw_method"], witnesses=form.cleaned_data["witnesses"],
                              request=self.request)


class ConfirmResultView(DrawActionView):
    permission_required = "lottery.confirm_result"
    done_message = gettext_lazy("The result of %(draw)s is confirmed; settlement has started.")

    confirm_label = gettext_lazy("Yes, confirm the result")
    confirm_title = gettext_lazy("Confirm the result of %(draw)s")

    def consequence(self, draw, form):
        pending = DrawResult.objects.filter(draw=draw, status=ResultStatus.ENTERED).first()
        return _("Confirming %(numbers)s as the result of %(draw)s starts its settlement; after that only a "
                 "correction (§27) can change it.") % {
            "numbers": result_text(pending.numbers) if pending else "–", "draw": draw}

    def perform(self, draw, form):
        services.result_confirm(actor=self.request.user, draw=draw, request=self.request)


class RejectResultView(DrawActionView):
    permission_required = "lottery.confirm_result"
    form_class = forms.ReasonForm
    done_message = gettext_lazy("The entered result of %(draw)s is rejected; enter it again.")

    def perform(self, draw, form):
        services.result_reject(actor=self.request.user, draw=draw, reason=form.cleaned_data["reason"], request=self.request)


class WithdrawResultView(DrawActionView):
    permission_required = "lottery.enter_result"
    form_class = forms.ReasonForm
    form_prefix = "withdraw"
    done_message = gettext_lazy("You withdrew the entered result of %(draw)s; it awaits its result again.")

    def perform(self, draw, form):
        services.result_withdraw(actor=self.request.user, draw=draw, reason=form.cleaned_data["reason"],
                                 request=self.request)


class CancelDrawView(DrawActionView):
    permission_required = "lottery.cancel_draw"
    form_class = forms.RequiredReasonForm
    form_prefix = "cancel"
    form_context = "cancel_form"
    form_action = "cancel"
    done_message = gettext_lazy("%(draw)s is cancelled; its stakes are owed back.")

    confirm_label = gettext_lazy("Yes, cancel the draw")
    confirm_title = gettext_lazy("Cancel %(draw)s")

    def consequence(self, draw, form):
        sold = Line.objects.filter(draw=draw).aggregate(
            wagers=Count("wager_id", distinct=True), total=Sum(F("stake_cents") + F("addon_cents")))
        wagers = sold["wagers"] or 0
        return ngettext("Cancelling %(draw)s refunds %(n)s wager (%(amount)s in total); this cannot be undone.",
                        "Cancelling %(draw)s refunds %(n)s wagers (%(amount)s in total); this cannot be undone.",
                        wagers) % {"draw": draw, "n": number_format(wagers, force_grouping=True),
                                   "amount": format_cents(sold["total"] or 0)}

    def perform(self, draw, form):
        services.draw_cancel(actor=self.request.user, draw=draw, reason=form.cleaned_data["reason"], request=self.request)


class CorrectionRequestView(DrawActionView):
    permission_required = "lottery.correct_result"
    form_prefix = "correct"
    form_class = forms.CorrectionForm
    form_context = "correction_form"
    form_action = "correct"
    done_message = gettext_lazy("The correction of %(draw)s is requested; a second user must confirm it.")

    def make_form(self, draw):
        return forms.CorrectionForm(self.request.POST, game=draw.game.code, params=draw.ruleset.params,
                                    prefix=self.form_prefix)

    def perform(self, draw, form):
        services.correction_request(actor=self.request.user, draw=draw, numbers=form.result(),
                                    reason=form.cleaned_data["reason"], request=self.request)


class CorrectionConfirmView(DrawActionView):
    permission_required = "lottery.correct_result"
    done_message = gettext_lazy("The correction of %(draw)s is confirmed; settlement runs again as a new version.")

    confirm_label = gettext_lazy("Yes, confirm the correction")
    confirm_title = gettext_lazy("Confirm the correction of %(draw)s")

    def consequence(self, draw, form):
        proposed = DrawResult.objects.filter(draw=draw, status=ResultStatus.PROPOSED).first()
        return _("Confirming the correction makes %(numbers)s the result of %(draw)s: the draw is settled again as "
                 "a new version and the differences are paid or recovered; this cannot be undone.") % {
            "numbers": result_text(proposed.numbers) if proposed else "–", "draw": draw}

    def perform(self, draw, form):
        services.correction_confirm(actor=self.request.user, draw=draw, request=self.request)


class CorrectionRejectView(DrawActionView):
    permission_required = "lottery.correct_result"
    form_class = forms.ReasonForm
    done_message = gettext_lazy("The correction of %(draw)s is rejected.")

    def perform(self, draw, form):
        services.correction_reject(actor=self.request.user, draw=draw, reason=form.cleaned_data["reason"],
                                   request=self.request)


class RetrySettlementView(DrawActionView):
    permission_required = "lottery.manage_settlement"
    done_message = gettext_lazy("The settlement of %(draw)s is queued again.")

    def perform(self, draw, form):
        run = open_run(draw)
        if run is None:
            raise services.DrawStateError(gettext_lazy("%(draw)s has no failed or halted settlement run."),
                                          draw=str(draw))
        settlement_retry(actor=self.request.user, run=run, restart="restart" in self.request.POST, request=self.request)


class ApproveSettlementView(DrawActionView):
    permission_required = "lottery.approve_settlement"
    done_message = gettext_lazy("The settlement of %(draw)s is approved; its prizes are being paid.")

    confirm_label = gettext_lazy("Yes, approve and pay")
    confirm_title = gettext_lazy("Approve the settlement of %(draw)s")

    def consequence(self, draw, form):
        run = settled_run(draw)
        winners = run.winners_count if run else 0
        return ngettext("Approving pays %(n)s prize of %(draw)s, %(amount)s in total, to the winners; this cannot "
                        "be undone.",
                        "Approving pays %(n)s prizes of %(draw)s, %(amount)s in total, to the winners; this cannot "
                        "be undone.", winners) % {
            "n": number_format(winners, force_grouping=True), "draw": draw,
            "amount": format_cents(run.paid_cents if run else 0)}

    def perform(self, draw, form):
        services.settlement_approve(actor=self.request.user, draw=draw, request=self.request)


class RetryPayoutsView(DrawActionView):
    permission_required = "lottery.approve_settlement"
    done_message = gettext_lazy("The due and failed payouts of %(draw)s are sent to be paid.")

    confirm_label = gettext_lazy("Yes, pay them")
    confirm_title = gettext_lazy("Pay the payouts of %(draw)s")

    def consequence(self, draw, form):
        due = Payout.objects.filter(draw=draw, state__in=(Payout.State.DUE, Payout.State.FAILED)).aggregate(
            n=Count("pk"), total=Sum("amount_cents"))
        return ngettext("%(n)s due or failed payout of %(draw)s (%(amount)s) is sent to be paid; this cannot be "
                        "undone.",
                        "%(n)s due or failed payouts of %(draw)s (%(amount)s in total) are sent to be paid; this "
                        "cannot be undone.", due["n"]) % {
            "n": number_format(due["n"], force_grouping=True), "draw": draw, "amount": format_cents(due["total"] or 0)}

    def perform(self, draw, form):
        services.payouts_retry(actor=self.request.user, draw=draw, request=self.request)


class PayoutReportView(StaffPermissionRequired, View):
    """Request the draw's payout report (compliance.reports: PDF and CSV of the newest settled version)
    and go to the reports page, where it is made and downloaded."""

    permission_required = "compliance.add_report"
    http_method_names = ["post"]

    def post(self, request, pk: int):


        draw = get_object_or_404(Draw.objects.select_related("game"), pk=pk)
        language = (get_language() or "en")[:2]
        if language not in dict(settings.LANGUAGES):
            language = "en"
        try:
            report = report_request(actor=request.user, kind="draw_payout", params={"draw": draw.pk},
                                    language=language, request=request)
        except ValueError as exc:
            messages.error(request, str(exc))
            return HttpResponseRedirect(reverse("lottery:draw", args=[draw.pk]))
        messages.success(request, _("Payout report %(id)s of %(draw)s requested (settlement version %(version)s).") % {
            "id": report.pk, "draw": draw, "version": report.params["version"]})
        return HttpResponseRedirect(reverse("compliance:reports"))


class ApproveLargeWinView(StaffPermissionRequired, View):
    permission_required = "lottery.approve_large_win"
    http_method_names = ["post"]

    def post(self, request, pk: int):
        payout = get_object_or_404(Payout.objects.select_related("draw__game"), pk=pk)
        if needs_confirmation(request):
            return confirmation_page(
                request, title=_("Approve a large win of %(draw)s") % {"draw": payout.draw},
                consequence=_("Approving pays %(amount)s for line %(line)s of %(draw)s; this cannot be undone.") % {
                    "amount": format_cents(payout.amount_cents), "line": payout.line_id, "draw": payout.draw},
                action_label=_("Yes, approve and pay"), back_url=reverse("lottery:draw", args=[payout.draw_id]))
        try:
            services.payout_approve_large(actor=request.user, payout=payout, request=request)
        except services.DrawError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, _("The large win of line %(line)s is approved for payment.") % {"line": payout.line_id})
        return HttpResponseRedirect(reverse("lottery:draw", args=[payout.draw_id]))


# ------------------------------------------------------------------------------------------------
# winners, correction report, imports
# ------------------------------------------------------------------------------------------------

class WinnersView(StaffPermissionRequired, TemplateView):
    """Winners of the draw's settled run (or of a version given by ?run=), filtered, keyset-paginated."""

    permission_required = "lottery.view_winning"
    template_name = "lottery/winners.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        draw = get_object_or_404(Draw.objects.select_related("game"), pk=self.kwargs["pk"])
        run = settled_run(draw)
        version = parse_int(self.request.GET.get("run"), maximum=INT_MAX)
        if version is not None:
            run = draw.settlement_runs.filter(version=version).first() or run
        if run is None:
            raise Http404("no settled run")

        form = forms.WinnerFilterForm(self.request.GET or None)
        valid = not form.is_bound or form.is_valid()
        flt = form.to_filter() if form.is_bound and valid else WinnerFilter()
        after = self.request.GET.get("after") or None
        if after and not WINNERS_CURSOR.fullmatch(after):
            after = None  # a tampered cursor: the first page
        try:
            rows, cursor = winners_page(run, flt, after=after) if valid else ([], None)
        except ValueError:  # a cursor of the other order
            rows, cursor = [], None
        for r in rows:
            r["payout_label"] = state_label(r["payout_state"])
        query = self.request.GET.copy()
        query.pop("after", None)
        ctx.update(draw=draw, run=run, form=form, rows=rows, cursor=cursor, query=query.urlencode(), after=after,
                   tiers=list(TierResult.objects.filter(run=run)))
        return ctx


class CorrectionReportView(StaffPermissionRequired, TemplateView):
    permission_required = "lottery.view_winning"
    template_name = "lottery/correction_report.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        draw = get_object_or_404(Draw.objects.select_related("game"), pk=self.kwargs["pk"])
        version = parse_int(self.request.GET.get("run"), maximum=INT_MAX)
        runs = draw.settlement_runs.filter(previous__isnull=False)
        run = runs.filter(version=version).first() if version is not None else runs.order_by("-version").first()
        if run is None:
            raise Http404("no corrected settlement")
        after = self.request.GET.get("after")
        rows, cursor = settlement_diff_winners(run, after=parse_int(after))
        ctx.update(draw=draw, run=run, previous=run.previous, classes=settlement_diff_classes(run), rows=rows,
                   cursor=cursor)
        return ctx


class RetailImportView(StaffPermissionRequired, FormView):
    permission_required = "lottery.import_sales"
    template_name = "lottery/import_form.html"
    form_class = forms.RetailImportForm

    @cached_property
    def draw(self):  # looked up after the permission check
        return get_object_or_404(Draw.objects.select_related("game"), pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        spec = registry.find(self.draw.game.code)
        header = spec.codec.retail_header() if spec is not None else []
        ctx.update(draw=self.draw, header=",".join(header), imports=RetailImport.objects.filter(draw=self.draw)[:20])
        return ctx

    def form_valid(self, form):

        upload = form.cleaned_data["file"]
        try:
            # The file is stored and its import queued; a worker loads it (the page shows the progress).
            record, attached = retail_import_submit(actor=self.request.user, draw=self.draw, stream=upload,
                                                    file_name=upload.name, request=self.request)
        except services.DrawError as exc:
            show_refusal(self.request, exc, form)
            return self.form_invalid(form)
        if attached:
            messages.info(self.request, _("This file is already being imported; this page follows that import."))
        elif record.in_progress:
            messages.success(self.request, _("The file was received. It is imported in the background; "
                                                   "this page shows how far it has got."))
        return HttpResponseRedirect(reverse("lottery:import", args=[record.pk]))


class RetailImportDetailView(StaffPermissionRequired, DetailView):
    permission_required = "lottery.view_retailimport"
    template_name = "lottery/import_detail.html"
    context_object_name = "record"
    queryset = RetailImport.objects.select_related("draw__game")

    def get_context_data(self, **kwargs):


        ctx = super().get_context_data(**kwargs)
        page = Paginator(self.object.errors or [], 200).get_page(self.request.GET.get("page"))
        # Row problems are stored in English with their msgid; shown in the reader's language (records
        # written before show their English `errors`).
        rows = [{**e, "shown": [shown_row_message(m) for m in e["messages"]] if "messages" in e else e["errors"]}
                for e in page.object_list]
        ctx.update(page=page, rows=rows, more=max(0, self.object.error_count - len(self.object.errors or [])),
                   percent=percent(self.object), outcome=retail_import_outcome(self.object))
        return ctx


def retail_import_outcome(record: RetailImport) -> str:
    """The import's result in a sentence for staff (empty while it runs)."""
    if record.state == RetailImport.State.DONE:
        return ngettext("Imported %(lines)s lines in %(tickets)s ticket.",
                        "Imported %(lines)s lines in %(tickets)s tickets.", record.tickets) % {
            "lines": record.lines, "tickets": record.tickets}
    if record.state == RetailImport.State.FAILED and record.error_count:
        return ngettext("The file was refused: %(n)s bad row. Nothing was imported.",
                        "The file was refused: %(n)s bad rows. Nothing was imported.",
                        record.error_count) % {"n": record.error_count}
    if record.state == RetailImport.State.FAILED and record.errors:
        # Refused as a whole (row 0: the same file again, a draw that takes no files): the reason.
        first = record.errors[0]
        problems = [shown_row_message(m) for m in first["messages"]] if "messages" in first else first["errors"]
        return _("The file was refused as a whole: %(problem)s. Nothing was imported.") % {
            "problem": "; ".join(str(p) for p in problems)}
    if record.state == RetailImport.State.FAILED:
        return _("The import stopped before it finished. Nothing was imported. Hand the file in again.")
    return ""


class RetailImportStatusView(StaffPermissionRequired, View):
    """JSON polled by the import's page while it runs."""

    permission_required = "lottery.view_retailimport"

    def get(self, request, pk):

        r = get_object_or_404(RetailImport, pk=pk)
        return JsonResponse({
            "id": r.pk, "state": r.state, "state_label": r.get_state_display(), "phase": r.phase,
            "phase_label": r.get_phase_display() if r.in_progress else "", "done": r.progress_done,
            "total": r.progress_total, "percent": percent(r), "rows": r.rows, "in_progress": r.in_progress,
        })
