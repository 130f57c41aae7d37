from django.urls import path

from . import views

app_name = "compliance"

urlpatterns = [
    path("audit/", views.AuditListView.as_view(), name="audit-list"),
    path("audit/<int:pk>/", views.AuditDetailView.as_view(), name="audit-detail"),
]
