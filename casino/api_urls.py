"""The casino's paths in /api/v1/ (included by config/urls.py)."""

from django.urls import path

from . import api, jackpot_api

api_v1_paths = [
    path("casino/rounds/check/", api.RoundCheckAPI.as_view(), name="casino-round-check"),
    path("casino/venues/", api.VenueListAPI.as_view(), name="casino-venues"),
    path("casino/tables/", api.TableListAPI.as_view(), name="casino-tables"),
    path("casino/rounds/", api.RoundsAPI.as_view(), name="casino-rounds"),
    path("casino/jackpots/", jackpot_api.JackpotListAPI.as_view(), name="casino-jackpots"),
]
