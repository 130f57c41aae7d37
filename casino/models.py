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


# ------------------------------------------------------------------------------ casino operations
# Venues, tables (versioned), recorded rounds, their verification and discrepancies (issue 19,
# docs/casino-operations.md).


class Venue(models.Model):
    """A place where table games are played. Its kind decides the rulebook and the legal frame
    (stake maxima, win cap, minimum age: casino.rules.venues) the engines apply to its rounds."""

    class Kind(models.TextChoices):
        GAME_HALL = "game_hall", _("Game hall")
        GAMING_POINT = "gaming_point", _("Gaming point or arcade")
        CASINO = "casino", _("Casino")
        FOREIGN_CASINO = "foreign_casino", _("Foreign licensed casino")

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("venue type"), max_length=20, choices=Kind.choices)
    rulebook = models.CharField(max_length=3)
    frame = models.CharField(max_length=20, help_text=_("The legal frame of casino.rules.venues the kind uses."))
    jurisdiction = models.CharField(_("jurisdiction"), max_length=8)
    currency = models.CharField(_("currency"), max_length=3, default="EUR")
    min_age = models.PositiveSmallIntegerField(_("minimum age"))
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["name"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        permissions = [("manage_venues", "Can manage casino venues, tables and their versions")]

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """A gaming table of a venue: the identity its versions (TableVersion) and rounds point at.
    `systems`: the API users (table systems) that may post and read this table's rounds."""

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="tables")
    code = models.SlugField(max_length=40)
    game = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    systems = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="casino_tables")

    class Meta:
        ordering = ["venue", "code"]
        verbose_name = _("gaming table")
        verbose_name_plural = _("gaming tables")
        constraints = [models.UniqueConstraint(fields=["venue", "code"], name="casino_table_code_unique")]

    def __str__(self) -> str:
        return f"{self.venue.code}/{self.code}"


class TableVersion(ImmutableRow):
    """One version of a table's configuration, in force from `effective_from` until the next one. A
    change is a new row (never an in-place edit), recorded with its audit event. Money in cents; the
    maxima per limit class within the venue's legal maxima (casino.rules.venues); the records
    000-casino §3.8 asks for are kept as text shown at the table."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="versions")
    version = models.PositiveIntegerField()
    effective_from = models.DateTimeField()
    variant = models.CharField(max_length=60)
    rule_version = models.ForeignKey(CasinoRuleVersion, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="table_versions",
                                     help_text=_("Pinned rule version; empty: the version in force at the round's time."))
    min_stake_cents = models.BigIntegerField()
    max_stake_cents = models.JSONField(help_text=_("Limit class -> the table's maximum initial stake in cents."))
    win_cap_cents = models.BigIntegerField(null=True, blank=True)
    side_games = models.JSONField(default=list, blank=True)
    opening_hours = models.CharField(max_length=200, blank=True)
    payout_sign = models.CharField(max_length=200, blank=True, help_text=_("000-casino §3.8: version and payout sign."))
    zero_rule = models.CharField(max_length=100, blank=True, help_text=_("000-casino §3.8: the zero rule in use."))
    records = models.TextField(blank=True, help_text=_("000-casino §3.8: table record, scoring log, rake notice."))
    note = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["table", "-version"]
        verbose_name = _("table version")
        verbose_name_plural = _("table versions")
        default_permissions = ("view",)
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="casino_tableversion_unique"),
            models.UniqueConstraint(fields=["table", "effective_from"], name="casino_tableversion_from_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class RoundBatch(models.Model):
    """Rounds recorded together (one API call, one file, one inspector entry): the unit the
    verification job works on. `verified_upto`: the id of the last round verified (the job's cursor,
    advanced in the transaction that writes a chunk's results, so a killed run resumes after it)."""

    class Source(models.TextChoices):
        API = "api", _("API")
        FILE = "file", _("File")
        INSPECTOR = "inspector", _("Inspector")
        BENCH = "bench", _("Benchmark")

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for verification")
        VERIFYING = "verifying", _("being verified")
        VERIFIED = "verified", _("verified")

    source = models.CharField(max_length=10, choices=Source.choices)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    created_by_name = models.CharField(max_length=150)
    file_name = models.CharField(max_length=255, blank=True)
    file_sha256 = models.CharField(max_length=64, blank=True)
    rounds = models.PositiveIntegerField(default=0)
    first_round_id = models.BigIntegerField(null=True, blank=True)
    last_round_id = models.BigIntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    verified_upto = models.BigIntegerField(default=0)
    verified = models.PositiveIntegerField(default=0)
    discrepancies = models.PositiveIntegerField(default=0)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("round batch")
        verbose_name_plural = _("round batches")
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"batch #{self.pk}"


class RecordedRound(models.Model):
    """One round as a table system or an inspector reported it: never changed (a correction is a new
    round whose `corrects` points at the one it replaces). Bets and outcome as the engines read them
    (docs/casino.md, "The JSON round"); `paid_cents` per bet. `day` is the operator's calendar day
    of `played_at` (the lists filter on it)."""

    # No index of their own: (batch, id) and the unique (table, ref) lead with them (a bulk import
    # maintains every index of the table for every round).
    batch = models.ForeignKey(RoundBatch, on_delete=models.PROTECT, related_name="round_set", db_index=False)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds", db_index=False)
    table_version = models.ForeignKey(TableVersion, on_delete=models.PROTECT, related_name="rounds")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="rounds")
    game = models.CharField(max_length=40)
    played_at = models.DateTimeField()
    day = models.DateField()
    ref = models.CharField(max_length=64, help_text=_("The table system's own round reference."))
    bets = models.JSONField()
    outcome = models.JSONField()
    paid_cents = models.JSONField(help_text=_("What was paid per bet, in cents."))
    stake_total_cents = models.BigIntegerField()
    paid_total_cents = models.BigIntegerField()
    corrects = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["-played_at", "-id"]
        verbose_name = _("recorded round")
        verbose_name_plural = _("recorded rounds")
        default_permissions = ("view",)
        permissions = [("record_round", "Can record casino rounds")]
        constraints = [models.UniqueConstraint(fields=["table", "ref"], name="casino_round_ref_unique")]
        indexes = [
            models.Index(fields=["batch", "id"], name="casino_round_batch_idx"),
            models.Index(fields=["table", "-played_at"], name="casino_round_table_idx"),
            models.Index(fields=["day", "venue"], name="casino_round_day_idx"),
            models.Index(fields=["game", "-played_at"], name="casino_round_game_idx"),
            models.Index(fields=["-played_at", "-id"], name="casino_round_played_idx"),
        ]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("A recorded round is never changed; record a correction instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A recorded round is never deleted.")

    def __str__(self) -> str:
        return f"{self.table} {self.ref}"


class RoundPlayer(models.Model):
    """An identified player of a round (for the player filter over millions of rounds)."""

    round = models.ForeignKey(RecordedRound, on_delete=models.CASCADE, related_name="players")
    person = models.ForeignKey("players.Person", on_delete=models.PROTECT, related_name="casino_rounds")

    class Meta:
        default_permissions = ()
        constraints = [models.UniqueConstraint(fields=["person", "round"], name="casino_roundplayer_unique")]


class RoundVerification(models.Model):
    """The engine's result for one round, with the rule version used: written once by the
    verification job (one per round)."""

    round = models.OneToOneField(RecordedRound, on_delete=models.PROTECT, primary_key=True, related_name="verification")
    rule_version = models.ForeignKey(CasinoRuleVersion, null=True, on_delete=models.PROTECT, related_name="+")
    due_total_cents = models.BigIntegerField(null=True)
    difference_cents = models.BigIntegerField(null=True)
    ok = models.BooleanField()
    verified_at = models.DateTimeField()
    # The engine's stake-limit voids and win-cap cuts of the round (for the daily venue report's sums;
    # null when the round could not be computed, and for rounds verified before migration 0003).
    voided_excess_cents = models.BigIntegerField(null=True)
    capped_excess_cents = models.BigIntegerField(null=True)

    class Meta:
        default_permissions = ("view",)


class Discrepancy(models.Model):
    """What verification found wrong in a round, resolved by a person with a note (audited)."""

    class Kind(models.TextChoices):
        PAYOUT = "payout", _("Paid differs from what was due")
        NOT_ALLOWED = "not_allowed", _("An action the rules did not allow")
        NOT_VOIDED = "not_voided", _("Stake above the limit not voided")
        PLAYER_REFUSED = "player_refused", _("A player who should have been refused")
        UNVERIFIABLE = "unverifiable", _("The round could not be verified")
        JACKPOT = "jackpot", _("A jackpot's pot or win does not fit its ledger or terms")

    round = models.ForeignKey(RecordedRound, on_delete=models.PROTECT, related_name="discrepancies")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="discrepancies")
    day = models.DateField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    bet_index = models.IntegerField(null=True, blank=True)
    amount_cents = models.BigIntegerField(null=True, blank=True, help_text=_("Paid minus due (positive: overpaid)."))
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    resolution_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-day", "venue", "id"]
        verbose_name = _("discrepancy")
        verbose_name_plural = _("discrepancies")
        default_permissions = ("view",)
        permissions = [("resolve_discrepancy", "Can resolve casino round discrepancies")]
        indexes = [models.Index(fields=["venue", "day"], name="casino_disc_venue_day_idx"),
                   models.Index(fields=["resolved_at", "day"], name="casino_disc_open_idx")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    @property
    def detail_text(self) -> str:
        """The detail in the reader's language (casino.messages.detail_words)."""
        from .messages import detail_words

        return detail_words(self.detail)

    @property
    def cites_rule(self) -> bool:
        """The detail is the rule the engine applied (a rulebook citation, shown verbatim)."""
        from .messages import cites_rule

        return cites_rule(self.kind, self.detail)


# ------------------------------------------------------------------------------ disputes and complaints
# Issue 19 items 4 and 5 (docs/casino-operations.md, "Disputes", "Complaints").


class Dispute(ImmutableRow):
    """A dispute at a table and how staff decided it (000-casino §3.4): the table, the recorded round
    (or a description of a round that was not recorded), the parties, the deciding staff member(s) with
    their role, the decision, and whether the round ended or continued. Never edited: an amendment is a
    new dispute whose `amends` points at the one it replaces (one amendment per dispute, so the versions
    are a line). Recorded by the Casino inspector (`casino.disputes.dispute_record`, audited)."""

    class RoundOutcome(models.TextChoices):
        ENDED = "ended", _("The round ended")
        CONTINUED = "continued", _("The round continued")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="disputes")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="disputes")
    round = models.ForeignKey(RecordedRound, null=True, blank=True, on_delete=models.PROTECT, related_name="disputes")
    round_description = models.CharField(max_length=300, blank=True)
    occurred_at = models.DateTimeField()
    day = models.DateField(help_text=_("The operator's calendar day of the dispute."))
    players = models.JSONField(help_text=_('The players: {"person": id} for an identified one, {"description": ...} otherwise.'))
    staff = models.JSONField(default=list, blank=True, help_text=_('Staff involved as parties: {"name", "role"}.'))
    deciders = models.JSONField(help_text=_('Who decided: {"name", "role"} each (dealer, inspector, ...).'))
    decision = models.TextField()
    round_outcome = models.CharField(max_length=10, choices=RoundOutcome.choices)
    amends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments")
    amendment_reason = models.TextField(blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    recorded_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        default_permissions = ("view",)
        permissions = [("record_dispute", "Can record casino disputes")]
        constraints = [
            models.UniqueConstraint(fields=["amends"], condition=models.Q(amends__isnull=False),
                                    name="casino_dispute_one_amendment"),
            models.CheckConstraint(condition=~models.Q(round__isnull=True, round_description=""),
                                   name="casino_dispute_round_named"),
        ]
        indexes = [models.Index(fields=["venue", "day"], name="casino_dispute_venue_day_idx"),
                   models.Index(fields=["day"], name="casino_dispute_day_idx")]

    def __str__(self) -> str:
        return f"dispute {self.pk} at {self.table}"


class Complaint(models.Model):
    """A player's complaint and its deadlines (004 S2 §2.15, §2.16.4; casino.rules.complaints): the answer
    is due 10 working days after the day received (working days of the venue's country), extendable once
    by 10 more when the player is notified by then; winnings found payable are paid within 30 calendar
    days of the player's request. The engine's input and answer are kept with the dates they gave, so the
    record explains itself. Changed only by the services of `casino.complaints` (extension, answer,
    payment, the deadline job's marks), each a conditional update with its audit event."""

    class Channel(models.TextChoices):
        IN_PERSON = "in_person", _("In person")
        WRITTEN = "written", _("In writing")
        ELECTRONIC = "electronic", _("Electronically")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="complaints")
    person = models.ForeignKey("players.Person", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="casino_complaints")
    player_name = models.CharField(max_length=200, blank=True, help_text=_("A player who is not identified."))
    channel = models.CharField(max_length=12, choices=Channel.choices)
    received_on = models.DateField()
    subject = models.TextField()
    round = models.ForeignKey(RecordedRound, null=True, blank=True, on_delete=models.PROTECT, related_name="complaints")
    dispute = models.ForeignKey(Dispute, null=True, blank=True, on_delete=models.PROTECT, related_name="complaints")
    country = models.CharField(max_length=8, help_text=_("Whose working days count (the venue's country)."))
    deadline_input = models.JSONField(help_text=_("The deadline engine's input (casino_compute kind complaint)."))
    deadline_answer = models.JSONField(help_text=_("The deadline engine's answer to it."))
    answer_due = models.DateField()
    extension_notified_on = models.DateField(null=True, blank=True)
    extended_answer_due = models.DateField(null=True, blank=True)
    extended_at = models.DateTimeField(null=True, blank=True)
    extended_by_name = models.CharField(max_length=150, blank=True)
    answered_on = models.DateField(null=True, blank=True)
    answer_text = models.TextField(blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    answered_by_name = models.CharField(max_length=150, blank=True)
    winnings_cents = models.BigIntegerField(null=True, blank=True)
    winnings_recorded_at = models.DateTimeField(null=True, blank=True)
    payout_requested_on = models.DateField(null=True, blank=True)
    payment_due = models.DateField(null=True, blank=True)
    paid_on = models.DateField(null=True, blank=True)
    paid_reference = models.CharField(max_length=100, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by_name = models.CharField(max_length=150, blank=True)
    answer_overdue_at = models.DateTimeField(null=True, blank=True, help_text=_("When the deadline job found the answer overdue."))
    payment_overdue_at = models.DateTimeField(null=True, blank=True, help_text=_("When the deadline job found the payment overdue."))
    recorded_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    recorded_by_name = models.CharField(max_length=150)

    class Meta:
        ordering = ["answer_due", "id"]
        verbose_name = _("complaint")
        verbose_name_plural = _("complaints")
        default_permissions = ("view",)
        permissions = [("record_complaint", "Can record casino complaints"),
                       ("handle_complaint", "Can extend, answer and pay casino complaints")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(person__isnull=True, player_name=""),
                                   name="casino_complaint_player_named"),
            models.CheckConstraint(condition=models.Q(winnings_cents__isnull=True) | models.Q(winnings_cents__gt=0),
                                   name="casino_complaint_winnings_positive"),
            models.CheckConstraint(condition=models.Q(paid_on__isnull=True) | models.Q(winnings_cents__isnull=False),
                                   name="casino_complaint_paid_has_winnings"),
        ]
        indexes = [models.Index(fields=["venue", "received_on"], name="casino_complaint_venue_idx"),
                   models.Index(fields=["received_on"], name="casino_complaint_received_idx"),
                   models.Index(fields=["answered_on", "answer_due"], name="casino_complaint_open_idx")]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("A complaint is changed only by its services (casino.complaints), each audited.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A complaint is never deleted.")

    @property
    def due_on(self):
        """The last day to answer: the extended date once the one extension is used."""
        return self.extended_answer_due or self.answer_due

    @property
    def player(self) -> str:
        if self.person_id is not None:
            return f"{self.person.first_name} {self.person.last_name}"
        return self.player_name

    def __str__(self) -> str:
        return f"complaint {self.pk} at {self.venue}"
# Jackpots and side games (issue 19 item 3): their own module, loaded here so the app has one registry.
from .jackpot_models import Jackpot, JackpotAccrual, JackpotDay, JackpotEntry, JackpotVersion  # noqa: E402,F401
