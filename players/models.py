"""Tables of the players app: people, players, game accounts and their ledger, limits, play sessions
and reminders, self-exclusions (docs/players.md).

Invariants live in the database where it can hold them: balances within 0 and the cap, one ledger
entry per (account, reference), the sign of each entry kind, one open reminder per session.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.idcodes import normalise_name
from compliance.money import format_cents

from . import rules


def _default_cap() -> int:
    return settings.PLAYER_BALANCE_CAP_CENTS


def _default_currency() -> str:
    return settings.OPERATOR_CURRENCY


def _default_jurisdiction() -> str:
    return settings.PLAYER_DEFAULT_JURISDICTION


class Person(models.Model):
    """A natural person: identity, contact, residence and identity verification (KYC)."""

    class Kyc(models.TextChoices):
        UNVERIFIED = "unverified", _("unverified")
        VERIFIED = "verified", _("verified")
        REJECTED = "rejected", _("rejected")

    first_name = models.CharField(_("first name"), max_length=150)
    last_name = models.CharField(_("last name"), max_length=150)
    name_normalised = models.CharField(max_length=300, db_index=True, editable=False)
    birth_date = models.DateField(_("birth date"), db_index=True)
    # The identifier itself is never stored: a keyed hash for look-ups, a Fernet token for display.
    national_id_hash = models.CharField(max_length=64, unique=True, editable=False)
    national_id_encrypted = models.TextField(blank=True, editable=False)
    id_country = models.CharField(_("identifier country"), max_length=2, default="FI")
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=32, blank=True)
    street_address = models.CharField(_("street address"), max_length=200, blank=True)
    postal_code = models.CharField(_("postal code"), max_length=20, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country_of_residence = models.CharField(_("country of residence"), max_length=2, default="FI")
    jurisdiction = models.CharField(_("jurisdiction"), max_length=8, default=_default_jurisdiction)
    kyc_status = models.CharField(
        _("verification"), max_length=12, choices=Kyc.choices, default=Kyc.UNVERIFIED
    )
    kyc_method = models.CharField(_("verification method"), max_length=50, blank=True)
    kyc_note = models.CharField(_("verification note"), max_length=255, blank=True)
    kyc_verified_at = models.DateTimeField(_("verified at"), null=True, blank=True)
    kyc_verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kyc_verified_by_repr = models.CharField(_("verified by"), max_length=150, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["last_name", "first_name", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kyc_status="unverified") | ~Q(kyc_verified_by_repr=""),
                name="players_person_kyc_decided_by_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} ({self.birth_date:%Y-%m-%d})"

    def save(self, *args, **kwargs):
        self.name_normalised = normalise_name(self.first_name, self.last_name)
        super().save(*args, **kwargs)

    @property
    def is_verified(self) -> bool:
        return self.kyc_status == self.Kyc.VERIFIED


#: Channel codes that name the operator's own paths (retail imports, staff, jobs): no channel may take them,
#: so a channel can never pass for the retail pseudo-channel on wagers or ledger references.
RESERVED_CHANNEL_CODES = frozenset({"retail", "staff", "system", "operator", "admin"})


def validate_channel_code(value: str) -> None:
    if value.lower() in RESERVED_CHANNEL_CODES:
        raise ValidationError(_("%(code)s names one of the operator's own paths; choose another code."),
                              params={"code": value})


class Channel(models.Model):
    """A sales channel (an online shop, a partner platform) bound to its one API user.

    Over the API a channel sees and changes only the players it registered (docs/players.md,
    "Channels"). Prize credits above `prize_limit_cents` wait for a compliance officer's approval.
    """

    code = models.SlugField(_("code"), max_length=32, unique=True, validators=[validate_channel_code],
                            help_text=_("Short name on wagers and ledger references; unique, never reused."))
    name = models.CharField(_("name"), max_length=120)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="channel",
                                verbose_name=_("API user"))
    prize_limit_cents = models.BigIntegerField(
        _("prize credit limit (cents)"), default=0,
        help_text=_("A prize credit above this needs a compliance officer's approval; 0: every prize credit does."),
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("sales channel")
        verbose_name_plural = _("sales channels")
        ordering = ["code"]
        permissions = [("approve_channel_prize", "Can approve a channel's prize credit above its limit")]
        constraints = [
            models.CheckConstraint(
                condition=Q(prize_limit_cents__gte=0) & Q(prize_limit_cents__lte=2_000_000_00),
                name="channel_prize_limit_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.code


class Player(models.Model):
    """A person's customer relationship with the operator; holds the game account."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        CLOSED = "closed", _("closed")

    person = models.OneToOneField(Person, on_delete=models.PROTECT, related_name="player")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    registered_at = models.DateTimeField(_("registered at"), default=timezone.now)
    registered_via = models.CharField(_("registered via"), max_length=150)
    # The channel that registered the player: the only channel that sees it over the API (None: staff).
    channel = models.ForeignKey(Channel, on_delete=models.PROTECT, null=True, blank=True, related_name="players",
                                verbose_name=_("channel"))

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["pk"]
        permissions = [
            ("transact", "Can post deposits, withdrawals, stakes and prizes for players"),
            ("manage_protection", "Can start play sessions, answer reminders, set limits and self-exclude"),
            ("verify_person", "Can record the identity verification (KYC) of a person"),
            ("reveal_identifier", "Can see a person's national identifier in clear"),
            ("release_payout", "Can record and confirm the payment of pending bank payouts"),
            ("search_identifier", "Can look a person up by national identifier (audited, throttled)"),
        ]

    def __str__(self) -> str:
        return f"Player {self.pk}"


class GameAccount(models.Model):
    """The game account (pelitili): a ledger whose balance is cached here, under the cap of PR §2."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="account")
    balance_cents = models.BigIntegerField(_("balance (cents)"), default=0)
    cap_cents = models.BigIntegerField(_("balance cap (cents)"), default=_default_cap)
    currency = models.CharField(max_length=3, default=_default_currency)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game account")
        verbose_name_plural = _("game accounts")
        constraints = [
            models.CheckConstraint(
                condition=Q(balance_cents__gte=0), name="players_account_balance_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(balance_cents__lte=F("cap_cents")), name="players_account_balance_within_cap"
            ),
            models.CheckConstraint(
                condition=Q(cap_cents__gt=0, cap_cents__lte=2_000_000), name="players_account_cap_pr2"
            ),
        ]

    def __str__(self) -> str:
        return f"Account of player {self.player_id}"


class LedgerEntry(models.Model):
    """One money movement. `amount_cents` is the signed change of the balance; a prize or refund that
    did not fit under the cap records the part sent to a pending bank payout in `diverted_cents`."""

    class Kind(models.TextChoices):
        DEPOSIT = "deposit", _("deposit")
        WITHDRAWAL = "withdrawal", _("withdrawal")
        STAKE = "stake", _("stake")
        PRIZE = "prize", _("prize")
        REFUND = "refund", _("refund")
        ADJUSTMENT = "adjustment", _("adjustment")

    account = models.ForeignKey(GameAccount, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount_cents = models.BigIntegerField()
    diverted_cents = models.BigIntegerField(default=0)
    balance_after_cents = models.BigIntegerField()
    reference = models.CharField(max_length=100, help_text="Unique per business event and account.")
    session = models.ForeignKey(
        "PlaySession", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    game = models.CharField(max_length=100, blank=True)
    note = models.CharField(max_length=255, blank=True)
    actor_repr = models.CharField(max_length=150)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["account", "reference"], name="players_ledger_reference_unique"),
            models.CheckConstraint(
                condition=(
                    Q(kind="deposit", amount_cents__gt=0, diverted_cents=0)
                    | Q(kind__in=["withdrawal", "stake"], amount_cents__lt=0, diverted_cents=0)
                    | (
                        Q(kind__in=["prize", "refund"], amount_cents__gte=0, diverted_cents__gte=0)
                        & (Q(amount_cents__gt=0) | Q(diverted_cents__gt=0))
                    )
                    | (Q(kind="adjustment", diverted_cents=0) & ~Q(amount_cents=0))
                ),
                name="players_ledger_sign_by_kind",
            ),
            models.CheckConstraint(
                condition=Q(balance_after_cents__gte=0), name="players_ledger_balance_after"
            ),
        ]
        indexes = [models.Index(fields=["account", "kind", "created_at"], name="players_ledger_window_idx")]

    def __str__(self) -> str:
        return f"{self.kind} {format_cents(self.amount_cents, language='en')} ({self.reference})"

    @property
    def requested_cents(self) -> int:
        """The amount the caller asked for (what a retry under the same reference must repeat)."""
        if self.kind in (self.Kind.WITHDRAWAL, self.Kind.STAKE):
            return -self.amount_cents
        return self.amount_cents + self.diverted_cents


class PendingPayout(models.Model):
    """The part of a prize or refund above the balance cap: paid to the player's bank account by the
    operator's payments staff, who mark it paid here (docs/players.md)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        PAID = "paid", _("paid")

    account = models.ForeignKey(GameAccount, on_delete=models.PROTECT, related_name="pending_payouts")
    entry = models.OneToOneField(LedgerEntry, on_delete=models.PROTECT, related_name="pending_payout")
    amount_cents = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by_repr = models.CharField(max_length=150, blank=True)
    bank_reference = models.CharField(max_length=100, blank=True)

    class Meta:
        verbose_name = _("pending bank payout")
        verbose_name_plural = _("pending bank payouts")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="players_payout_positive"),
            models.CheckConstraint(
                condition=Q(status="pending") | (Q(paid_at__isnull=False) & ~Q(bank_reference="")),
                name="players_payout_paid_has_reference",
            ),
        ]

    def __str__(self) -> str:
        return f"Pending payout {format_cents(self.amount_cents, language='en')} ({self.status})"


class LimitKind(models.TextChoices):
    DEPOSIT = "deposit", _("deposits")
    LOSS = "loss", _("losses")
    TIME = "time", _("play time")


class LimitPeriod(models.TextChoices):
    DAY = rules.DAY, _("per day")
    WEEK = rules.WEEK, _("per week")
    MONTH = rules.MONTH, _("per month")


_LIMIT_VALUE_BY_KIND = (
    Q(kind="time") & Q(amount_cents__isnull=True) & (Q(minutes__isnull=True) | Q(minutes__gt=0))
) | (
    Q(kind__in=["deposit", "loss"])
    & Q(minutes__isnull=True)
    & (Q(amount_cents__isnull=True) | Q(amount_cents__gt=0))
)


class OperatorLimit(models.Model):
    """An operator-wide mandatory limit, applied to every player together with their own limits."""

    kind = models.CharField(_("kind"), max_length=10, choices=LimitKind.choices)
    period = models.CharField(_("period"), max_length=10, choices=LimitPeriod.choices)
    amount_cents = models.BigIntegerField(_("amount (cents)"), null=True, blank=True)
    minutes = models.PositiveIntegerField(_("minutes"), null=True, blank=True)
    active = models.BooleanField(_("active"), default=True)
    note = models.CharField(_("note"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("operator limit")
        verbose_name_plural = _("operator limits")
        ordering = ["kind", "period"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "period"], name="players_operatorlimit_one_per_kind_period"
            ),
            models.CheckConstraint(
                condition=_LIMIT_VALUE_BY_KIND & (Q(amount_cents__isnull=False) | Q(minutes__isnull=False)),
                name="players_operatorlimit_value_by_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.get_period_display()}: {self.value}"

    @property
    def value(self) -> int | None:
        return self.minutes if self.kind == LimitKind.TIME else self.amount_cents


class PlayerLimit(models.Model):
    """One request of a player to set, lower, raise or remove a limit (both values empty = no limit).

    Rows are never changed except `superseded_at`, so they are the limit's history. The limit in force
    is the newest row whose `effective_from` has passed and that was not superseded before that.
    """

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="limits")
    kind = models.CharField(_("kind"), max_length=10, choices=LimitKind.choices)
    period = models.CharField(_("period"), max_length=10, choices=LimitPeriod.choices)
    amount_cents = models.BigIntegerField(_("amount (cents)"), null=True, blank=True)
    minutes = models.PositiveIntegerField(_("minutes"), null=True, blank=True)
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    effective_from = models.DateTimeField(_("effective from"))
    superseded_at = models.DateTimeField(_("superseded at"), null=True, blank=True)
    requested_by_repr = models.CharField(max_length=150)

    class Meta:
        verbose_name = _("player limit")
        verbose_name_plural = _("player limits")
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=_LIMIT_VALUE_BY_KIND, name="players_playerlimit_value_by_kind"),
        ]
        indexes = [
            models.Index(
                fields=["player", "kind", "period", "effective_from"], name="players_limit_lookup_idx"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.period}: {self.value}"

    @property
    def value(self) -> int | None:
        return self.minutes if self.kind == LimitKind.TIME else self.amount_cents


class PlaySession(models.Model):
    """A player's session in the online service, with its time reminder (PR §1)."""

    class EndReason(models.TextChoices):
        LOGOUT = "logout", _("logged out")
        REMINDER_LOGOUT = "reminder_logout", _("logged out at a reminder")
        SELF_EXCLUSION = "self_exclusion", _("self-exclusion")
        REPLACED = "replaced", _("a new session started")
        IDLE = "idle", _("idle timeout")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="sessions")
    channel = models.CharField(_("channel"), max_length=150)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    last_activity_at = models.DateTimeField(_("last activity"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    end_reason = models.CharField(_("end reason"), max_length=20, choices=EndReason.choices, blank=True)
    reminder_interval_seconds = models.PositiveIntegerField(
        default=int(rules.REMINDER_INTERVAL.total_seconds())
    )
    # When the current reminder interval began: the start, or the moment play resumed after a reminder.
    interval_started_at = models.DateTimeField(default=timezone.now)
    reminders_shown = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("play session")
        verbose_name_plural = _("play sessions")
        ordering = ["-started_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(reminder_interval_seconds__gte=60, reminder_interval_seconds__lte=900),
                name="players_session_interval_pr1",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True, end_reason="")
                | (Q(ended_at__isnull=False) & ~Q(end_reason="")),
                name="players_session_end_has_reason",
            ),
        ]
        indexes = [models.Index(fields=["player", "ended_at"], name="players_session_open_idx")]

    def __str__(self) -> str:
        return f"Session {self.pk} of player {self.player_id}"

    @property
    def reminder_interval(self) -> dt.timedelta:
        return dt.timedelta(seconds=self.reminder_interval_seconds)

    @property
    def next_reminder_at(self) -> dt.datetime:
        return self.interval_started_at + self.reminder_interval

    def idle_deadline(self) -> dt.datetime:
        return self.last_activity_at + dt.timedelta(minutes=settings.PLAYER_SESSION_IDLE_MINUTES)

    def is_open(self, now: dt.datetime) -> bool:
        return self.ended_at is None and now < self.idle_deadline()

    def effective_end(self, now: dt.datetime) -> dt.datetime:
        """When play time stops counting: the end, or now, or the idle deadline of a left session."""
        if self.ended_at is not None:
            return self.ended_at
        return min(now, self.idle_deadline())

    def reminder_due(self, now: dt.datetime) -> bool:
        return self.is_open(now) and now >= self.next_reminder_at


class SessionReminder(models.Model):
    """A time reminder: when it fell due, when it was presented, and the player's choice."""

    class Choice(models.TextChoices):
        CONTINUE = "continue", _("continue playing")
        LOGOUT = "logout", _("log out")

    session = models.ForeignKey(PlaySession, on_delete=models.PROTECT, related_name="reminders")
    due_at = models.DateTimeField(_("due at"))
    shown_at = models.DateTimeField(_("presented at"))
    played_seconds = models.PositiveIntegerField(_("time played (s)"))
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    choice = models.CharField(_("choice"), max_length=10, choices=Choice.choices, blank=True)
    interval_seconds_after = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("session reminder")
        verbose_name_plural = _("session reminders")
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session"], condition=Q(answered_at__isnull=True), name="players_reminder_one_open"
            ),
            models.CheckConstraint(
                condition=Q(answered_at__isnull=True, choice="")
                | (Q(answered_at__isnull=False) & ~Q(choice="")),
                name="players_reminder_answer_has_choice",
            ),
        ]

    def __str__(self) -> str:
        return f"Reminder at {self.due_at:%H:%M} ({self.choice or 'open'})"


class SelfExclusion(models.Model):
    """A person's self-exclusion from play, for a period or permanently (ends_at empty)."""

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="self_exclusions")
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    requested_by_repr = models.CharField(max_length=150)

    class Meta:
        verbose_name = _("self-exclusion")
        verbose_name_plural = _("self-exclusions")
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=F("starts_at")),
                name="players_selfexclusion_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"Self-exclusion of {self.person_id} until {self.ends_at or 'permanent'}"

    @property
    def permanent(self) -> bool:
        return self.ends_at is None
