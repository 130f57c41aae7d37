"""Staff pages of the compliance app (thin: forms validate, services write, selectors read)."""

import datetime as _dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views import View
from django.views.generic import DetailView, TemplateView

from . import approvals as approvals_mod
from . import registry_services, words
from .access import StaffPermissionRequired
from .confirm import confirmation_page, needs_confirmation
from .errors import DomainError, shown_message
from .file_jobs import percent
from .forms import (
    AuditFilterForm,
    BanForm,
    DecideApprovalForm,
    LiftBanForm,
    RegistryUploadForm,
    ReportForm,
    ScreeningFilterForm,
)
from .jobs import JobError, job_retry, job_status
from .models import (
    Approval,
    AuditEvent,
    ExclusionEntry,
    ExclusionRegistry,
    ExclusionStage,
    Job,
    RegistryCall,
    RegistryImport,
    Report,
)
from .refusals import show_refusal
from .reports import report_request
from .reports.kinds import KINDS
from .reports.render import report_file_name
from .selectors import (
    AuditFilter,
    audit_actions,
    audit_actors,
    audit_events,
    audit_object_types,
    registry_overview,
    screening_decisions,
)
from .words import actions_choices, object_types_choices
from .work import approval_sentence


class AuditListView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_auditevent"
    template_name = "compliance/audit_list.html"
    paginate_by = 50

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        form = AuditFilterForm(self.request.GET or None)
        flt = form.to_filter() if form.is_bound and form.is_valid() else AuditFilter()
        if form.is_bound and not form.is_valid():
            events = AuditEvent.objects.none()
        else:
            events = audit_events(flt)
        page = Paginator(events, self.paginate_by).get_page(self.request.GET.get("page"))
        query = self.request.GET.copy()
        query.pop("page", None)
        ctx.update(
            form=form,
            page=page,
            query=query.urlencode(),
            actions=actions_choices(audit_actions()),
            object_types=object_types_choices(audit_object_types()),
            actors=audit_actors(),
            operator_zone=settings.TIME_ZONE,
        )
        return ctx


class AuditDetailView(StaffPermissionRequired, DetailView):
    permission_required = "compliance.view_auditevent"
    template_name = "compliance/audit_detail.html"
    model = AuditEvent
    context_object_name = "event"
    extra_context = {"operator_zone": settings.TIME_ZONE}


# --- Four-eyes approvals, registries, screening log, reports, compliance dashboard -------------------

class ApprovalListView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_approval"
    template_name = "compliance/approvals.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        user = self.request.user
        pending = list(approvals_mod.pending_approvals().order_by("requested_at", "pk"))
        ctx["pending"] = [
            {"approval": a, "may_decide": approvals_mod.may_decide(user, a), "may_reject": approvals_mod.may_reject(a),
             "kind": approvals_mod.approval_kind_words(a.kind), "subject": approvals_mod.approval_subject(a),
             "may_withdraw": approvals_mod.may_withdraw(user, a), "link": approvals_mod.approval_link(a)}
            for a in pending
        ]
        decided = Approval.objects.exclude(state=Approval.State.REQUESTED).select_related(
            "requested_by", "decided_by")[:30]
        # the object by its describer's title ("Lotto #1002"), as pending rows: the stored name is English
        ctx["decided"] = [
            {"approval": a, "kind": approvals_mod.approval_kind_words(a.kind), "url": approvals_mod.approval_link(a),
             "title": approvals_mod.approval_subject(a).title}
            for a in decided
        ]
        ctx["operator_zone"] = settings.TIME_ZONE
        ctx["form"] = DecideApprovalForm()
        return ctx


class ApprovalDecideView(StaffPermissionRequired, View):
    permission_required = "compliance.decide_approval"
    http_method_names = ["post"]

    def post(self, request, pk):
        approval = get_object_or_404(Approval, pk=pk)
        form = DecideApprovalForm(request.POST)
        if not form.is_valid():
            messages.error(request, gettext("Choose approve or reject."))
            return redirect("compliance:approvals")
        if needs_confirmation(request):
            approve = form.cleaned_data["decision"] == "approve"
            what = approval_sentence(approval)
            return confirmation_page(
                request, title=gettext("Approve the request") if approve else gettext("Reject the request"),
                consequence=(gettext("Approving carries out what was asked: %(what)s. This cannot be undone.")
                             if approve else
                             gettext("Rejecting ends the request without doing it: %(what)s. The person who asked "
                                     "must ask again.")) % {"what": what},
                action_label=gettext("Yes, approve") if approve else gettext("Yes, reject"),
                back_url=reverse("compliance:approvals"), danger=not approve)
        try:
            approvals_mod.approval_decide(
                actor=request.user, approval=approval, approve=form.cleaned_data["decision"] == "approve",
                note=form.cleaned_data["note"], request=request,
            )
        except DomainError as exc:
            # The four-eyes rule, a missing permission, or the handler's refusal (e.g. a draw no longer
            # in the state the request was about): nothing was changed, the request stays pending.
            show_refusal(request, exc)
        else:
            messages.success(request, gettext("Decision recorded."))
        return redirect("compliance:approvals")


class ApprovalWithdrawView(StaffPermissionRequired, View):
    """The requester withdraws their own pending request (`approval_cancel`: only theirs, only while
    pending; the service checks). Any staff member may have asked, so the page needs only staff access."""

    permission_required = "compliance.access_backoffice"
    http_method_names = ["post"]

    def post(self, request, pk):
        approval = get_object_or_404(Approval, pk=pk)
        try:
            approvals_mod.approval_cancel(actor=request.user, approval=approval,
                                          note=(request.POST.get("note") or "")[:1000], request=request)
        except DomainError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, gettext("You withdrew your request; nothing of it was carried out."))
        return _back(request, "compliance:approvals")


class RegistryListView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_exclusionregistry"
    template_name = "compliance/registries.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["overview"] = registry_overview()
        ctx["imports"] = RegistryImport.objects.select_related("registry")[:20]
        now = timezone.now()
        ctx["staff_entries"] = (
            ExclusionEntry.objects.filter(registry__kind__in=registry_services.STAFF_KEPT_KINDS, batch__isnull=True)
            .select_related("registry", "decided_by").order_by("-created_at")[:100]
        )
        ctx["now"] = now
        ctx["calls"] = RegistryCall.objects.select_related("registry")[:20]
        # A refused form comes back as typed, its errors beside its fields (_registries_again).
        ctx["upload_form"] = kwargs.get("upload_form") or RegistryUploadForm()
        ctx["ban_form"] = kwargs.get("ban_form") or BanForm()
        ctx["lift_form"] = LiftBanForm()
        return ctx


def _registries_again(request, **forms):
    """The registries page again, with a refused form as it was typed (a file must be chosen again:
    browsers never fill a file field)."""
    page = RegistryListView()
    page.setup(request)
    return page.render_to_response(page.get_context_data(**forms))


class RegistryImportView(StaffPermissionRequired, View):
    permission_required = "compliance.import_registry"
    http_method_names = ["post"]

    def post(self, request):
        form = RegistryUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            return _registries_again(request, upload_form=form)
        upload = form.cleaned_data["file"]
        try:
            # The file is stored and its check queued; a worker stages it (the page shows the progress).
            batch, attached = registry_services.registry_import_submit(
                actor=request.user, registry=form.cleaned_data["registry"], stream=upload,
                file_name=upload.name, reason=form.cleaned_data["reason"], request=request,
            )
        except DomainError as exc:
            show_refusal(request, exc, form)
            return _registries_again(request, upload_form=form)
        if attached:
            messages.info(request, gettext("This file is already being checked; this page follows that import."))
        elif batch.in_progress:
            messages.success(request, gettext("The file was received. It is checked in the background; this page "
                                              "shows how far it has got."))
        return redirect("compliance:registry-import", pk=batch.pk)


class RegistryImportDetailView(StaffPermissionRequired, DetailView):
    permission_required = "compliance.view_registryimport"
    template_name = "compliance/registry_import.html"
    model = RegistryImport
    context_object_name = "batch"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        # Row errors are stored in English with their msgid; shown in the reader's language.
        errors = [{"row": e.get("row"), "error": shown_message(e, "error")} for e in self.object.errors or []]
        # The entries of the file: staged while the import waits for approval, in the register once applied.
        batch = self.object
        if batch.state == RegistryImport.State.STAGED:
            entries = ExclusionStage.objects.filter(batch=batch).order_by("pk")
        elif batch.state == RegistryImport.State.APPLIED:
            entries = ExclusionEntry.objects.filter(batch=batch).order_by("pk")
        else:
            entries = ExclusionEntry.objects.none()
        page = Paginator(entries, 100).get_page(self.request.GET.get("page"))
        ctx.update(percent=percent(self.object), row_errors=errors, entries=page)
        return ctx


class RegistryImportStatusView(StaffPermissionRequired, View):
    """JSON polled by the import's page while it runs."""

    permission_required = "compliance.view_registryimport"

    def get(self, request, pk):
        b = get_object_or_404(RegistryImport, pk=pk)
        return JsonResponse({
            "id": b.pk, "state": b.state, "state_label": b.get_state_display(), "phase": b.phase,
            "phase_label": b.get_phase_display() if b.in_progress else "", "done": b.progress_done,
            "total": b.progress_total, "percent": percent(b), "rows": b.rows, "in_progress": b.in_progress,
        })


class BanAddView(StaffPermissionRequired, View):
    permission_required = "compliance.add_exclusionentry"
    http_method_names = ["post"]

    def post(self, request):
        form = BanForm(request.POST)
        if not form.is_valid():
            return _registries_again(request, ban_form=form)
        d = form.cleaned_data
        try:
            registry_services.ban_add(
                actor=request.user, registry=d["registry"], reason=d["reason"], national_id=d["national_id"],
                id_country=d["id_country"], first_name=d["first_name"], last_name=d["last_name"],
                birth_date=d["birth_date"], starts_at=d["starts_at"], ends_at=d["ends_at"], request=request,
            )
        except DomainError as exc:
            show_refusal(request, exc, form)
            return _registries_again(request, ban_form=form)
        messages.success(request, gettext("Entry added."))
        return redirect("compliance:registries")


class BanLiftView(StaffPermissionRequired, View):
    permission_required = "compliance.change_exclusionentry"
    http_method_names = ["post"]

    def post(self, request, pk):
        entry = get_object_or_404(ExclusionEntry, pk=pk)
        form = LiftBanForm(request.POST)
        if not form.is_valid():
            messages.error(request, gettext("Give a reason for lifting the ban early."))
            return redirect("compliance:registries")
        try:
            registry_services.ban_lift_request(actor=request.user, entry=entry, reason=form.cleaned_data["reason"],
                                               request=request)
        except DomainError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, gettext("Lifting requested; a second person must approve it."))
        return redirect("compliance:registries")


class ScreeningLogView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_screeningdecision"
    template_name = "compliance/screening_log.html"
    paginate_by = 50

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        form = ScreeningFilterForm(self.request.GET or None)
        if form.is_bound and not form.is_valid():
            decisions = screening_decisions().none()
        else:
            d = form.cleaned_data if form.is_bound else {}
            outcome = d.get("outcome") or ""
            decisions = screening_decisions(
                since=d.get("since"), until=d.get("until"), person=d.get("person"), name=d.get("name") or "",
                action=d.get("action") or "", allowed=None if not outcome else outcome == "allowed",
                code=(d.get("code") or "").strip(),
            )
        page = Paginator(decisions, self.paginate_by).get_page(self.request.GET.get("page"))
        query = self.request.GET.copy()
        query.pop("page", None)
        ctx.update(form=form, page=page, query=query.urlencode(), operator_zone=settings.TIME_ZONE)
        return ctx


LANGUAGE_NAMES = dict(settings.LANGUAGES)


class ReportListView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_report"
    template_name = "compliance/reports.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        initial = {"since": today.replace(day=1), "until": today, "language": self.request.LANGUAGE_CODE[:2]}
        form = ReportForm(initial=initial)
        # Preselected from a link (e.g. ?kind=draw_payout&draw=12): the kind and the fields the kinds add.
        preset = set(form.fields) - {"language", "since", "until"}
        form.initial.update({k: v for k, v in self.request.GET.items() if k in preset})
        ctx["form"] = form
        ctx["kind_fields"] = ReportForm.kind_fields()
        ctx["reports"] = [
            {"report": r, "title": KINDS[r.kind].title if r.kind in KINDS else words.action_words(r.kind),
             "params": words.payload_facts(r.params), "language": LANGUAGE_NAMES.get(r.language, r.language)}
            for r in Report.objects.all()[:50]
        ]
        ctx["operator_zone"] = settings.TIME_ZONE
        return ctx


class ReportCreateView(StaffPermissionRequired, View):
    permission_required = "compliance.add_report"
    http_method_names = ["post"]

    def post(self, request):
        form = ReportForm(request.POST)
        if not form.is_valid():
            messages.error(request, " ".join(str(e) for errs in form.errors.values() for e in errs))
            return redirect("compliance:reports")
        report = report_request(actor=request.user, kind=form.cleaned_data["kind"], params=form.params(),
                                language=form.cleaned_data["language"], request=request)
        messages.success(request, gettext("Report %(id)s requested.") % {"id": report.pk})
        return redirect("compliance:reports")


class ReportStatusView(StaffPermissionRequired, View):
    """JSON polled by the reports page for progress."""

    permission_required = "compliance.view_report"

    def get(self, request, pk):
        r = get_object_or_404(Report, pk=pk)
        return JsonResponse({"id": r.pk, "status": r.status, "progress": r.progress, "pages": r.pages,
                             "rows": r.rows, "sha256": r.sha256})


class ReportDownloadView(StaffPermissionRequired, View):
    permission_required = "compliance.view_report"

    def get(self, request, pk, fmt):
        r = get_object_or_404(Report, pk=pk)
        field = {"pdf": r.pdf, "csv": r.csv}.get(fmt)
        if r.status != Report.Status.DONE or not field:
            raise Http404("The report is not ready.")
        name = report_file_name(r, fmt)
        return FileResponse(field.open("rb"), as_attachment=True, filename=name,
                            content_type="application/pdf" if fmt == "pdf" else "text/csv; charset=utf-8")


class ComplianceDashboardView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.view_compliance_dashboard"
    template_name = "compliance/dashboard.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        zone = ZoneInfo(settings.TIME_ZONE)
        start = _dt.datetime.combine(timezone.localdate(), _dt.time(), tzinfo=zone)
        refusals = screening_decisions(since=start, allowed=False)
        ctx.update(
            refusal_count=refusals.count(),
            refusals=refusals[:20],
            # in words, as on the approvals and reports pages: the kind's name, the object's title
            pending=[{"approval": a, "kind": approvals_mod.approval_kind_words(a.kind),
                      "subject": approvals_mod.approval_subject(a)}
                     for a in approvals_mod.pending_approvals().order_by("requested_at")[:20]],
            overview=registry_overview(),
            significant=AuditEvent.objects.filter(significant=True).order_by("-seq")[:10],
            reports=[{"report": r, "title": KINDS[r.kind].title if r.kind in KINDS else words.action_words(r.kind)}
                     for r in Report.objects.all()[:10]],
            registries=ExclusionRegistry.objects.count(),
        )
        return ctx


class JobListView(StaffPermissionRequired, TemplateView):
    """Background jobs (compliance.jobs): state, progress, attempts, last error; a stalled or failed
    job has a button to send it again for the people its kind allows."""

    permission_required = "compliance.view_job"
    template_name = "compliance/jobs.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        state = self.request.GET.get("state", "")
        qs = Job.objects.all()
        if state in Job.State.values:
            qs = qs.filter(state=state)
        now = timezone.now()
        page = Paginator(qs, 50).get_page(self.request.GET.get("page"))
        ctx.update(page=page, state=state, states=Job.State.choices,
                   rows=[(job, job_status(job, self.request.user, now=now)) for job in page.object_list])
        return ctx


class JobRetryView(StaffPermissionRequired, View):
    """Send a stalled, failed or waiting job again; who may is decided per kind by the service."""

    permission_required = "compliance.access_backoffice"
    http_method_names = ["post"]

    def post(self, request, pk: int):
        job = get_object_or_404(Job, pk=pk)
        try:
            job_retry(actor=request.user, job=job, request=request)
        except JobError as exc:
            show_refusal(request, exc)
        else:
            messages.success(request, gettext("The job is sent again; it starts when a worker takes it."))
        return _back(request, "compliance:jobs")


def _back(request, default: str):
    """Back to the page the form came from (`next`, only on this site), else to `default`."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = default
    return redirect(target)
