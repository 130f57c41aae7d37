"""Staff pages of the casino (included under /casino/ by config/urls.py)."""

from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import views

app_name = "casino"

urlpatterns = [
    path("rounds/check/", views.RoundCheckView.as_view(), name="round-check"),
    path("rules/", views.RulesView.as_view(), name="rules"),
    path("rules/<id:pk>/", views.RuleVersionView.as_view(), name="rule-version"),
]
