"""Tables of the casino's jackpots and side games (issue 19 item 3; 000-casino §2.3, §2.6, §3.8;
docs/casino-operations.md, "Jackpots").

A jackpot is an identity (`Jackpot`: its venue, its code, whether it is in play, and its posted pot
and held reserve, cached from its ledger) whose terms are versions (`JackpotVersion`, never edited: a
change is a new version in force from its date) and whose money is an append-only ledger
(`JackpotEntry`). Verified rounds leave one `JackpotAccrual` per bet that takes part in a jackpot or
wins from it; the end of the gaming day posts them (`JackpotDay`, one per jackpot and day).

Loaded by `casino.models` (its last line), so the app's models are in one registry.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from .models import ImmutableRow, RecordedRound, Table, Venue


class Jackpot(models.Model):
    """A jackpot of a venue. `pot_cents` (the pot shown) and `held_cents` (the held reserve: what went
    above the maximum) are the ledger's balance after its last entry, changed only by the services of
    casino.jackpots, which lock this row; `last_seq` numbers the entries."""

    class State(models.TextChoices):
        ACTIVE = "active", _("in play")
        REMOVED = "removed", _("removed from play")

    class Destination(models.TextChoices):
        JACKPOT = "jackpot", _("another jackpot")
        UNPAID_FUNDS = "unpaid_funds", _("the operator's unpaid-funds account")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="jackpots")
    code = models.SlugField(max_length=40)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACTIVE)
    pot_cents = models.BigIntegerField(default=0)
    held_cents = models.BigIntegerField(default=0)
    last_seq = models.PositiveIntegerField(default=0)
    posted_through = models.DateField(null=True, blank=True, help_text=_("The last gaming day posted."))
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_name = models.CharField(max_length=150)
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by_name = models.CharField(max_length=150, blank=True)
    removal_destination = models.CharField(max_length=20, choices=Destination.choices, blank=True)
    removal_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    removal_note = models.TextField(blank=True)

    class Meta:
        ordering = ["venue", "code"]
        verbose_name = _("jackpot")
        verbose_name_plural = _("jackpots")
        default_permissions = ("view",)
        permissions = [("manage_jackpots", "Can manage casino jackpots"),
                       ("approve_jackpot_win", "Can approve large casino jackpot wins")]
        constraints = [
            models.UniqueConstraint(fields=["venue", "code"], name="casino_jackpot_code_unique"),
            models.CheckConstraint(condition=Q(pot_cents__gte=0) & Q(held_cents__gte=0), name="casino_jackpot_balance_range"),
        ]

    def __str__(self) -> str:
        return f"{self.venue.code}/{self.code}"

    @property
    def balance_cents(self) -> int:
        """The posted liability: the pot shown and the held reserve."""
        return self.pot_cents + self.held_cents


class JackpotVersion(ImmutableRow):
    """One version of a jackpot's terms, in force from `effective_from` until the next one (000-casino
    §2.6: the participation fee, the ways of winning, the accumulation method and the maximum
    permitted win are always visible at the table or in the instructions). Money in cents; the
    contribution rate is the exact fraction of the participation stake that goes into the pot."""

    class Kind(models.TextChoices):
        FIXED = "fixed", _("Fixed sum")
        ODDS = "odds", _("Sum formed by odds")
        PROGRESSIVE = "progressive", _("Progressive")

    class Overflow(models.TextChoices):
        HELD = "held", _("held in the jackpot's reserve")
        NEXT_POT = "next_pot", _("to the next pot")

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    effective_from = models.DateTimeField()
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    bet_type = models.CharField(max_length=40, help_text=_("The bet type whose stake is the participation."))
    participation_fee_cents = models.BigIntegerField(null=True, blank=True)
    contribution_rate = models.DecimalField(max_digits=7, decimal_places=6)
    seed_cents = models.BigIntegerField()
    reset_cents = models.BigIntegerField()
    max_cents = models.BigIntegerField(null=True, blank=True)
    overflow = models.CharField(max_length=10, choices=Overflow.choices, default=Overflow.HELD)
    overflow_to = models.ForeignKey(Jackpot, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    max_win_cents = models.BigIntegerField()
    instructions = models.TextField()
    tables = models.ManyToManyField(Table, blank=True, related_name="jackpot_versions")
    note = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["jackpot", "-version"]
        verbose_name = _("jackpot version")
        verbose_name_plural = _("jackpot versions")
        default_permissions = ("view",)
        constraints = [
            models.UniqueConstraint(fields=["jackpot", "version"], name="casino_jackpotversion_unique"),
            models.UniqueConstraint(fields=["jackpot", "effective_from"], name="casino_jackpotversion_from_unique"),
            models.CheckConstraint(condition=Q(contribution_rate__gte=0) & Q(contribution_rate__lte=1),
                                   name="casino_jackpotversion_rate_range"),
            models.CheckConstraint(condition=Q(seed_cents__gte=0) & Q(reset_cents__gte=0) & Q(max_win_cents__gt=0),
                                   name="casino_jackpotversion_amounts"),
            models.CheckConstraint(condition=Q(max_cents__isnull=True)
                                   | (Q(max_cents__gte=F("seed_cents")) & Q(max_cents__gte=F("reset_cents"))),
                                   name="casino_jackpotversion_max"),
            models.CheckConstraint(condition=Q(participation_fee_cents__isnull=True) | Q(participation_fee_cents__gt=0),
                                   name="casino_jackpotversion_fee"),
            models.CheckConstraint(condition=Q(overflow="held", overflow_to__isnull=True)
                                   | Q(overflow="next_pot", overflow_to__isnull=False),
                                   name="casino_jackpotversion_overflow"),
        ]

    def __str__(self) -> str:
        return f"{self.jackpot} v{self.version}"

    @property
    def rate_percent(self) -> Decimal:
        """The contribution rate as a percentage (0.25 -> 25)."""
        return (self.contribution_rate * 100).normalize()


class JackpotDay(ImmutableRow):
    """The posting of one gaming day of a jackpot (the operator's calendar day, as rounds carry it):
    the day's ledger entries summed. The row balances by construction and by a constraint:
    closing = opening + funded (seed, resets) + contributions - wins + transfers (overflow, removal)."""

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="days")
    day = models.DateField()
    opening_cents = models.BigIntegerField()
    funded_cents = models.BigIntegerField()
    contributions_cents = models.BigIntegerField()
    wins_cents = models.BigIntegerField()
    transfers_cents = models.BigIntegerField()
    closing_cents = models.BigIntegerField()
    accruals = models.PositiveIntegerField(default=0)
    late = models.PositiveIntegerField(default=0, help_text=_("Accruals of rounds of earlier days."))
    mismatches = models.PositiveIntegerField(default=0)
    posted_at = models.DateTimeField(auto_now_add=True)
    posted_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["jackpot", "-day"]
        verbose_name = _("jackpot day posting")
        verbose_name_plural = _("jackpot day postings")
        default_permissions = ("view",)
        constraints = [
            models.UniqueConstraint(fields=["jackpot", "day"], name="casino_jackpotday_unique"),
            models.CheckConstraint(
                condition=Q(closing_cents=F("opening_cents") + F("funded_cents") + F("contributions_cents")
                            - F("wins_cents") + F("transfers_cents")),
                name="casino_jackpotday_balances"),
        ]

    def __str__(self) -> str:
        return f"{self.jackpot} {self.day}"


class JackpotAccrual(models.Model):
    """What one bet of a verified round owes a jackpot (its contribution: the participation stake
    times the rate, rounded down to the cent) or is owed from it (its win: what the engine says was
    due on a jackpot-category bet, inside the venue's win cap). Written by the verification job with
    the round's results; posted to the ledger by the end of the gaming day (`posting`). A large win
    waits for a second person (`win_state`). A correction of the round supersedes an unposted accrual
    or, once posted, is followed by a reversal (`reverses`)."""

    class WinState(models.TextChoices):
        NONE = "", _("no large win")
        HELD = "held", _("awaiting a second person")
        APPROVED = "approved", _("approved")

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="accruals")
    version = models.ForeignKey(JackpotVersion, on_delete=models.PROTECT, related_name="+")
    round = models.ForeignKey(RecordedRound, on_delete=models.PROTECT, related_name="jackpot_accruals")
    bet_index = models.IntegerField()
    day = models.DateField()
    played_at = models.DateTimeField()
    stake_cents = models.BigIntegerField(default=0)
    contribution_cents = models.BigIntegerField(default=0)
    win_cents = models.BigIntegerField(default=0)
    pot_shown_cents = models.BigIntegerField(null=True, blank=True)
    win_state = models.CharField(max_length=10, choices=WinState.choices, blank=True, default="")
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    approved_at = models.DateTimeField(null=True, blank=True)
    reverses = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversals")
    superseded_at = models.DateTimeField(null=True, blank=True)
    posting = models.ForeignKey(JackpotDay, null=True, blank=True, on_delete=models.PROTECT, related_name="accrual_set")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["jackpot", "played_at", "round", "bet_index"]
        verbose_name = _("jackpot accrual")
        verbose_name_plural = _("jackpot accruals")
        default_permissions = ("view",)
        constraints = [
            models.UniqueConstraint(fields=["round", "bet_index"], condition=Q(reverses__isnull=True),
                                    name="casino_jackpotaccrual_bet_unique"),
            models.UniqueConstraint(fields=["reverses"], condition=Q(reverses__isnull=False),
                                    name="casino_jackpotaccrual_reversal_unique"),
            models.CheckConstraint(condition=Q(stake_cents__gte=0), name="casino_jackpotaccrual_stake"),
        ]
        indexes = [models.Index(fields=["jackpot", "posting", "day"], name="casino_jpaccrual_unposted_idx")]

    def __str__(self) -> str:
        return f"{self.jackpot} round {self.round_id} bet {self.bet_index}"


class JackpotEntry(ImmutableRow):
    """One line of a jackpot's liability ledger, never changed or deleted. `amount_cents` changes the
    pot, `held_cents` the held reserve; their sum is what the entry changes the liability by. The
    balance after it is kept on the line (`pot_after_cents`, `held_after_cents`): the ledger check
    replays them. Dated by the gaming day it belongs to (`day`)."""

    class Kind(models.TextChoices):
        SEED = "seed", _("Seed")
        CONTRIBUTION = "contribution", _("Contributions")
        WIN = "win", _("Win")
        RESET = "reset", _("Reset")
        OVERFLOW = "overflow", _("Overflow")
        TRANSFER = "transfer", _("Transfer")

    class Reason(models.TextChoices):
        """Why the operator's money, an overflow or a transfer moved (casino.rules.jackpot_ledger)."""

        NONE = "", ""
        COVER = "cover", _("the pot did not cover the win: topped up first")
        RESET = "reset", _("back to the reset amount after a win")
        ABOVE_MAX = "above_max", _("above the maximum")
        RECEIVED = "received", _("received from another jackpot")
        REMOVAL = "removal", _("removed from play")

    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, related_name="entries")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    day = models.DateField()
    amount_cents = models.BigIntegerField()
    held_cents = models.BigIntegerField(default=0)
    pot_after_cents = models.BigIntegerField()
    held_after_cents = models.BigIntegerField()
    posting = models.ForeignKey(JackpotDay, null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    accrual = models.ForeignKey(JackpotAccrual, null=True, blank=True, on_delete=models.PROTECT, related_name="entries")
    counterpart = models.ForeignKey(Jackpot, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    destination = models.CharField(max_length=20, choices=Jackpot.Destination.choices, blank=True)
    reason = models.CharField(max_length=12, choices=Reason.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["jackpot", "seq"]
        verbose_name = _("jackpot ledger entry")
        verbose_name_plural = _("jackpot ledger entries")
        default_permissions = ("view",)
        constraints = [
            models.UniqueConstraint(fields=["jackpot", "seq"], name="casino_jackpotentry_seq_unique"),
            models.CheckConstraint(condition=Q(pot_after_cents__gte=0) & Q(held_after_cents__gte=0),
                                   name="casino_jackpotentry_balance_range"),
            # What each kind may move: money paid in by the operator is never negative, a contribution
            # and a win touch the pot only, an overflow leaves the pot for the reserve or another pot
            # (or arrives from one), a transfer empties the jackpot or arrives in another.
            models.CheckConstraint(name="casino_jackpotentry_kind_signs", condition=(
                Q(kind="seed", amount_cents__gte=0, held_cents=0)
                | Q(kind__in=["contribution", "win"], held_cents=0)
                | (Q(kind="reset", amount_cents__gte=0, held_cents__lte=0)
                   & Q(amount_cents__gte=-F("held_cents")))
                | (Q(kind="overflow", held_cents=0) | Q(kind="overflow", amount_cents=-F("held_cents"), held_cents__gt=0))
                | Q(kind="transfer", amount_cents__lte=0, held_cents__lte=0)
                | Q(kind="transfer", amount_cents__gte=0, held_cents=0))),
        ]

    def __str__(self) -> str:
        return f"{self.jackpot} #{self.seq} {self.kind}"

    @property
    def net_cents(self) -> int:
        return self.amount_cents + self.held_cents
