"""Staff pages: find a player, and one page with everything about them. Thin: forms validate,
selectors read, services write."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from compliance.access import StaffPermissionRequired
from compliance.confirm import confirmation_page, needs_confirmation
from compliance.errors import DomainError
from compliance.identity import encryption_available
from compliance.models import AuditEvent, ScreeningDecision
from compliance.refusals import show_refusal
from compliance.screening import reason_message

from . import selectors, services
from .forms import IdentifierSearchForm, PayoutPaidForm, PlayerSearchForm, VerifyForm
from .models import OperatorLimit, PendingPayout, Player, PlaySession, SessionReminder

VIEW_PLAYERS = ("compliance.access_backoffice", "players.view_player")


class PlayerSearchView(StaffPermissionRequired, TemplateView):
    """Search by name and birth date (GET); by national identifier a POST, with its own permission,
    audited and throttled (services.identifier_search)."""

    permission_required = VIEW_PLAYERS
    template_name = "players/search.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        form = PlayerSearchForm(self.request.GET or None)
        people = None
        if form.is_bound and form.is_valid() and form.has_criteria():
            d = form.cleaned_data
            people = selectors.person_search(name=d["name"], birth_date=d["birth_date"])[:200]
        ctx.setdefault("id_form", IdentifierSearchForm())
        ctx.update(form=form, people=ctx.get("people", people),
                   can_search_identifier=self.request.user.has_perm("players.search_identifier"))
        return ctx

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm("players.search_identifier"):
            raise PermissionDenied
        id_form = IdentifierSearchForm(request.POST)
        people = None
        if id_form.is_valid():
            try:
                people = services.identifier_search(
                    actor=request.user, national_id=id_form.cleaned_data["national_id"],
                    id_country=id_form.cleaned_data["id_country"], request=request,
                )
            except DomainError as exc:
                show_refusal(request, exc, id_form)
        return self.render_to_response(self.get_context_data(id_form=id_form, people=people))


class PlayerDetailView(StaffPermissionRequired, TemplateView):
    permission_required = VIEW_PLAYERS
    template_name = "players/detail.html"
    ledger_page_size = 50

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        player = get_object_or_404(Player.objects.select_related("person", "account"), pk=self.kwargs["pk"])
        person, account = player.person, player.account
        now = timezone.now()
        user = self.request.user
        ledger = Paginator(
            account.entries.select_related("session").order_by("-created_at", "-pk"), self.ledger_page_size
        )
        sessions = PlaySession.objects.filter(player=player).prefetch_related(
            Prefetch("reminders", queryset=SessionReminder.objects.order_by("due_at"))
        )[:50]
        payouts = list(PendingPayout.objects.filter(account=account).select_related("entry"))
        ctx.update(
            player=player,
            person=person,
            account=account,
            now=now,
            ledger=ledger.get_page(self.request.GET.get("page")),
            payouts=payouts,
            limits=selectors.effective_limits(player, now),
            limit_history=player.limits.order_by("-requested_at", "-pk"),
            operator_limits=OperatorLimit.objects.all(),
            sessions=sessions,
            self_exclusion=selectors.active_self_exclusion(person, now),
            protection=selectors.person_protection(person, now, player),
            self_exclusions=person.self_exclusions.all(),
            decisions=_decisions_shown(person),
            can_reveal=user.has_perm("players.reveal_identifier"),
            encryption_available=encryption_available(),
            can_verify=user.has_perm("players.verify_person"),
            can_release=user.has_perm("players.release_payout"),
            # A refused form comes back as typed, its errors beside its fields (_detail_again).
            verify_form=kwargs.get("verify_form") or VerifyForm(),
            payout_form=PayoutPaidForm(),
            refused_payout=kwargs.get("refused_payout"),
            refused_payout_form=kwargs.get("refused_payout_form"),
            revealed=kwargs.get("revealed"),
            operator_zone=settings.TIME_ZONE,
        )
        if user.has_perm("compliance.view_auditevent"):
            objects = (
                Q(object_type="players.player", object_id=str(player.pk))
                | Q(object_type="players.person", object_id=str(person.pk))
                | Q(object_type="players.gameaccount", object_id=str(account.pk))
            )
            for label, ids in (
                ("players.selfexclusion", [x.pk for x in ctx["self_exclusions"]]),
                ("players.pendingpayout", [p.pk for p in payouts]),
            ):
                if ids:
                    objects |= Q(object_type=label, object_id__in=[str(i) for i in ids])
            ctx["audit_events"] = AuditEvent.objects.filter(objects).order_by("-seq")[:100]
        return ctx


def _decisions_shown(person) -> list[ScreeningDecision]:
    """The person's latest screening decisions, each reason's message in the reader's language (the
    log keeps it in English with its parameters; compliance.screening.reason_message)."""
    decisions = list(ScreeningDecision.objects.filter(person=person).order_by("-created_at", "-pk")[:50])
    for d in decisions:
        d.shown_reasons = [{"code": r.get("code", ""), "message": reason_message(r)} for r in d.reasons]
    return decisions


class RevealIdentifierView(PlayerDetailView):
    """POST only: shows the national identifier in clear, and records that it was looked at."""

    permission_required = (*VIEW_PLAYERS, "players.reveal_identifier")
    http_method_names = ["post"]

    def post(self, request, pk: int):
        player = get_object_or_404(Player.objects.select_related("person"), pk=pk)
        clear = services.person_reveal_identifier(actor=request.user, person=player.person, request=request)
        revealed = clear if clear is not None else ""
        return self.render_to_response(self.get_context_data(pk=pk, revealed={"value": revealed}))


def _detail_again(request, pk: int, **forms):
    """The player page again, with a refused form as it was typed (errors beside its fields)."""
    page = PlayerDetailView()
    page.setup(request, pk=pk)
    return page.render_to_response(page.get_context_data(**forms))


class VerifyPersonView(StaffPermissionRequired, View):
    permission_required = (*VIEW_PLAYERS, "players.verify_person")
    http_method_names = ["post"]

    def post(self, request, pk: int):
        player = get_object_or_404(Player.objects.select_related("person"), pk=pk)
        form = VerifyForm(request.POST)
        if form.is_valid() and needs_confirmation(request):
            person = player.person
            name = f"{person.first_name} {person.last_name}"
            return confirmation_page(
                request, title=_("Record the identity of %(name)s as verified") % {"name": name},
                consequence=_("Recording %(name)s (born %(birth)s) as verified by %(method)s lets them deposit and "
                              "play; the verification stays in their record and cannot be taken back here.") % {
                    "name": name, "birth": person.birth_date.isoformat() if person.birth_date else "–",
                    "method": form.cleaned_data["method"]},
                action_label=_("Yes, record it as verified"), back_url=reverse("players:detail", args=[pk]),
                danger=False)
        if form.is_valid():
            services.person_verify(
                actor=request.user,
                person=player.person,
                method=form.cleaned_data["method"],
                note=form.cleaned_data["note"],
                request=request,
            )
            messages.success(request, _("Identity recorded as verified."))
            return redirect("players:detail", pk=pk)
        return _detail_again(request, pk, verify_form=form)


class PayoutPaidView(StaffPermissionRequired, View):
    permission_required = (*VIEW_PLAYERS, "players.release_payout")
    http_method_names = ["post"]

    def post(self, request, pk: int):
        payout = get_object_or_404(PendingPayout.objects.select_related("account"), pk=pk)
        form = PayoutPaidForm(request.POST)
        if form.is_valid():
            try:
                services.payout_release_request(
                    actor=request.user,
                    payout=payout,
                    bank_reference=form.cleaned_data["bank_reference"],
                    request=request,
                )
                messages.success(
                    request, _("The payment is recorded; it counts as paid when a second person approves it.")
                )
                return redirect("players:detail", pk=payout.account.player_id)
            except DomainError as exc:
                show_refusal(request, exc, form)
        return _detail_again(request, payout.account.player_id, refused_payout=payout.pk, refused_payout_form=form)
