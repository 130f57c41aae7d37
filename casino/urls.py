"""Staff pages of the casino (included under /casino/ by config/urls.py)."""

from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import dispute_views, jackpot_views, views

app_name = "casino"

urlpatterns = [
    path("rounds/check/", views.RoundCheckView.as_view(), name="round-check"),
    path("rules/", views.RulesView.as_view(), name="rules"),
    path("rules/<id:pk>/", views.RuleVersionView.as_view(), name="rule-version"),
    path("venues/", views.VenuesView.as_view(), name="venues"),
    path("venues/<id:pk>/", views.VenueView.as_view(), name="venue"),
    path("tables/<id:pk>/", views.TableView.as_view(), name="table"),
    path("rounds/", views.RoundsView.as_view(), name="rounds"),
    path("rounds/new/", views.RoundEntryView.as_view(), name="round-new"),
    path("rounds/<id:pk>/", views.RoundView.as_view(), name="round"),
    path("discrepancies/", views.DiscrepanciesView.as_view(), name="discrepancies"),
    path("discrepancies/<id:pk>/resolve/", views.ResolveView.as_view(), name="discrepancy-resolve"),
    # Disputes and complaints (issue 19 items 4 and 5: casino/dispute_views.py).
    path("disputes/", dispute_views.DisputesView.as_view(), name="disputes"),
    path("disputes/new/", dispute_views.DisputeNewView.as_view(), name="dispute-new"),
    path("disputes/<id:pk>/", dispute_views.DisputeView.as_view(), name="dispute"),
    path("disputes/<id:pk>/amend/", dispute_views.DisputeAmendView.as_view(), name="dispute-amend"),
    path("complaints/", dispute_views.ComplaintsView.as_view(), name="complaints"),
    path("complaints/new/", dispute_views.ComplaintNewView.as_view(), name="complaint-new"),
    path("complaints/<id:pk>/", dispute_views.ComplaintView.as_view(), name="complaint"),
    path("complaints/<id:pk>/extend/", dispute_views.ComplaintExtendView.as_view(), name="complaint-extend"),
    path("complaints/<id:pk>/answer/", dispute_views.ComplaintAnswerView.as_view(), name="complaint-answer"),
    path("complaints/<id:pk>/paid/", dispute_views.ComplaintPaidView.as_view(), name="complaint-paid"),
    # Jackpots (issue 19 item 3)
    path("jackpots/", jackpot_views.JackpotsView.as_view(), name="jackpots"),
    path("jackpots/<id:pk>/", jackpot_views.JackpotView.as_view(), name="jackpot"),
    path("jackpots/<id:pk>/remove/", jackpot_views.JackpotRemoveView.as_view(), name="jackpot-remove"),
]
