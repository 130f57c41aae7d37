"""The casino's paths in /api/v1/ (included by config/urls.py)."""

from django.urls import path

from . import api

api_v1_paths = [
    path("casino/rounds/check/", api.RoundCheckAPI.as_view(), name="casino-round-check"),
]
