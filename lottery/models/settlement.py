"""Settlement runs, their chunks, tier results and winnings (DESIGN §3 steps 1-4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .draws import Draw, DrawResult
from .rulesets import RuleSet
from .sales import Line, Wager


class RunState(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    SETTLED = "settled", _("settled")
    FAILED = "failed", _("failed")
    HALTED = "halted", _("halted: checks disagree")
    SUPERSEDED = "superseded", _("superseded")


class RunPhase(models.TextChoices):
    NONE = "", _("not started")
    COUNTING = "counting", _("counting tiers")
    WRITING = "writing", _("writing winners")
    CHECKING = "checking", _("checking")
    DONE = "done", _("done")


class SettlementRun(models.Model):
    """One settlement of a draw with one result version: the source of truth of the job.

    A worker claims it with a compare-and-set update; what is done is recorded as it is done (counts
    and engine result, then each chunk of winners), so a rerun continues where a crash left off.
    """

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="settlement_runs")
    version = models.PositiveSmallIntegerField()
    result = models.ForeignKey(DrawResult, on_delete=models.PROTECT, related_name="settlement_runs")
    ruleset = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="+")
    previous = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=12, choices=RunState.choices, default=RunState.PENDING)
    phase = models.CharField(max_length=12, choices=RunPhase.choices, default=RunPhase.NONE, blank=True)
    claimed_by = models.CharField(max_length=200, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    chunk_size = models.PositiveIntegerField(default=0)
    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    lines_count = models.BigIntegerField(default=0)
    turnover_cents = models.BigIntegerField(default=0)
    addon_turnover_cents = models.BigIntegerField(default=0)
    winners_count = models.BigIntegerField(default=0)
    paid_cents = models.BigIntegerField(default=0)
    breakage_cents = models.BigIntegerField(default=0)
    # {"7": {"winners": n, "boosted": n}} from the counting query, and the same from the check.
    tier_counts = models.JSONField(null=True, blank=True)
    check_counts = models.JSONField(null=True, blank=True)
    engine_input = models.JSONField(null=True, blank=True)
    engine_result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    # The same in the reader's language: stored messages (compliance.errors.stored_message, each
    # {"message", "msgid", "params"}); empty for an error that has none (a crash), shown as `error`.
    error_messages = models.JSONField(default=list, blank=True)
    # Approval for payout by a second user (neither of the two who entered and confirmed the result).
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["draw", "-version"]
        verbose_name = _("settlement run")
        verbose_name_plural = _("settlement runs")
        permissions = [("manage_settlement", "Can retry or restart a settlement run")]
        constraints = [
            models.UniqueConstraint(fields=["draw", "version"], name="settlementrun_version_unique"),
            models.UniqueConstraint(
                fields=["draw"],
                condition=Q(state__in=["pending", "running", "failed", "halted"]),
                name="settlementrun_one_open",
            ),
        ]
        indexes = [models.Index(fields=["state", "heartbeat_at"], name="run_state_heartbeat_idx")]

    def __str__(self) -> str:
        return f"{self.draw} settlement v{self.version}"

    @property
    def percent(self) -> int:
        if self.state == RunState.SETTLED:
            return 100
        steps = {RunPhase.NONE: 0, RunPhase.COUNTING: 5, RunPhase.WRITING: 30, RunPhase.CHECKING: 95, RunPhase.DONE: 100}
        base = steps.get(self.phase, 0)
        if self.phase == RunPhase.WRITING and self.chunks_total:
            base += int(65 * self.chunks_done / self.chunks_total)
        return min(base, 100)


class SettlementChunk(models.Model):
    """A range of line ids [lo, hi) of the draw whose winners were written, in one transaction."""

    run = models.ForeignKey(SettlementRun, on_delete=models.CASCADE, related_name="chunks")
    lo = models.BigIntegerField()
    hi = models.BigIntegerField()
    winners = models.IntegerField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "lo"]
        constraints = [models.UniqueConstraint(fields=["run", "lo"], name="settlementchunk_once")]


class TierResult(models.Model):
    """The prize engine's result for one class of one run, in cents."""

    run = models.ForeignKey(SettlementRun, on_delete=models.CASCADE, related_name="tiers")
    # A class ("3") or, for the multiplier games, a table cell ("10-7-kunkku", "8-8+bonus").
    class_key = models.CharField(max_length=24)
    position = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=80)
    kind = models.CharField(max_length=16)
    winners = models.BigIntegerField()
    boosted_winners = models.BigIntegerField(default=0)
    rollover_in_cents = models.BigIntegerField(default=0)
    pool_cents = models.BigIntegerField(default=0)
    allocated_cents = models.BigIntegerField(default=0)
    topup_cents = models.BigIntegerField(default=0)
    extra_cents = models.BigIntegerField(default=0)
    prize_cents = models.BigIntegerField(null=True, blank=True)
    boosted_prize_cents = models.BigIntegerField(null=True, blank=True)
    paid_cents = models.BigIntegerField(default=0)
    breakage_cents = models.BigIntegerField(default=0)
    rollover_out_cents = models.BigIntegerField(default=0)
    capped = models.BooleanField(default=False)
    merged_with = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["run", "position"]
        verbose_name = _("tier result")
        verbose_name_plural = _("tier results")
        constraints = [models.UniqueConstraint(fields=["run", "class_key"], name="tierresult_once")]

    def __str__(self) -> str:
        return f"{self.run} class {self.class_key}"


class Winning(models.Model):
    """A winning line of a run (only winners have rows) with the prize it is paid, in cents."""

    # Written by the ten thousand per chunk: no database foreign keys (a trigger per row) and only the
    # indexes the winners list and the checks read; runs are never deleted (PROTECT). On PostgreSQL
    # the table is partitioned by run (migration 0006): a run's partition has the unique (run, line)
    # index while it is written and gets the two Meta indexes below (as its own) once every winner is
    # written (services.settlement); no index on id there (nothing reads winners by id).
    run = models.ForeignKey(SettlementRun, on_delete=models.PROTECT, db_constraint=False, db_index=False,
                            related_name="winnings")
    line = models.ForeignKey(Line, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+")
    wager = models.ForeignKey(Wager, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+")
    class_no = models.SmallIntegerField()
    boosted = models.BooleanField(default=False)
    prize_cents = models.BigIntegerField()

    class Meta:
        ordering = ["run", "line"]
        verbose_name = _("winning")
        verbose_name_plural = _("winnings")
        constraints = [models.UniqueConstraint(fields=["run", "line"], name="winning_once_per_line")]
        indexes = [
            models.Index(fields=["run", "class_no", "line"], name="winning_run_class_idx"),
            models.Index(fields=["run", "prize_cents", "line"], name="winning_run_prize_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.run}: line {self.line_id} class {self.class_no}"
