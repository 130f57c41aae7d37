from django.urls import path

from . import views

app_name = "players"

urlpatterns = [
    path("", views.PlayerSearchView.as_view(), name="search"),
    path("<int:pk>/", views.PlayerDetailView.as_view(), name="detail"),
    path("<int:pk>/identifier/", views.RevealIdentifierView.as_view(), name="reveal-identifier"),
    path("<int:pk>/verify/", views.VerifyPersonView.as_view(), name="verify"),
    path("payouts/<int:pk>/paid/", views.PayoutPaidView.as_view(), name="payout-paid"),
]
