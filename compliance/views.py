"""Staff pages of the compliance app (thin: forms validate, selectors read)."""

from django.conf import settings
from django.core.paginator import Paginator
from django.views.generic import DetailView, TemplateView

from .access import StaffPermissionRequired
from .forms import AuditFilterForm
from .models import AuditEvent
from .selectors import AuditFilter, audit_actions, audit_events, audit_object_types


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
            actions=audit_actions(),
            object_types=audit_object_types(),
            operator_zone=settings.TIME_ZONE,
        )
        return ctx


class AuditDetailView(StaffPermissionRequired, DetailView):
    permission_required = "compliance.view_auditevent"
    template_name = "compliance/audit_detail.html"
    model = AuditEvent
    context_object_name = "event"
