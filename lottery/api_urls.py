"""The draw pipeline's paths in /api/v1/ (included by config/urls.py)."""

from django.urls import path

from . import api

api_v1_paths = [
    path("draws/", api.DrawListAPI.as_view(), name="draws"),
    path("draws/<int:pk>/", api.DrawDetailAPI.as_view(), name="draw"),
    path("draws/<int:pk>/open/", api.DrawOpenAPI.as_view(), name="draw-open"),
    path("draws/<int:pk>/close/", api.DrawCloseAPI.as_view(), name="draw-close"),
    path("draws/<int:pk>/jackpot/", api.DrawJackpotAPI.as_view(), name="draw-jackpot"),
    path("draws/<int:pk>/result/", api.ResultEnterAPI.as_view(), name="draw-result"),
    path("draws/<int:pk>/result/confirm/", api.ResultConfirmAPI.as_view(), name="draw-result-confirm"),
    path("draws/<int:pk>/result/reject/", api.ResultRejectAPI.as_view(), name="draw-result-reject"),
    path("draws/<int:pk>/cancel/", api.DrawCancelAPI.as_view(), name="draw-cancel"),
    path("draws/<int:pk>/correction/", api.CorrectionRequestAPI.as_view(), name="draw-correction"),
    path("draws/<int:pk>/correction/confirm/", api.CorrectionConfirmAPI.as_view(), name="draw-correction-confirm"),
    path("draws/<int:pk>/retail-imports/", api.RetailImportUploadAPI.as_view(), name="draw-retail-imports"),
    path("draws/<int:pk>/winners/", api.WinnersAPI.as_view(), name="draw-winners"),
    path("draws/<int:pk>/approve/", api.SettlementApproveAPI.as_view(), name="draw-approve"),
    path("draws/<int:pk>/payouts/", api.DrawPayoutsAPI.as_view(), name="draw-payouts"),
    path("payouts/<int:pk>/approve/", api.PayoutApproveAPI.as_view(), name="payout-approve"),
    path("retail-imports/<int:pk>/", api.RetailImportDetailAPI.as_view(), name="retail-import"),
    path("wagers/", api.WagerPlaceAPI.as_view(), name="wagers"),
    path("wagers/<int:pk>/", api.WagerDetailAPI.as_view(), name="wager"),
]
