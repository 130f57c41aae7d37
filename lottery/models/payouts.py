"""Prize payouts of approved settlements (DESIGN §3 step 5; digest §27 for corrections)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from compliance.money import format_cents

from .draws import Draw
from .sales import Wager
from .settlement import SettlementRun


class Payout(models.Model):
    """What one settlement version pays for one winning line, on top of what earlier versions paid.

    Version 1 pays the prize; a corrected version pays the difference between its prize and what was
    paid before for that line (negative when the correction lowered or removed the prize). A player's
    payout is one ledger entry on their game account (its reference is unique, so paying twice is
    impossible); a retail payout is claimed at the point of sale.
    """

    class State(models.TextChoices):
        HELD = "held", _("held: large win awaiting its own approval")
        DUE = "due", _("due")
        PAID = "paid", _("paid to the game account")
        RETAIL = "retail", _("to be claimed at retail")
        FAILED = "failed", _("failed: needs staff")
        SUPERSEDED = "superseded", _("superseded by a correction before it was paid")

    # Written set-based, one per winning line: no database foreign keys to run and draw (never deleted,
    # PROTECT) and only the indexes below.
    run = models.ForeignKey(SettlementRun, on_delete=models.PROTECT, db_constraint=False, db_index=False,
                            related_name="payouts")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, db_constraint=False, db_index=False,
                             related_name="payouts")
    line_id = models.BigIntegerField()
    wager = models.ForeignKey(Wager, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+")
    player_id = models.BigIntegerField(null=True, blank=True)
    class_no = models.SmallIntegerField(null=True, blank=True)
    prize_cents = models.BigIntegerField(help_text=_("The line's prize in this version (0 if it no longer wins)."))
    amount_cents = models.BigIntegerField(help_text=_("Paid by this version: prize minus what was paid before."))
    state = models.CharField(max_length=12, choices=State.choices)
    credited_cents = models.BigIntegerField(default=0)
    diverted_cents = models.BigIntegerField(default=0, help_text=_("Above the balance cap: a pending bank payout."))
    ledger_reference = models.CharField(max_length=100, blank=True)
    ledger_entry_id = models.BigIntegerField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["run", "line_id"]
        verbose_name = _("prize payout")
        verbose_name_plural = _("prize payouts")
        permissions = [
            ("approve_settlement", "Can approve a settlement for payout"),
            ("approve_large_win", "Can approve the payout of a large win"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["run", "line_id"], name="payout_once_per_line_and_version"),
            models.CheckConstraint(condition=~Q(amount_cents=0), name="payout_not_zero"),
        ]
        indexes = [
            models.Index(fields=["run", "state", "line_id"], name="payout_run_state_idx"),
            models.Index(fields=["draw", "line_id"], name="payout_draw_line_idx"),
        ]

    def __str__(self) -> str:
        return f"payout {format_cents(self.amount_cents, language='en')} for line {self.line_id} ({self.get_state_display()})"
