from django.urls import path

from . import views

app_name = "lottery"

urlpatterns = [
    path("rules/", views.RuleSetListView.as_view(), name="rulesets"),
    path("rules/<int:pk>/", views.RuleSetDetailView.as_view(), name="ruleset"),
    path("calculator/", views.PrizeCalculatorView.as_view(), name="calculator"),
]
