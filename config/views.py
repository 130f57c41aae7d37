"""Project-wide pages: the dashboard, the health probe and the error pages."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import connection
from django.http import HttpResponseForbidden, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

from compliance.access import StaffPermissionRequired, required_permissions
from compliance.jobs import live_processes
from compliance.models import AuditEvent
from compliance.queues import request_work
from compliance.roles import role_label

from .navigation import SECTIONS, entries_for


class DashboardView(StaffPermissionRequired, TemplateView):
    permission_required = "compliance.access_backoffice"
    template_name = "dashboard.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        user = self.request.user
        work = request_work(self.request, SECTIONS)
        # The work queue first (what waits for this user now), then the pages the role may open.
        ctx["work"] = work.queues
        ctx["work_total"] = work.total
        ctx["tiles"] = [e for e in entries_for(user, work.counts) if e["url_name"] != "dashboard"]
        if user.has_perm("compliance.view_auditevent"):
            ctx["recent_significant"] = AuditEvent.objects.filter(significant=True).order_by("-seq")[:10]
            ctx["recent_events"] = AuditEvent.objects.order_by("-seq")[:10]
        return ctx


def _database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception as exc:  # noqa: BLE001  (report any failure as down)
        return f"error: {type(exc).__name__}"


def _broker_status() -> str:
    if not settings.CELERY_BROKER_URL:
        return "eager"  # no broker configured: tasks run in-process
    from kombu import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2,
                        transport_options=getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {})) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return "ok"
    except Exception as exc:  # noqa: BLE001
        return f"error: {type(exc).__name__}"


def _job_processes() -> dict[str, dict]:
    """Live workers, beat and dispatcher, from their heartbeat rows (compliance.jobs): counts only."""
    try:
        live = live_processes()
    except Exception as exc:  # noqa: BLE001  (the database is down: reported by its own entry)
        return {name: {"status": f"error: {type(exc).__name__}", "live": 0}
                for name in ("workers", "beat", "dispatcher")}
    return {name: {"status": "ok" if live[role] else "missing", "live": live[role]}
            for name, role in (("workers", "worker"), ("beat", "beat"), ("dispatcher", "dispatcher"))}


@never_cache
@require_GET
def healthz(request):
    """Load-balancer probe: open to anyone, reveals only up/down of the database and the broker and
    how many job processes are alive. HTTP 503 when a component HEALTHZ_REQUIRE names is not ok;
    `missing` names each."""
    status: dict = {"database": _database_status(), "broker": _broker_status(), **_job_processes()}
    required = list(settings.HEALTHZ_REQUIRE)

    def ok(name: str) -> bool:
        value = status.get(name)
        value = value["status"] if isinstance(value, dict) else value
        return value == "ok" or (name == "broker" and value == "eager")

    missing = [name for name in required if not ok(name)]
    return JsonResponse({"status": "error" if missing else "ok", "missing": missing, "required": required, **status},
                        status=503 if missing else 200)


def page_not_found(request, exception):
    """404: a JSON error body under /api/ (the API's error shape, compliance/api_errors.py), for a path
    that matches no route (e.g. /api/v1/draws/abc/), and Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)


def _roles_holding(perms: tuple[str, ...]) -> list[str]:
    """The roles (in the reader's language) whose group holds every one of `perms`."""
    groups = Group.objects.all()
    for perm in perms:
        if "." not in perm:
            return []
        app_label, codename = perm.split(".", 1)
        groups = groups.filter(permissions__content_type__app_label=app_label, permissions__codename=codename)
    return sorted(str(role_label(name)) for name in groups.distinct().values_list("name", flat=True))


def permission_denied(request, exception):
    """403 in the staff layout: what the page needs (the roles that hold its permission), what the user
    holds, and the way back; the API's error shape under /api/."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "permission_denied",
                             "detail": _("You do not have permission to perform this action.")}, status=403)
    match = request.resolver_match
    view = match and (getattr(match.func, "view_class", None) or getattr(match.func, "cls", None))
    needed = _roles_holding(required_permissions(view)) if view else []
    template = loader.get_template("403.html")
    return HttpResponseForbidden(template.render({"needed_roles": needed}, request))
