from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.decorators import method_decorator
from django.views.generic import RedirectView
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from casino.api_urls import api_v1_paths as casino_api_paths
from compliance import api as compliance_api
from compliance import otp, signin
from lottery.api_urls import api_v1_paths as lottery_api_paths
from players.api_urls import api_v1_paths as players_api_paths

from . import views


class SchemaView(SpectacularAPIView):
    permission_required = "compliance.use_api"


# Swagger UI without inline script: the split view serves its start-up script as a file (same URL
# with ?script). Its page keeps one inline <style> of drf-spectacular's template and Swagger UI's
# React code writes style attributes, so this page alone also allows inline styles (styles cannot
# run code; script-src stays 'self').
@method_decorator(csp_update({"style-src": ["'unsafe-inline'"]}), name="dispatch")
class SwaggerView(SpectacularSwaggerSplitView):
    permission_required = "compliance.use_api"


class ApiRootView(APIView):
    """Index of the version 1 API."""

    permission_required = "compliance.use_api"

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        return Response(
            {
                "me": reverse("api:me", request=request),
                "audit_events": reverse("api:audit-events", request=request),
                "players": reverse("api:players", request=request),
                "draws": reverse("api:draws", request=request),
                "schema": reverse("api-schema", request=request),
                "docs": reverse("api-docs", request=request),
            }
        )


api_v1 = (
    [
        path("", ApiRootView.as_view(), name="root"),
        path("me/", compliance_api.MeAPI.as_view(), name="me"),
        path("audit-events/", compliance_api.AuditEventListAPI.as_view(), name="audit-events"),
        path("audit-events/<id:pk>/", compliance_api.AuditEventDetailAPI.as_view(), name="audit-event"),
        *players_api_paths,
        *lottery_api_paths,
        *casino_api_paths,
    ],
    "api",
)

admin.site.site_header = "Valvoja administration"
admin.site.site_title = "Valvoja"

urlpatterns = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", signin.StaffLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", signin.StaffPasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", signin.StaffPasswordChangeDoneView.as_view(), name="password_change_done"),
    path("accounts/second-factor/enrol/", otp.EnrolView.as_view(), name="otp-enrol"),
    path("accounts/second-factor/", otp.VerifyView.as_view(), name="otp-verify"),
    # The admin signs in through the staff sign-in page: one form with the lockout, the refusal of
    # integration accounts and the second factor.
    path("admin/login/", RedirectView.as_view(pattern_name="login", query_string=True), name="admin-login"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("compliance/", include("compliance.urls")),
    path("players/", include("players.urls")),
    path("lottery/", include("lottery.urls")),
    path("casino/", include("casino.urls")),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", SwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
