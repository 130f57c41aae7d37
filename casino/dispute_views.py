"""Staff pages of disputes and complaints (issue 19 items 4 and 5): lists, the record forms, a dispute's
page (and its amendment), a complaint's page with its deadlines and the steps that handle it (extend,
answer, mark paid), each confirmed first (compliance.confirm). Thin: forms read, services decide,
selectors read; a refused form is shown again as typed, each error beside its field."""

from __future__ import annotations

import json

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from casino.rules.disputes import DECIDERS
from compliance.access import StaffPermissionRequired
from compliance.bounds import parse_int
from compliance.confirm import confirmation_page, needs_confirmation
from compliance.errors import DomainError, StateConflict
from compliance.money import euros_to_cents, format_cents
from compliance.refusals import show_refusal

from . import complaints as complaint_services
from . import disputes as dispute_services
from .dispute_forms import (
    AmendDisputeForm,
    AnswerForm,
    ComplaintFilterForm,
    ComplaintForm,
    DisputeFilterForm,
    DisputeForm,
    ExtendForm,
    PaidForm,
)
from .dispute_selectors import (
    complaint_deadlines,
    complaints_listed,
    deadline_words,
    disputes_filtered,
    parties_text,
    people_of,
)
from .models import Complaint, Dispute, RecordedRound, Venue
from .operations import VENUE_KINDS

#: A service's field -> the form's field that shows its message.
DISPUTE_FIELDS = {"round": "round_ref", "deciders": "decider_role"}
COMPLAINT_FIELDS = {"round": "round_ref"}
LIST_LIMIT = 200


def show_on_form(exc: DomainError, form, fields: dict[str, str] | None = None) -> None:
    """The refusal on the form: each message beside the field it is about, the sentence on top."""
    for name, items in exc.fields.items():
        target = (fields or {}).get(name, name)
        for message in items:
            form.add_error(target if target in form.fields else None, str(message))
    form.add_error(None, exc.detail)


def _day(day) -> str:
    return formats.date_format(day, "SHORT_DATE_FORMAT")


# -------------------------------------------------------------------------------------------- disputes


class DisputesView(StaffPermissionRequired, TemplateView):
    """Disputes per venue and day, newest first."""

    permission_required = "casino.view_dispute"
    template_name = "casino/disputes.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        filters = DisputeFilterForm(self.request.GET or None)
        args = {}
        if filters.is_valid():
            d = filters.cleaned_data
            args = {"venue": d["venue"].pk if d.get("venue") else None, "day": d.get("day")}
        disputes = list(disputes_filtered(**args)[:LIST_LIMIT])
        people = people_of(disputes)
        ctx.update(filters=filters, limit=LIST_LIMIT,
                   rows=[{"d": d, "players": parties_text(d, people),
                          "deciders": [(x["name"], dispute_services.role_label(x["role"])) for x in d.deciders],
                          "amended_by": next(iter(d.amendments.all()), None)} for d in disputes],
                   may_record=self.request.user.has_perm("casino.record_dispute"))
        return ctx


class DisputeNewView(StaffPermissionRequired, TemplateView):
    """The inspector records a dispute; `?round=<id>` starts from a recorded round."""

    permission_required = "casino.record_dispute"
    template_name = "casino/dispute_form.html"
    form_class = DisputeForm

    def get(self, request, *args, **kwargs):
        initial = {}
        pk = parse_int(request.GET.get("round", ""))
        found = RecordedRound.objects.filter(pk=pk).select_related("table").first() if pk else None
        if found is not None:
            initial = {"table": found.table_id, "round_ref": found.ref}
        return self.render_to_response(self.get_context_data(form=self.form_class(initial=initial)))

    def post(self, request, *args, **kwargs):
        form = self.form_class(request.POST)
        if form.is_valid():
            try:
                dispute = dispute_services.dispute_record(actor=request.user, request=request, **self.extra(form),
                                                          **form.service_args())
            except DomainError as exc:
                show_on_form(exc, form, DISPUTE_FIELDS)
            else:
                messages.success(request, _("Dispute %(n)s recorded.") % {"n": dispute.pk})
                return redirect("casino:dispute", pk=dispute.pk)
        return self.render_to_response(self.get_context_data(form=form))

    def extra(self, form) -> dict:
        return {}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["deciders_by_venue"] = _deciders_by_venue()
        return ctx


def _deciders_by_venue() -> list[dict]:
    """Who decides a dispute at each type of venue, in words (shown beside the form)."""
    kinds = dict(Venue.Kind.choices)
    by_frame = {frame: kind for kind, frame in VENUE_KINDS.items()}
    return [{"kind": kinds.get(by_frame.get(key), key[1]), "roles": [dispute_services.role_label(r) for r in d.roles],
             "rule": d.rule} for key, d in DECIDERS.items()]


class DisputeView(StaffPermissionRequired, TemplateView):
    """One dispute: the table, the round, the parties, who decided, the decision and what became of the
    round; the record it amends and the one that amends it; complaints that name it."""

    permission_required = "casino.view_dispute"
    template_name = "casino/dispute.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        d = get_object_or_404(Dispute.objects.select_related("venue", "table", "round", "amends"), pk=kwargs["pk"])
        people = people_of([d])
        amended_by = d.amendments.first()
        ctx.update(d=d, players=parties_text(d, people), amended_by=amended_by,
                   deciders=[(x["name"], dispute_services.role_label(x["role"])) for x in d.deciders],
                   complaints=d.complaints.select_related("venue").order_by("pk"),
                   may_amend=self.request.user.has_perm("casino.record_dispute") and amended_by is None)
        return ctx


class DisputeAmendView(DisputeNewView):
    """A new record replacing a dispute's (the old one stays, pointing at its amendment)."""

    template_name = "casino/dispute_form.html"
    form_class = AmendDisputeForm

    def dispute(self) -> Dispute:
        return get_object_or_404(Dispute.objects.select_related("round"), pk=self.kwargs["pk"])

    def get(self, request, *args, **kwargs):
        return self.render_to_response(self.get_context_data(
            form=AmendDisputeForm(initial=DisputeForm.initial_from(self.dispute()))))

    def extra(self, form) -> dict:
        return {"amends": self.dispute(), "amendment_reason": form.cleaned_data["amendment_reason"]}

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["amends"] = self.dispute()
        return ctx


# ------------------------------------------------------------------------------------------ complaints


class ComplaintsView(StaffPermissionRequired, TemplateView):
    """Complaints by their next deadline (overdue ones first, said in words); `?all=on` also those with
    nothing open."""

    permission_required = "casino.view_complaint"
    template_name = "casino/complaints.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        filters = ComplaintFilterForm(self.request.GET or None)
        venue, show_all = None, False
        if filters.is_valid():
            venue = filters.cleaned_data["venue"].pk if filters.cleaned_data.get("venue") else None
            show_all = filters.cleaned_data.get("all", False)
        today = timezone.localdate()
        rows = []
        for c in complaints_listed(venue=venue, open_only=not show_all)[:LIST_LIMIT]:
            states = complaint_deadlines(c, today)
            rows.append({"c": c, "answer": states["answer"], "answer_words": deadline_words(states["answer"]),
                         "payment": states["payment"], "payment_words": deadline_words(states["payment"]),
                         "overdue": "overdue" in (states["answer"], states["payment"])})
        ctx.update(filters=filters, rows=rows, limit=LIST_LIMIT, show_all=show_all,
                   may_record=self.request.user.has_perm("casino.record_complaint"))
        return ctx


class ComplaintNewView(StaffPermissionRequired, TemplateView):
    permission_required = "casino.record_complaint"
    template_name = "casino/complaint_form.html"

    def get(self, request, *args, **kwargs):
        initial = {}
        pk = parse_int(request.GET.get("dispute", ""))
        dispute = Dispute.objects.filter(pk=pk).select_related("table", "round").first() if pk else None
        if dispute is not None:
            initial = {"venue": dispute.venue_id, "dispute": dispute.pk,
                       "round_ref": f"{dispute.table.code}/{dispute.round.ref}" if dispute.round else ""}
        return self.render_to_response(self.get_context_data(form=ComplaintForm(initial=initial)))

    def post(self, request, *args, **kwargs):
        form = ComplaintForm(request.POST)
        if form.is_valid():
            try:
                complaint = complaint_services.complaint_record(actor=request.user, request=request,
                                                                **form.service_args())
            except DomainError as exc:
                show_on_form(exc, form, COMPLAINT_FIELDS)
            else:
                messages.success(request, _("Complaint %(n)s recorded: the answer is due on %(date)s.") % {
                    "n": complaint.pk, "date": _day(complaint.answer_due)})
                return redirect("casino:complaint", pk=complaint.pk)
        return self.render_to_response(self.get_context_data(form=form))


class ComplaintView(StaffPermissionRequired, TemplateView):
    """One complaint: who, what, when, the deadlines the engine gave (and its input), and for those who
    handle complaints the extension, the answer and the payment of winnings."""

    permission_required = "casino.view_complaint"
    template_name = "casino/complaint.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        c = get_object_or_404(Complaint.objects.select_related("venue", "person", "round__table", "dispute",
                                                               "answered_by"), pk=kwargs["pk"])
        today = timezone.localdate()
        states = complaint_deadlines(c, today)
        may_handle = self.request.user.has_perm("casino.handle_complaint")
        ctx.update(
            c=c, answer_state=states["answer"], answer_words=deadline_words(states["answer"]),
            payment_state=states["payment"], payment_words=deadline_words(states["payment"]),
            may_handle=may_handle,
            extend_form=kwargs.get("extend_form") or ExtendForm(),
            answer_form=kwargs.get("answer_form") or AnswerForm(),
            paid_form=kwargs.get("paid_form") or PaidForm(),
            may_extend=may_handle and c.answered_on is None and c.extension_notified_on is None,
            may_answer=may_handle and c.answered_on is None,
            may_pay=may_handle and c.winnings_cents is not None and c.paid_on is None,
            input_json=_json(c.deadline_input), answer_json=_json(c.deadline_answer),
        )
        return ctx


def _json(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _complaint_again(request, pk: int, **forms):
    page = ComplaintView()
    page.setup(request, pk=pk)
    return page.render_to_response(page.get_context_data(pk=pk, **forms))


class _ComplaintStep(StaffPermissionRequired, View):
    """A POST-only step on a complaint: the form, its confirmation page, the service; a refusal shows
    the complaint's page again with the form as typed."""

    permission_required = "casino.handle_complaint"
    http_method_names = ["post"]
    form_class: type = ExtendForm
    form_name = ""

    def post(self, request, pk: int):
        complaint = get_object_or_404(Complaint.objects.select_related("venue", "person"), pk=pk)
        form = self.form_class(request.POST)
        if form.is_valid():
            asked = self.confirmation(complaint, form.cleaned_data) if needs_confirmation(request) else None
            if asked is not None:
                return confirmation_page(request, back_url=reverse("casino:complaint", args=[pk]), danger=False,
                                         **asked)
            try:
                self.run(request, complaint, form)
            except StateConflict as exc:  # about the complaint, not what was typed: its page says it
                show_refusal(request, exc)
                return redirect("casino:complaint", pk=pk)
            except DomainError as exc:
                show_on_form(exc, form)
            else:
                return redirect("casino:complaint", pk=pk)
        return _complaint_again(request, pk, **{self.form_name: form})

    def confirmation(self, complaint: Complaint, data: dict) -> dict | None:
        """The confirmation page's title, consequence and button; None: nothing to confirm (the service
        will refuse)."""
        raise NotImplementedError

    def run(self, request, complaint: Complaint, form) -> None:
        raise NotImplementedError


class ComplaintExtendView(_ComplaintStep):
    form_class, form_name = ExtendForm, "extend_form"

    def confirmation(self, complaint, data):
        if complaint.answered_on is not None or complaint.extension_notified_on is not None:
            return None
        return {"title": _("Extend the deadline of complaint %(n)s") % {"n": complaint.pk},
                "consequence": _("The answer will be due 10 working days after %(due)s instead of on %(due)s. The rules "
                                 "allow this once, and only when the player has been told (notified on %(notified)s); "
                                 "it cannot be undone.") % {"due": _day(complaint.answer_due),
                                                             "notified": _day(data["notified_on"])},
                "action_label": _("Yes, extend it once")}

    def run(self, request, complaint, form):
        c = complaint_services.complaint_extend(actor=request.user, request=request, complaint=complaint,
                                                notified_on=form.cleaned_data["notified_on"])
        messages.success(request, _("Extended: the answer is now due on %(date)s.") % {"date": _day(c.extended_answer_due)})


class ComplaintAnswerView(_ComplaintStep):
    form_class, form_name = AnswerForm, "answer_form"

    def confirmation(self, complaint, data):
        if complaint.answered_on is not None:
            return None
        consequence = _("The answer of %(date)s is recorded as given to %(player)s; it cannot be changed afterwards.") % {
            "date": _day(data["answered_on"]), "player": complaint.player}
        if data.get("winnings") is not None:
            consequence += " " + _("Winnings of %(amount)s become payable within 30 days of the player's request.") % {
                "amount": format_cents(euros_to_cents(data["winnings"]))}
        return {"title": _("Record the answer to complaint %(n)s") % {"n": complaint.pk}, "consequence": consequence,
                "action_label": _("Yes, record the answer")}

    def run(self, request, complaint, form):
        c = complaint_services.complaint_answer(actor=request.user, request=request, complaint=complaint,
                                                **form.service_args())
        messages.success(request, _("The answer is recorded.") if c.answered_on <= c.due_on else
                         _("The answer is recorded, after its deadline."))


class ComplaintPaidView(_ComplaintStep):
    form_class, form_name = PaidForm, "paid_form"

    def confirmation(self, complaint, data):
        if complaint.winnings_cents is None or complaint.paid_on is not None:
            return None
        return {"title": _("Record the payment of complaint %(n)s") % {"n": complaint.pk},
                "consequence": _("%(amount)s is recorded as paid to %(player)s on %(date)s; it cannot be undone.") % {
                    "amount": format_cents(complaint.winnings_cents), "player": complaint.player,
                    "date": _day(data["paid_on"])},
                "action_label": _("Yes, record the payment")}

    def run(self, request, complaint, form):
        complaint_services.complaint_mark_paid(actor=request.user, request=request, complaint=complaint,
                                               paid_on=form.cleaned_data["paid_on"],
                                               reference=form.cleaned_data.get("reference", ""))
        messages.success(request, _("The payment is recorded."))

