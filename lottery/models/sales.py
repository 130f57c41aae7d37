"""Wagers (tickets), their lines, retail sales imports and refunds (digest §2, §7, §8)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from compliance.models import FileJobRecord

from .draws import Draw

RETAIL = "retail"


class RetailImport(FileJobRecord):
    """One retail sales file loaded for a draw: all of it or, when a row is bad, none of it.

    Failed imports are kept too, with the report of every bad row (docs/draws.md). The upload is
    stored first and the record made `queued`; a worker claims it (`running`, compliance.file_jobs)
    and publishes its phase and progress here, which the import's page polls.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting to start")
        RUNNING = "running", _("being imported")
        DONE = "done", _("imported")
        FAILED = "failed", _("refused")

    class Phase(models.TextChoices):
        NONE = "", _("finished")
        QUEUED = "queued", _("waiting for a worker")
        READING = "reading", _("reading the file")
        CHECKING = "checking", _("checking the rows and tickets")
        WRITING = "writing", _("writing the wagers and lines")
        FINISHING = "finishing", _("finishing")

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="retail_imports")
    state = models.CharField(max_length=8, choices=State.choices)
    file_name = models.CharField(max_length=255)
    file_sha256 = models.CharField(max_length=64)
    method = models.CharField(max_length=20, blank=True, help_text=_("copy (PostgreSQL) or batches"))
    # PostgreSQL COPY imports number their wagers and lines batch * 2**32 + row (see services.retail).
    batch = models.BigIntegerField(null=True, blank=True)
    rows = models.BigIntegerField(default=0)
    tickets = models.BigIntegerField(default=0)
    lines = models.BigIntegerField(default=0)
    stake_cents = models.BigIntegerField(default=0)
    error_count = models.BigIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    # Progress (FileJobRecord): bytes of the file read, then lines written.
    phase = models.CharField(max_length=10, choices=Phase.choices, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_repr = models.CharField(max_length=150)
    started_at = models.DateTimeField()  # when the file was handed in
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = _("retail sales import")
        verbose_name_plural = _("retail sales imports")
        permissions = [("import_sales", "Can import retail sales files")]
        constraints = [
            models.UniqueConstraint(
                fields=["draw", "file_sha256"], condition=Q(state="done"), name="retailimport_file_once"
            ),
            # A second upload of a file being imported attaches to that import (services.retail).
            models.UniqueConstraint(
                fields=["draw", "file_sha256"], condition=Q(state__in=["queued", "running"]),
                name="retailimport_file_active_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_state_display()})"

    @property
    def in_progress(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.RUNNING)


class Wager(models.Model):
    """A ticket: binding once paid and accepted into the game system (§7); never edited.

    A wager belongs to a player (online channels) or to an anonymous retail sale. Its lines are in
    its main draw and, for add-on games, in the add-on draws linked to it.
    """

    channel = models.CharField(max_length=32)
    reference = models.CharField(max_length=64, help_text=_("Unique per channel: the ticket or business event."))
    # Wagers arrive by the hundred thousand in a retail file: no database foreign keys (a row trigger
    # each) and only the indexes reads need. The importing service writes the draw and the import
    # record in the same transaction; neither is ever deleted (PROTECT).
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, db_constraint=False, db_index=False, related_name="wagers")
    # The player of an online wager; none for an anonymous retail sale. No database constraint (see
    # above); the wager service checks the player and debits their game account in the same transaction.
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.PROTECT, db_constraint=False, db_index=False,
        related_name="wagers",
    )
    retail_terminal = models.CharField(max_length=64, blank=True)
    retail_import = models.ForeignKey(
        RetailImport, null=True, blank=True, on_delete=models.PROTECT, db_constraint=False, db_index=False,
        related_name="wagers",
    )
    sold_at = models.DateTimeField()
    paid = models.BooleanField(default=True)
    accepted_at = models.DateTimeField()
    stake_cents = models.BigIntegerField()
    line_count = models.IntegerField(default=0)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("wager")
        verbose_name_plural = _("wagers")
        permissions = [("submit_wager", "Can submit wagers for players as a sales channel")]
        constraints = [
            models.UniqueConstraint(fields=["channel", "reference"], name="wager_channel_reference_unique"),
            models.CheckConstraint(condition=Q(stake_cents__gt=0), name="wager_stake_positive"),
            models.CheckConstraint(condition=Q(paid=True), name="wager_is_paid"),
        ]
        indexes = [
            # Player wagers are looked up by player; retail wagers (no player) stay out of the index.
            models.Index(fields=["player_id"], condition=Q(player_id__isnull=False), name="wager_player_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.channel}:{self.reference}"


class Line(models.Model):
    """One line, stored compactly for set-based matching (DESIGN §3 step 2).

    Number n is bit n-1 of `main_mask`; `extra_mask` holds the Eurojackpot stars or the Vikinglotto
    Viking number the same way; `plus` is the Plussa plus number (null: not in Plussa). Stakes in cents:
    `stake_cents` is the game fee, `addon_cents` the add-on fee (Plussa), kept apart because shares are
    computed from turnover without the Plussa extra turnover (§28, §30).

    Lines are written in bulk (millions per draw), so the draw and wager links are not database
    foreign keys: the services that write lines create the wagers in the same transaction. Their
    indexes are made per database. SQLite: b-trees on (draw, id) and wager (migration 0003).
    PostgreSQL: the table is partitioned by ranges of id (migration 0005). The first partition holds
    the lines numbered by the sequence (below 2**32), with BRIN indexes on draw and wager; each COPY
    retail import loads its lines into partitions of its own, built without indexes, then given a
    BRIN index on (id, wager) and attached (services.retail); their CHECK constraints (one draw, the
    batch's wagers, the piece's ids) keep them out of queries for other draws and wagers. The
    partitioned table has no primary key of its own (migration 0008): the first partition keeps one
    on id; an import numbers its lines itself, each row once.
    """

    draw = models.ForeignKey(Draw, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+")
    wager = models.ForeignKey(Wager, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="lines")
    main_mask = models.BigIntegerField()
    extra_mask = models.SmallIntegerField(default=0)
    plus = models.SmallIntegerField(null=True, blank=True)
    flags = models.SmallIntegerField(default=0)
    stake_cents = models.IntegerField()
    addon_cents = models.IntegerField(default=0)

    class Meta:
        ordering = ["id"]
        verbose_name = _("line")
        verbose_name_plural = _("lines")

    def __str__(self) -> str:
        return f"line {self.pk}"


class WagerRefund(models.Model):
    """A stake owed back because the draw could not be conducted (§8): one per wager and draw.

    Retail refunds are paid at the point of sale; player refunds go through the game account ledger.
    """

    class State(models.TextChoices):
        DUE = "due", _("due")
        PAID = "paid", _("paid")

    wager = models.ForeignKey(Wager, on_delete=models.PROTECT, related_name="refunds")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="refunds")
    amount_cents = models.BigIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.DUE)
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("wager refund")
        verbose_name_plural = _("wager refunds")
        constraints = [
            models.UniqueConstraint(fields=["wager", "draw"], name="wagerrefund_once"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="wagerrefund_positive"),
        ]


class LomatonniCity(models.Model):
    """A Lomatonni city (§19) as sales and results name it, numbered so that a line stores its city
    and number in one integer (lottery.games.lomatonni). Cities are compared as the prize engine
    compares them: the case-folded name is the key. Rows are added by the sales services, never
    changed or deleted (stored lines refer to their code)."""

    key = models.CharField(max_length=100, unique=True, help_text=_("The case-folded name."))
    name = models.CharField(max_length=100, help_text=_("The name as first sold."))

    class Meta:
        ordering = ["name"]
        verbose_name = _("Lomatonni city")
        verbose_name_plural = _("Lomatonni cities")

    def __str__(self) -> str:
        return self.name
