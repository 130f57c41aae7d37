"""Games, draws and draw results (DESIGN §3; digest §2, §3, §10)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .rulesets import GAME_CHOICES, RuleSet


class Game(models.Model):
    """A Veikkaus game (§1). Rows are kept in step with `lottery.rules.GAMES` after every migrate.

    The format columns describe the game's current draw format for display and the sales file; the
    format a draw is validated and settled with always comes from that draw's rule version.
    """

    code = models.CharField(max_length=40, choices=GAME_CHOICES, unique=True)
    name = models.CharField(max_length=80)
    main_count = models.PositiveSmallIntegerField(default=0, help_text=_("Main numbers on a line and drawn."))
    main_max = models.PositiveSmallIntegerField(default=0)
    secondary_count = models.PositiveSmallIntegerField(default=0, help_text=_("Star or Viking numbers."))
    secondary_max = models.PositiveSmallIntegerField(default=0)
    has_additional = models.BooleanField(default=False, help_text=_("An additional number is drawn."))
    plus_max = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Plussa plus number range."))
    # §2: Jokeri and Lomatonni may be played as add-on games with Lotto, Vikinglotto or Eurojackpot.
    addons = models.ManyToManyField("self", symmetrical=False, related_name="addon_to", blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name


class DrawState(models.TextChoices):
    PLANNED = "planned", _("planned")
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")
    RESULT_ENTERED = "result_entered", _("result entered")
    RESULT_CONFIRMED = "result_confirmed", _("result confirmed")
    SETTLED = "settled", _("settled")
    APPROVED = "approved", _("approved")
    PAID = "paid", _("paid")
    CANCELLED = "cancelled", _("cancelled")
    CORRECTED = "corrected", _("corrected")


class DrawMethod(models.TextChoices):
    """§10: a draw device or draw system; by hand as a lifting draw when the device fails."""

    DEVICE = "device", _("draw device")
    SYSTEM = "system", _("draw system")
    MANUAL = "manual", _("by hand (lifting draw)")


class Draw(models.Model):
    """One round of a game. Times are stored in UTC and shown and scheduled in the operator's zone."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="draws")
    number = models.PositiveIntegerField()
    sales_open_at = models.DateTimeField()
    sales_close_at = models.DateTimeField()
    draw_at = models.DateTimeField()
    state = models.CharField(max_length=20, choices=DrawState.choices, default=DrawState.PLANNED)
    ruleset = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="draws")
    # The round's confirmed jackpot (Lotto §28, Milli §31, Jokeri §35) and the operator's per-round
    # decision to pay an unwon jackpot in the highest winning class.
    jackpot_cents = models.BigIntegerField(null=True, blank=True)
    jackpot_to_highest_class = models.BooleanField(default=False)
    # Rollovers inherited from the previous draw of the game, by class, in cents.
    rollover_in = models.JSONField(default=dict, blank=True)
    rollover_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="rollover_to"
    )
    # Figures of the multinational central system (§26): Vikinglotto common pools, imported prizes,
    # the Eurojackpot prize pool. Engine input keys (common_pools, central, prize_pool), euro strings.
    central_inputs = models.JSONField(default=dict, blank=True)
    # §2: an add-on draw (Jokeri, Lomatonni) belongs to the main draw whose sales close at the same time.
    main_draw = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="addon_draws"
    )
    # §10: how the draw was made and who witnessed it.
    draw_method = models.CharField(max_length=10, choices=DrawMethod.choices, blank=True)
    witnesses = models.TextField(blank=True)
    cancel_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-draw_at", "-id"]
        verbose_name = _("draw")
        verbose_name_plural = _("draws")
        permissions = [
            ("manage_draw", "Can schedule draws and open and close their sales"),
            ("cancel_draw", "Can cancel a draw and refund its stakes"),
            ("enter_result", "Can enter a draw result"),
            ("confirm_result", "Can confirm a draw result entered by another user"),
            ("correct_result", "Can request or confirm the correction of a confirmed result"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="draw_game_number_unique"),
            models.CheckConstraint(
                condition=Q(sales_open_at__lt=F("sales_close_at")) & Q(sales_close_at__lte=F("draw_at")),
                name="draw_times_in_order",
            ),
            models.CheckConstraint(
                condition=Q(jackpot_cents__isnull=True) | Q(jackpot_cents__gte=0), name="draw_jackpot_not_negative"
            ),
        ]
        indexes = [
            models.Index(fields=["state", "sales_close_at"], name="draw_state_close_idx"),
            models.Index(fields=["game", "draw_at"], name="draw_game_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game.name} #{self.number}"

    @property
    def code(self) -> str:
        return self.game.code

    @property
    def has_jackpot(self) -> bool:
        """Whether the draw's rule version has a jackpot class (Lotto, Eurojackpot, Vikinglotto, Milli,
        Jokeri); the multiplier games and Lomatonni pay fixed prizes only."""
        return any(c.get("kind") == "jackpot" for c in self.ruleset.params.get("classes", []))


class ResultStatus(models.TextChoices):
    ENTERED = "entered", _("entered, awaiting confirmation")
    PROPOSED = "proposed", _("correction awaiting confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected")
    SUPERSEDED = "superseded", _("superseded by a correction")


class DrawResult(models.Model):
    """A draw's result, versioned: every entry and every correction is a new version, never edited.

    `numbers` is the canonical result (e.g. {"numbers": [...], "additional": 8, "plus": 3}); the
    masks are what settlement matches lines against (number n is bit n-1).
    """

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="results")
    version = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=ResultStatus.choices)
    numbers = models.JSONField()
    main_mask = models.BigIntegerField()
    additional_mask = models.BigIntegerField(default=0)
    secondary_mask = models.IntegerField(default=0)
    plus = models.SmallIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True, help_text=_("Why a confirmed result is corrected (§27)."))
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    rejected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rejected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["draw", "-version"]
        verbose_name = _("draw result")
        verbose_name_plural = _("draw results")
        constraints = [
            models.UniqueConstraint(fields=["draw", "version"], name="drawresult_version_unique"),
            models.UniqueConstraint(
                fields=["draw"], condition=Q(status="confirmed"), name="drawresult_one_confirmed"
            ),
            models.UniqueConstraint(
                fields=["draw"], condition=Q(status__in=["entered", "proposed"]), name="drawresult_one_pending"
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | ~Q(confirmed_by=F("entered_by")),
                name="drawresult_four_eyes",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.draw} result v{self.version}"
