"""Paths of the players API, included in the /api/v1/ list of config/urls.py (namespace "api")."""

from django.urls import path

from . import api

api_v1_paths = [
    path("players/", api.PlayerRegisterAPI.as_view(), name="players"),
    path("players/<int:pk>/", api.PlayerStatusAPI.as_view(), name="player"),
    path("players/<int:pk>/verification/", api.PlayerVerificationAPI.as_view(), name="player-verification"),
    path("players/<int:pk>/deposits/", api.DepositAPI.as_view(), name="player-deposits"),
    path("players/<int:pk>/withdrawals/", api.WithdrawalAPI.as_view(), name="player-withdrawals"),
    path("players/<int:pk>/stakes/", api.StakeAPI.as_view(), name="player-stakes"),
    path("players/<int:pk>/prizes/", api.PrizeAPI.as_view(), name="player-prizes"),
    path("players/<int:pk>/ledger/", api.LedgerAPI.as_view(), name="player-ledger"),
    path("players/<int:pk>/limits/", api.LimitAPI.as_view(), name="player-limits"),
    path("players/<int:pk>/self-exclusion/", api.SelfExclusionAPI.as_view(), name="player-self-exclusion"),
    path("players/<int:pk>/sessions/", api.SessionStartAPI.as_view(), name="player-sessions"),
    path("play-sessions/<int:pk>/", api.SessionAPI.as_view(), name="play-session"),
    path("play-sessions/<int:pk>/reminder/", api.ReminderAnswerAPI.as_view(), name="play-session-reminder"),
    path("play-sessions/<int:pk>/interval/", api.SessionIntervalAPI.as_view(), name="play-session-interval"),
    path("play-sessions/<int:pk>/end/", api.SessionEndAPI.as_view(), name="play-session-end"),
]
