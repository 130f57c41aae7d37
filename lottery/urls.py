from django.urls import path

from compliance import converters  # noqa: F401  (registers <id:...>)

from . import draw_views, views

app_name = "lottery"

urlpatterns = [
    path("rules/", views.RuleSetListView.as_view(), name="rulesets"),
    path("rules/<id:pk>/", views.RuleSetDetailView.as_view(), name="ruleset"),
    path("calculator/", views.PrizeCalculatorView.as_view(), name="calculator"),
    # The draw pipeline (docs/draws.md).
    path("draws/", draw_views.DrawBoardView.as_view(), name="draws"),
    path("draws/new/", draw_views.DrawScheduleView.as_view(), name="draw-new"),
    path("draws/<id:pk>/", draw_views.DrawDetailView.as_view(), name="draw"),
    path("draws/<id:pk>/progress/", draw_views.DrawProgressView.as_view(), name="draw-progress"),
    path("draws/<id:pk>/winners/", draw_views.WinnersView.as_view(), name="draw-winners"),
    path("draws/<id:pk>/correction/", draw_views.CorrectionReportView.as_view(), name="draw-correction"),
    path("draws/<id:pk>/import/", draw_views.RetailImportView.as_view(), name="draw-import"),
    path("draws/<id:pk>/open/", draw_views.OpenSalesView.as_view(), name="draw-open"),
    path("draws/<id:pk>/close/", draw_views.CloseSalesView.as_view(), name="draw-close"),
    path("draws/<id:pk>/jackpot/", draw_views.JackpotView.as_view(), name="draw-jackpot"),
    path("draws/<id:pk>/central/", draw_views.CentralInputsView.as_view(), name="draw-central"),
    path("draws/<id:pk>/result/", draw_views.EnterResultView.as_view(), name="draw-enter"),
    path("draws/<id:pk>/result/confirm/", draw_views.ConfirmResultView.as_view(), name="draw-confirm"),
    path("draws/<id:pk>/result/reject/", draw_views.RejectResultView.as_view(), name="draw-reject"),
    path("draws/<id:pk>/result/withdraw/", draw_views.WithdrawResultView.as_view(), name="draw-withdraw"),
    path("draws/<id:pk>/cancel/", draw_views.CancelDrawView.as_view(), name="draw-cancel"),
    path("draws/<id:pk>/correction/request/", draw_views.CorrectionRequestView.as_view(), name="draw-correct"),
    path("draws/<id:pk>/correction/confirm/", draw_views.CorrectionConfirmView.as_view(), name="draw-correction-confirm"),
    path("draws/<id:pk>/correction/reject/", draw_views.CorrectionRejectView.as_view(), name="draw-correction-reject"),
    path("draws/<id:pk>/settlement/retry/", draw_views.RetrySettlementView.as_view(), name="draw-retry"),
    path("draws/<id:pk>/approve/", draw_views.ApproveSettlementView.as_view(), name="draw-approve"),
    path("draws/<id:pk>/payouts/retry/", draw_views.RetryPayoutsView.as_view(), name="draw-payouts-retry"),
    path("draws/<id:pk>/payout-report/", draw_views.PayoutReportView.as_view(), name="draw-payout-report"),
    path("payouts/<id:pk>/approve/", draw_views.ApproveLargeWinView.as_view(), name="payout-approve"),
    path("imports/<id:pk>/", draw_views.RetailImportDetailView.as_view(), name="import"),
    path("imports/<id:pk>/status/", draw_views.RetailImportStatusView.as_view(), name="import-status"),
]
