from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import views

app_name = "compliance"

urlpatterns = [
    path("", views.ComplianceDashboardView.as_view(), name="dashboard"),
    path("audit/", views.AuditListView.as_view(), name="audit-list"),
    path("audit/<id:pk>/", views.AuditDetailView.as_view(), name="audit-detail"),
    path("approvals/", views.ApprovalListView.as_view(), name="approvals"),
    path("approvals/<id:pk>/decide/", views.ApprovalDecideView.as_view(), name="approval-decide"),
    path("approvals/<id:pk>/withdraw/", views.ApprovalWithdrawView.as_view(), name="approval-withdraw"),
    path("registries/", views.RegistryListView.as_view(), name="registries"),
    path("registries/import/", views.RegistryImportView.as_view(), name="registry-upload"),
    path("registries/import/<id:pk>/", views.RegistryImportDetailView.as_view(), name="registry-import"),
    path("registries/import/<id:pk>/status/", views.RegistryImportStatusView.as_view(), name="registry-import-status"),
    path("registries/bans/", views.BanAddView.as_view(), name="ban-add"),
    path("registries/entries/<id:pk>/lift/", views.BanLiftView.as_view(), name="ban-lift"),
    path("screening/", views.ScreeningLogView.as_view(), name="screening"),
    path("jobs/", views.JobListView.as_view(), name="jobs"),
    path("jobs/<id:pk>/retry/", views.JobRetryView.as_view(), name="job-retry"),
    path("reports/", views.ReportListView.as_view(), name="reports"),
    path("reports/new/", views.ReportCreateView.as_view(), name="report-create"),
    path("reports/<id:pk>/status/", views.ReportStatusView.as_view(), name="report-status"),
    path("reports/<id:pk>/<str:fmt>/", views.ReportDownloadView.as_view(), name="report-download"),
]
