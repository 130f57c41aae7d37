"""The jackpot pages (issue 19 item 3; docs/casino-operations.md, "Jackpots"): the jackpots per venue with
their balances and, for the casino manager, a new jackpot; a jackpot's terms, versions, ledger and
postings, new terms, and its removal from play (confirmed first)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from compliance.access import StaffPermissionRequired
from compliance.confirm import confirmation_page, needs_confirmation
from compliance.errors import DomainError
from compliance.models import Approval
from compliance.money import format_cents
from compliance.refusals import show_refusal

from . import jackpots
from .jackpot_forms import JackpotTermsForm, NewJackpotForm, RemoveJackpotForm
from .jackpot_selectors import jackpot_rows, jackpots_with_versions, pending_by_jackpot, version_in_force
from .models import Jackpot, JackpotAccrual, JackpotEntry, Venue

LEDGER_LINES = 200
DAYS_SHOWN = 62
MANAGE = "casino.manage_jackpots"


class JackpotsView(StaffPermissionRequired, TemplateView):
    """The jackpots per venue: terms in force, the posted balance (pot and held reserve), what verified
    rounds accrued that is not posted yet; a new jackpot for the casino manager."""

    permission_required = "casino.view_jackpot"
    template_name = "casino/jackpots.html"

    def get(self, request, *args, **kwargs):
        venue = request.GET.get("venue") or ""
        return self.render_to_response(self._context(NewJackpotForm(initial={"venue": venue} if venue.isdigit() else {})))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm(MANAGE):
            raise PermissionDenied
        form = NewJackpotForm(request.POST)
        if form.is_valid():
            terms = form.terms()
            try:
                jackpot = jackpots.jackpot_create(actor=request.user, request=request, venue=form.cleaned_data["venue"],
                                                  code=form.cleaned_data["code"], **terms)
            except DomainError as exc:
                show_refusal(request, exc, form)
            else:
                messages.success(request, _("Jackpot %(jackpot)s created.") % {"jackpot": jackpot})
                return redirect("casino:jackpot", pk=jackpot.pk)
        return self.render_to_response(self._context(form))

    def _context(self, form):
        venue = self.request.GET.get("venue")
        rows = jackpot_rows(int(venue) if venue and venue.isdigit() else None)
        groups: dict[int, dict] = {}
        for row in rows:
            group = groups.setdefault(row["jackpot"].venue_id, {"venue": row["jackpot"].venue, "rows": []})
            group["rows"].append(row)
        return self.get_context_data(groups=list(groups.values()), form=form, may_manage=self.request.user.has_perm(MANAGE),
                                     venues=Venue.objects.filter(jackpots__isnull=False).distinct().order_by("name"))


class JackpotView(StaffPermissionRequired, TemplateView):
    """One jackpot: its terms in force (as shown at the table), its versions, the ledger's newest lines,
    the postings of its gaming days, what is accrued and not posted, the large wins held for a second
    person, whether the ledger balances; new terms and removal for the casino manager."""

    permission_required = "casino.view_jackpot"
    template_name = "casino/jackpot.html"

    def get(self, request, *args, **kwargs):
        j = self._jackpot()
        current = version_in_force(j.versions.all())
        form = JackpotTermsForm(initial=JackpotTermsForm.initial_from(current), venue=j.venue, jackpot=j)
        return self.render_to_response(self.page_context(j, form, RemoveJackpotForm(jackpot=j)))

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm(MANAGE):
            raise PermissionDenied
        j = self._jackpot()
        form = JackpotTermsForm(request.POST, venue=j.venue, jackpot=j)
        if form.is_valid():
            terms = form.terms()
            try:
                jackpots.jackpot_version_create(actor=request.user, request=request, jackpot=j, **terms)
            except DomainError as exc:
                show_refusal(request, exc, form)
            else:
                messages.success(request, _("New terms of %(jackpot)s saved as a new version.") % {"jackpot": j})
                return redirect("casino:jackpot", pk=j.pk)
        return self.render_to_response(self.page_context(j, form, RemoveJackpotForm(jackpot=j)))

    def _jackpot(self) -> Jackpot:
        return get_object_or_404(jackpots_with_versions(), pk=self.kwargs["pk"])

    def page_context(self, j: Jackpot, form, remove_form):
        versions = list(j.versions.all())
        current = version_in_force(versions)
        held = list(JackpotAccrual.objects.filter(jackpot=j, win_state=JackpotAccrual.WinState.HELD,
                                                  superseded_at__isnull=True, posting__isnull=True)
                    .select_related("round__table").order_by("played_at"))
        requests = {a.target_id: a for a in Approval.objects.filter(
            kind=jackpots.WIN_KIND, state=Approval.State.REQUESTED, target_type="casino.jackpotaccrual",
            target_id__in=[str(a.pk) for a in held])}
        return self.get_context_data(
            jackpot=j, current=current, versions=versions, pending=pending_by_jackpot([j.pk]).get(j.pk),
            entries=list(j.entries.select_related("counterpart__venue", "accrual__round").order_by("-seq")[:LEDGER_LINES]),
            days=list(j.days.order_by("-day")[:DAYS_SHOWN]), problems=jackpots.ledger_problems(j),
            held=[{"accrual": a, "approval": requests.get(str(a.pk))} for a in held],
            threshold=jackpots.large_win_cents(j.venue.kind), form=form, remove_form=remove_form,
            may_manage=self.request.user.has_perm(MANAGE) and j.state == Jackpot.State.ACTIVE,
            reasons=dict(JackpotEntry.Reason.choices), ledger_lines=LEDGER_LINES)


class JackpotRemoveView(StaffPermissionRequired, TemplateView):
    """Remove a jackpot from play: the balance goes to the named destination. Asked first (compliance.confirm)."""

    permission_required = "casino.manage_jackpots"
    template_name = "casino/jackpot.html"
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        j = get_object_or_404(jackpots_with_versions(), pk=kwargs["pk"])
        form = RemoveJackpotForm(request.POST, jackpot=j)
        page = JackpotView()
        page.setup(request, pk=j.pk)
        if form.is_valid():
            d = form.cleaned_data
            if needs_confirmation(request):
                where = (str(d["to"]) if d["destination"] == Jackpot.Destination.JACKPOT and d.get("to")
                         else str(Jackpot.Destination(d["destination"]).label))
                return confirmation_page(
                    request, title=_("Remove %(jackpot)s from play") % {"jackpot": j},
                    consequence=_("%(jackpot)s will take no part in rounds from now on, and its balance of %(amount)s "
                                  "goes to %(where)s. This cannot be undone.") % {
                        "jackpot": j, "amount": format_cents(j.balance_cents), "where": where},
                    action_label=_("Remove from play"), back_url=reverse("casino:jackpot", args=[j.pk]))
            try:
                jackpots.jackpot_remove(actor=request.user, request=request, jackpot=j, destination=d["destination"],
                                        to=d.get("to"), note=d["note"])
            except DomainError as exc:
                show_refusal(request, exc, form)
            else:
                messages.success(request, _("%(jackpot)s was removed from play.") % {"jackpot": j})
                return redirect("casino:jackpot", pk=j.pk)
        current = version_in_force(j.versions.all())
        terms = JackpotTermsForm(initial=JackpotTermsForm.initial_from(current), venue=j.venue, jackpot=j)
        return page.render_to_response(page.page_context(j, terms, form))
