"""The draw pipeline's paths in /api/v1/ (included by config/urls.py)."""

from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import api

api_v1_paths = [
    path("draws/", api.DrawListAPI.as_view(), name="draws"),
    path("draws/<id:pk>/", api.DrawDetailAPI.as_view(), name="draw"),
    path("draws/<id:pk>/open/", api.DrawOpenAPI.as_view(), name="draw-open"),
    path("draws/<id:pk>/close/", api.DrawCloseAPI.as_view(), name="draw-close"),
    path("draws/<id:pk>/jackpot/", api.DrawJackpotAPI.as_view(), name="draw-jackpot"),
    path("draws/<id:pk>/result/", api.ResultEnterAPI.as_view(), name="draw-result"),
    path("draws/<id:pk>/result/confirm/", api.ResultConfirmAPI.as_view(), name="draw-result-confirm"),
    path("draws/<id:pk>/result/reject/", api.ResultRejectAPI.as_view(), name="draw-result-reject"),
    path("draws/<id:pk>/cancel/", api.DrawCancelAPI.as_view(), name="draw-cancel"),
    path("draws/<id:pk>/correction/", api.CorrectionRequestAPI.as_view(), name="draw-correction"),
    path("draws/<id:pk>/correction/confirm/", api.CorrectionConfirmAPI.as_view(), name="draw-correction-confirm"),
    path("draws/<id:pk>/retail-imports/", api.RetailImportUploadAPI.as_view(), name="draw-retail-imports"),
    path("draws/<id:pk>/winners/", api.WinnersAPI.as_view(), name="draw-winners"),
    path("draws/<id:pk>/approve/", api.SettlementApproveAPI.as_view(), name="draw-approve"),
    path("draws/<id:pk>/payouts/", api.DrawPayoutsAPI.as_view(), name="draw-payouts"),
    path("payouts/<id:pk>/approve/", api.PayoutApproveAPI.as_view(), name="payout-approve"),
    path("retail-imports/<id:pk>/", api.RetailImportDetailAPI.as_view(), name="retail-import"),
    path("wagers/", api.WagerPlaceAPI.as_view(), name="wagers"),
    path("wagers/<id:pk>/", api.WagerDetailAPI.as_view(), name="wager"),
]
