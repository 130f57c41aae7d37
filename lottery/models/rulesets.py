"""Prize rule versions (issue 4)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

GAME_CHOICES = [
    ("lotto", "Lotto"),
    ("eurojackpot", "Eurojackpot"),
    ("vikinglotto", "Vikinglotto"),
    ("milli", "Milli"),
    ("keno", "Keno"),
    ("kaikki_tai_ei_mitaan", "Kaikki tai ei mitään"),
    ("synttarit", "Synttärit"),
    ("jokeri", "Jokeri"),
    ("lomatonni", "Lomatonni"),
    ("tahdenlento", "Tähdenlento"),
]


class RuleSet(models.Model):
    """One published version of a game's prize rules: every share, fixed prize, multiplier, cap,
    rounding step and interpretation switch the rules engine reads (`lottery.rules`).

    A version is never edited: a change of rules is a new version with its own effective date, made
    by `lottery.services.ruleset_publish`, which audits it. Computations record the version they used.
    """

    game = models.CharField(max_length=40, choices=GAME_CHOICES, db_index=True)
    version = models.CharField(max_length=40)
    effective_from = models.DateField(help_text=_("First draw date (operator's zone) the version applies to."))
    params = models.JSONField()
    params_sha256 = models.CharField(max_length=64, editable=False)
    source = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["game", "-effective_from"]
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        permissions = [("use_prize_calculator", "Can compute prizes with the prize calculator")]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="ruleset_game_version_unique"),
            models.UniqueConstraint(fields=["game", "effective_from"], name="ruleset_game_effective_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.version} (from {self.effective_from:%Y-%m-%d})"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("A published rule set is never changed; publish a new version instead.")
        super().save(*args, **kwargs)
