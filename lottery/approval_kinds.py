"""The four-eyes kinds of the draw pipeline (compliance.approvals), named once: the services register
their handlers under them, the selectors and pages look their pending requests up by them."""

RESULT_KIND = "lottery.result"  # a draw's result, confirmed by a second person
CORRECTION_KIND = "lottery.correction"  # a corrected result (§27)
PAYOUT_KIND = "lottery.payout"  # a settled run approved for payout
LARGE_WIN_KIND = "lottery.large_win"  # one large win's own approval
