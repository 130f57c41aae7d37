"""Tables of the casino app: published rule versions of the table games and the round checks made
against them (docs/casino.md "Rule versions", "Round check")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ImmutableRow(models.Model):
    """A row that is written once: a change is a new row (a new version, a new check)."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"A {self._meta.verbose_name} is never changed; record a new one instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"A {self._meta.verbose_name} is never deleted.")


class CasinoRuleVersion(ImmutableRow):
    """One published version of a table game variant's rules: the rule data the engine reads
    (paytables, dealer rules, ...) as canonical JSON with its SHA-256, in force from `effective_from`
    until the next version of the same variant. Published by `casino.services.rule_version_publish`
    (audited), never edited; odds in it are minimums a later version may raise."""

    rulebook = models.CharField(max_length=3)
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=60)
    version = models.PositiveIntegerField()
    effective_from = models.DateTimeField(help_text=_("First moment (operator's zone) the version applies to."))
    rules = models.JSONField()
    rules_sha256 = models.CharField(max_length=64)
    source = models.CharField(max_length=255, blank=True)
    published_by = models.CharField(max_length=150)
    published_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rulebook", "game", "variant", "-version"]
        verbose_name = _("casino rule version")
        verbose_name_plural = _("casino rule versions")
        default_permissions = ("view",)
        permissions = [("publish_rules", "Can publish casino rule versions")]
        constraints = [
            models.UniqueConstraint(fields=["rulebook", "game", "variant", "version"], name="casinorule_version_unique"),
            models.UniqueConstraint(fields=["rulebook", "game", "variant", "effective_from"],
                                    name="casinorule_effective_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.rulebook} {self.game} {self.variant} v{self.version}"


class RoundCheck(ImmutableRow):
    """One round check: who asked, when, the round as given, the answer, and the rule version used.
    A check changes nothing, but the trace is what a regulator asks for (docs/casino.md)."""

    checked_at = models.DateTimeField(auto_now_add=True, db_index=True)
    checked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT,
                                   related_name="casino_round_checks")
    checked_by_name = models.CharField(max_length=150)
    rulebook = models.CharField(max_length=3)
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=60)
    round_at = models.DateTimeField(help_text=_("When the round was played (selects the rule version)."))
    rule_version = models.ForeignKey(CasinoRuleVersion, on_delete=models.PROTECT, related_name="checks")
    round_input = models.JSONField(help_text=_("The round as given: venue, bets, outcome, amounts paid."))
    answer = models.JSONField()
    total_return_cents = models.BigIntegerField()
    paid_total_cents = models.BigIntegerField(null=True, blank=True)
    difference_cents = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]
        verbose_name = _("round check")
        verbose_name_plural = _("round checks")
        default_permissions = ("view",)
        permissions = [("check_round", "Can check casino rounds")]
        indexes = [models.Index(fields=["checked_by", "-checked_at"], name="casino_check_by_idx")]

    def __str__(self) -> str:
        return f"{self.rulebook} {self.game} {self.variant} check #{self.pk}"
