from django.urls import path

from . import draw_views, views

app_name = "lottery"

urlpatterns = [
    path("rules/", views.RuleSetListView.as_view(), name="rulesets"),
    path("rules/<int:pk>/", views.RuleSetDetailView.as_view(), name="ruleset"),
    path("calculator/", views.PrizeCalculatorView.as_view(), name="calculator"),
    # The draw pipeline (docs/draws.md).
    path("draws/", draw_views.DrawBoardView.as_view(), name="draws"),
    path("draws/new/", draw_views.DrawScheduleView.as_view(), name="draw-new"),
    path("draws/<int:pk>/", draw_views.DrawDetailView.as_view(), name="draw"),
    path("draws/<int:pk>/progress/", draw_views.DrawProgressView.as_view(), name="draw-progress"),
    path("draws/<int:pk>/winners/", draw_views.WinnersView.as_view(), name="draw-winners"),
    path("draws/<int:pk>/correction/", draw_views.CorrectionReportView.as_view(), name="draw-correction"),
    path("draws/<int:pk>/import/", draw_views.RetailImportView.as_view(), name="draw-import"),
    path("draws/<int:pk>/open/", draw_views.OpenSalesView.as_view(), name="draw-open"),
    path("draws/<int:pk>/close/", draw_views.CloseSalesView.as_view(), name="draw-close"),
    path("draws/<int:pk>/jackpot/", draw_views.JackpotView.as_view(), name="draw-jackpot"),
    path("draws/<int:pk>/central/", draw_views.CentralInputsView.as_view(), name="draw-central"),
    path("draws/<int:pk>/result/", draw_views.EnterResultView.as_view(), name="draw-enter"),
    path("draws/<int:pk>/result/confirm/", draw_views.ConfirmResultView.as_view(), name="draw-confirm"),
    path("draws/<int:pk>/result/reject/", draw_views.RejectResultView.as_view(), name="draw-reject"),
    path("draws/<int:pk>/cancel/", draw_views.CancelDrawView.as_view(), name="draw-cancel"),
    path("draws/<int:pk>/correction/request/", draw_views.CorrectionRequestView.as_view(), name="draw-correct"),
    path("draws/<int:pk>/correction/confirm/", draw_views.CorrectionConfirmView.as_view(), name="draw-correction-confirm"),
    path("draws/<int:pk>/correction/reject/", draw_views.CorrectionRejectView.as_view(), name="draw-correction-reject"),
    path("draws/<int:pk>/settlement/retry/", draw_views.RetrySettlementView.as_view(), name="draw-retry"),
    path("draws/<int:pk>/approve/", draw_views.ApproveSettlementView.as_view(), name="draw-approve"),
    path("draws/<int:pk>/payouts/retry/", draw_views.RetryPayoutsView.as_view(), name="draw-payouts-retry"),
    path("draws/<int:pk>/payout-report/", draw_views.PayoutReportView.as_view(), name="draw-payout-report"),
    path("payouts/<int:pk>/approve/", draw_views.ApproveLargeWinView.as_view(), name="payout-approve"),
    path("imports/<int:pk>/", draw_views.RetailImportDetailView.as_view(), name="import"),
]
