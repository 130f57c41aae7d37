"""Paths of the players API, included in the /api/v1/ list of config/urls.py (namespace "api")."""

from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import api

api_v1_paths = [
    path("players/", api.PlayerRegisterAPI.as_view(), name="players"),
    path("players/<id:pk>/", api.PlayerStatusAPI.as_view(), name="player"),
    path("players/<id:pk>/verification/", api.PlayerVerificationAPI.as_view(), name="player-verification"),
    path("players/<id:pk>/deposits/", api.DepositAPI.as_view(), name="player-deposits"),
    path("players/<id:pk>/withdrawals/", api.WithdrawalAPI.as_view(), name="player-withdrawals"),
    path("players/<id:pk>/stakes/", api.StakeAPI.as_view(), name="player-stakes"),
    path("players/<id:pk>/prizes/", api.PrizeAPI.as_view(), name="player-prizes"),
    path("players/<id:pk>/ledger/", api.LedgerAPI.as_view(), name="player-ledger"),
    path("players/<id:pk>/limits/", api.LimitAPI.as_view(), name="player-limits"),
    path("players/<id:pk>/self-exclusion/", api.SelfExclusionAPI.as_view(), name="player-self-exclusion"),
    path("players/<id:pk>/sessions/", api.SessionStartAPI.as_view(), name="player-sessions"),
    path("play-sessions/<id:pk>/", api.SessionAPI.as_view(), name="play-session"),
    path("play-sessions/<id:pk>/reminder/", api.ReminderAnswerAPI.as_view(), name="play-session-reminder"),
    path("play-sessions/<id:pk>/interval/", api.SessionIntervalAPI.as_view(), name="play-session-interval"),
    path("play-sessions/<id:pk>/end/", api.SessionEndAPI.as_view(), name="play-session-end"),
]
