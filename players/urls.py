from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import views

app_name = "players"

urlpatterns = [
    path("", views.PlayerSearchView.as_view(), name="search"),
    path("<id:pk>/", views.PlayerDetailView.as_view(), name="detail"),
    path("<id:pk>/identifier/", views.RevealIdentifierView.as_view(), name="reveal-identifier"),
    path("<id:pk>/verify/", views.VerifyPersonView.as_view(), name="verify"),
    path("payouts/<id:pk>/paid/", views.PayoutPaidView.as_view(), name="payout-paid"),
]
