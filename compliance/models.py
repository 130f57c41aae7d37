"""Compliance tables: the audit trail (DESIGN §5) and the staff access permissions."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class StaffAccess(models.Model):
    """Holds the permissions that are not about one table (no table of its own)."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            ("access_backoffice", "Can use the staff back office"),
            ("use_api", "Can use the integration API and read its documentation"),
            ("view_compliance_dashboard", "Can see the compliance dashboard"),
        ]


class AuditEvent(models.Model):
    """One append-only, keyed hash-chained audit record.

    `hash` is HMAC-SHA256, under the audit key `key_id` (AUDIT_HMAC_KEYS, kept outside the database),
    of the canonical JSON of the row's content, `key_id` and `prev_hash`, the hash of the row with the
    previous `seq`. Rows from before the key (empty `key_id`) carry the unkeyed SHA-256 of the first
    chain, sealed by the keyed event that follows them (migration 0008). Database triggers refuse
    UPDATE, DELETE and TRUNCATE, and an INSERT that does not follow the head (compliance.triggers);
    `manage.py audit_verify` recomputes the chain and compares it with the signed checkpoints.
    """

    seq = models.PositiveBigIntegerField(unique=True, editable=False)
    created_at = models.DateTimeField(db_index=True, editable=False)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_repr = models.CharField(max_length=150, help_text="User name, or system:<job> for jobs.")
    action = models.CharField(max_length=100, db_index=True)
    object_type = models.CharField(max_length=100, blank=True, db_index=True)
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(max_length=255, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    data = models.JSONField(null=True, blank=True)
    approver = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approver_repr = models.CharField(max_length=150, blank=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    significant = models.BooleanField(default=False, db_index=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)
    key_id = models.CharField(max_length=32, blank=True, default="", editable=False,
                              help_text="The audit key that sealed the row; empty for the unkeyed first chain.")

    class Meta:
        ordering = ["-seq"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} by {self.actor_repr}"


class AuditChainHead(models.Model):
    """Single row locked by every writer of the chain, so events are chained one at a time.

    It also remembers the last sequence number, hash and key, which lets the verifier notice a chain
    whose newest rows were removed. Triggers keep it honest: it cannot be deleted, moved backwards or
    set to anything but the last event (compliance.triggers).
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last_seq = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64)
    last_key_id = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        default_permissions = ()


class ExclusionRegistry(models.Model):
    """A register of people barred from gambling: a national one, a foreign state's (004-billionaire
    S2 §2.6) or the operator's own. Entries are matched by identifier hash, or by name and birth date.

    `adapter` names the class that answers look-ups (compliance.registries); the default reads the
    entries below. The compliance issue adds imports and other adapters.
    """

    class Kind(models.TextChoices):
        NATIONAL = "national", _("national register")
        FOREIGN = "foreign", _("foreign register")
        OPERATOR = "operator", _("operator's own list")
        INSIDER = "insider", _("insiders (staff and others who may not play)")
        RESTRICTED = "restricted", _("restricted-persons register")

    name = models.CharField(_("name"), max_length=100, unique=True)
    source = models.CharField(_("source"), max_length=200, help_text=_("Who keeps the register."))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.NATIONAL)
    jurisdiction = models.CharField(
        _("jurisdiction"), max_length=8, blank=True, help_text=_("Applies to people of this jurisdiction; empty: to all.")
    )
    adapter = models.CharField(max_length=200, default="compliance.registries.DatabaseRegistryAdapter")
    active = models.BooleanField(_("active"), default=True)
    last_updated = models.DateTimeField(_("last updated"), null=True, blank=True)
    # For adapters that ask a live register service (compliance.registries.LiveRegistryAdapter).
    endpoint = models.URLField(_("service address"), blank=True)
    timeout_seconds = models.FloatField(_("time-out (s)"), default=2.0)
    # Imported registers older than this are shown as stale on the compliance dashboard.
    max_age_hours = models.PositiveIntegerField(_("stale after (hours)"), default=48)

    class Meta:
        verbose_name = _("exclusion registry")
        verbose_name_plural = _("exclusion registries")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ExclusionEntry(models.Model):
    """One barred person in a registry, for a period (ends_at empty: until further notice)."""

    # No index of its own: the two look-up indexes below start with the registry.
    registry = models.ForeignKey(ExclusionRegistry, on_delete=models.PROTECT, related_name="entries", db_index=False)
    identifier_hash = models.CharField(max_length=64, blank=True)
    name_normalised = models.CharField(max_length=300, blank=True)
    # The name as the register or the staff wrote it ("Ville Sisäpiiri"), shown to staff; matching uses
    # name_normalised.
    name = models.CharField(_("name"), max_length=300, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    external_id = models.CharField(_("id in the source"), max_length=100, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Operator bans and insider entries are decided by staff; imported entries leave these empty.
    reason = models.CharField(_("reason"), max_length=255, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lifted_at = models.DateTimeField(_("lifted early at"), null=True, blank=True)
    # Which import the entry came from; informational, so no constraint check per imported row.
    batch = models.ForeignKey(
        "RegistryImport", null=True, blank=True, on_delete=models.DO_NOTHING, related_name="+", db_index=False,
        db_constraint=False,
    )

    class Meta:
        verbose_name = _("exclusion entry")
        verbose_name_plural = _("exclusion entries")
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(identifier_hash="")
                | (~models.Q(name_normalised="") & models.Q(birth_date__isnull=False)),
                name="compliance_exclusionentry_identifiable",
            ),
        ]
        indexes = [
            models.Index(fields=["registry", "name_normalised", "birth_date"], name="compliance_excl_name_idx"),
            # The screening look-up: one registry, one hash (docs/compliance.md, benchmark).
            models.Index(fields=["registry", "identifier_hash"], name="compliance_excl_hash_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.registry}: {self.external_id or self.pk}"

    @property
    def shown_name(self) -> str:
        """The name as entered; entries made before names were kept show their matching form,
        capitalised ("Ville Sisäpiiri"). "" for an entry by identifier only."""
        return self.name or self.name_normalised.title()


class ScreeningDecision(models.Model):
    """Every answer of compliance.screening.screen(): who asked, for what, allowed or not, and why."""

    class Action(models.TextChoices):
        REGISTER = "register", _("registration")
        LOGIN = "login", _("login")
        DEPOSIT = "deposit", _("deposit")
        STAKE = "stake", _("stake")
        PRIZE = "prize", _("prize credit")
        REFUND = "refund", _("refund")
        WITHDRAWAL = "withdrawal", _("withdrawal")

    created_at = models.DateTimeField(db_index=True)
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    person = models.ForeignKey(
        "players.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="screening_decisions"
    )
    # Refused registrations have no person row; the identifier hash says who it was.
    identifier_hash = models.CharField(max_length=64, blank=True)
    amount_cents = models.BigIntegerField(_("amount (cents)"), default=0)
    allowed = models.BooleanField(_("allowed"))
    reasons = models.JSONField(_("reasons"), default=list, blank=True)
    actor_repr = models.CharField(_("asked by"), max_length=150)

    class Meta:
        verbose_name = _("screening decision")
        verbose_name_plural = _("screening decisions")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["person", "created_at"], name="compliance_screen_person_idx")]

    def __str__(self) -> str:
        return f"{self.action}: {'allowed' if self.allowed else 'denied'}"


class FileJobRecord(models.Model):
    """What an import of an uploaded file carries for the file-job machinery (compliance.file_jobs:
    store_upload, claim, Progress, finish): the stored upload, the job's own error, and the phase's
    progress, heartbeat and claim attempt. Each import adds its `state` and `phase` (their choices are
    its own) and what the file makes. Abstract: each app keeps its own table."""

    size_bytes = models.BigIntegerField(default=0)
    # The upload in the default storage (file_jobs.store_upload); empty when the caller runs the job
    # itself on a file of its own (the command line).
    stored_file = models.CharField(max_length=200, blank=True)
    # Why the job itself stopped (not a row of the file): the exception, for staff and the log.
    error = models.TextField(blank=True)
    progress_done = models.BigIntegerField(default=0)  # of the current phase (see each model's Phase)
    progress_total = models.BigIntegerField(default=0)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)  # the claim's number: every write is conditioned on it

    class Meta:
        abstract = True


class RegistryImport(FileJobRecord):
    """One file imported into a registry: checked and staged by a worker (the upload is stored first
    and the record made `queued`, compliance.file_jobs), then applied (replacing every previous
    entry of the registry at once) when a second person approves it."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting to be checked")
        RUNNING = "running", _("being checked")
        STAGED = "staged", _("staged, awaiting approval")
        APPLIED = "applied", _("applied")
        REJECTED = "rejected", _("rejected")
        FAILED = "failed", _("failed validation")

    class Phase(models.TextChoices):
        NONE = "", _("finished")
        QUEUED = "queued", _("waiting for a worker")
        READING = "reading", _("checking the rows")
        STAGING = "staging", _("staging the entries")

    registry = models.ForeignKey(ExclusionRegistry, on_delete=models.PROTECT, related_name="imports")
    file_name = models.CharField(_("file"), max_length=255)
    sha256 = models.CharField(_("SHA-256 of the file"), max_length=64)
    size_bytes = models.BigIntegerField(_("size (bytes)"), default=0)  # FileJobRecord's, with its label here
    reason = models.CharField(_("reason"), max_length=255, blank=True)  # for the approval request
    rows = models.PositiveIntegerField(_("rows"), default=0)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.STAGED)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    # Progress (FileJobRecord): rows checked, then entries staged.
    phase = models.CharField(max_length=10, choices=Phase.choices, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_by_repr = models.CharField(_("uploaded by"), max_length=150)
    uploaded_at = models.DateTimeField(_("uploaded at"), default=timezone.now)
    applied_by_repr = models.CharField(_("approved by"), max_length=150, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    replaced_rows = models.PositiveIntegerField(_("entries replaced"), default=0)

    class Meta:
        verbose_name = _("registry import")
        verbose_name_plural = _("registry imports")
        ordering = ["-uploaded_at", "-pk"]
        permissions = [("import_registry", "Can upload a registry file for import")]
        constraints = [
            # A second upload of a file being checked attaches to that import (registry_services).
            models.UniqueConstraint(fields=["registry", "sha256"], condition=Q(state__in=["queued", "running"]),
                                    name="registryimport_file_active_once"),
        ]

    def __str__(self) -> str:
        # No state here: the text is kept by approvals and audit events, and the state changes.
        return f"{self.registry}: {self.file_name}"

    @property
    def in_progress(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.RUNNING)


class ExclusionStage(models.Model):
    """Rows of a staged import, waiting for approval (PostgreSQL fills it with COPY)."""

    # No constraint or index: COPY of a million rows should not check each one; rows are deleted by batch.
    batch = models.ForeignKey(RegistryImport, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False,
                              db_index=False)
    identifier_hash = models.CharField(max_length=64, blank=True)
    name_normalised = models.CharField(max_length=300, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    external_id = models.CharField(max_length=100, blank=True)
    name = models.CharField(max_length=300, blank=True)

    class Meta:
        default_permissions = ()


class RegistryCall(models.Model):
    """One call of a live register service: when, how long, and what came back (or the error)."""

    class Outcome(models.TextChoices):
        HIT = "hit", _("on the register")
        CLEAR = "clear", _("not on the register")
        ERROR = "error", _("no answer (refused)")

    registry = models.ForeignKey(ExclusionRegistry, on_delete=models.PROTECT, related_name="calls")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    identifier_hash = models.CharField(max_length=64, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=5, choices=Outcome.choices)
    error = models.CharField(max_length=255, blank=True)

    class Meta:
        verbose_name = _("registry call")
        verbose_name_plural = _("registry calls")
        ordering = ["-created_at", "-pk"]


class Approval(models.Model):
    """A four-eyes approval: one person asks, a different person approves or rejects.

    On approval the handler registered for `kind` (compliance.approvals) carries out the action in
    the same transaction. A step of the system may ask too (a finished settlement asks for its payout
    approval): then `requested_by` is empty and `requested_by_repr` names the job ("system:settlement").
    """

    class State(models.TextChoices):
        REQUESTED = "requested", _("requested")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        CANCELLED = "cancelled", _("cancelled")

    kind = models.CharField(_("kind"), max_length=60, db_index=True)
    target_type = models.CharField(_("object type"), max_length=100, blank=True)
    target_id = models.CharField(_("object id"), max_length=64, blank=True)
    target_repr = models.CharField(_("object"), max_length=255, blank=True)
    payload = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.REQUESTED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("requested by"),
    )
    # The requester's user name, or the job that asked ("system:settlement"); shown and audited.
    requested_by_repr = models.CharField(_("requested by"), max_length=150, blank=True)
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    note = models.TextField(_("decision note"), blank=True)

    class Meta:
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")
        ordering = ["-requested_at", "-pk"]
        permissions = [
            ("decide_approval", "Can approve or reject another person's request"),
            ("approve_role_grant", "Can approve giving a staff member a role"),
            ("approve_control_change", "Can approve a change of a control (registry switch, operator limit, "
             "regulated job schedule)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(decided_by__isnull=True) | ~models.Q(decided_by=models.F("requested_by")),
                name="compliance_approval_four_eyes",
            ),
            models.CheckConstraint(
                condition=models.Q(requested_by__isnull=False) | ~models.Q(requested_by_repr=""),
                name="compliance_approval_names_requester",
            ),
        ]
        indexes = [models.Index(fields=["state", "kind"], name="compliance_approval_state_idx")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def requester(self) -> str:
        """Who asked: the person's user name or the job."""
        if self.requested_by_repr:
            return self.requested_by_repr
        return self.requested_by.get_username() if self.requested_by_id else ""

    @property
    def requester_words(self) -> str:
        """Who asked, for the approvals page: the person's full name and user name, or the job in words."""
        if self.requested_by_id:
            full = self.requested_by.get_full_name().strip()
            user = self.requested_by.get_username()
            return f"{full} ({user})" if full else user
        if self.requested_by_repr.startswith("system:"):
            return gettext("system job: %(job)s") % {"job": self.requested_by_repr.split(":", 1)[1]}
        return self.requested_by_repr


class Report(models.Model):
    """A generated report: its parameters, the PDF and CSV archived with their SHA-256."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    kind = models.CharField(_("report"), max_length=40)
    params = models.JSONField(_("parameters"), default=dict)
    language = models.CharField(_("language"), max_length=8, default="en")
    version = models.CharField(_("template version"), max_length=20)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    error = models.TextField(blank=True)
    pdf = models.FileField(upload_to="reports/%Y/%m/", blank=True)
    csv = models.FileField(upload_to="reports/%Y/%m/", blank=True)
    sha256 = models.CharField(_("SHA-256 of the PDF"), max_length=64, blank=True)
    csv_sha256 = models.CharField(_("SHA-256 of the CSV"), max_length=64, blank=True)
    rows = models.PositiveIntegerField(_("rows"), default=0)
    pages = models.PositiveIntegerField(_("pages"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_repr = models.CharField(_("requested by"), max_length=150)
    created_at = models.DateTimeField(_("requested at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class Job(models.Model):
    """A durable background job (docs/architecture.md, "Jobs"): written in the transaction of the change
    that causes it, sent to the broker after commit and re-sent by the dispatcher until it is done.

    `kind` is the registered Celery task that does the work; `key` names the work (e.g.
    `lottery.pay_draw:42`): while a job with that key is not finished, asking again attaches to it.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    ACTIVE = (State.QUEUED, State.SENT, State.RUNNING)

    kind = models.CharField(_("kind"), max_length=100)
    key = models.CharField(_("key"), max_length=200)
    args = models.JSONField(_("arguments"), default=dict)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.QUEUED)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    sends = models.PositiveIntegerField(_("sent to the broker"), default=0)
    # Asked for again while running (new work may have arrived after the run read it): run once more.
    rerun = models.BooleanField(default=False)
    progress = models.BigIntegerField(_("progress"), default=0)
    progress_total = models.BigIntegerField(_("progress total"), default=0)
    heartbeat_at = models.DateTimeField(_("heartbeat"), null=True, blank=True)
    worker = models.CharField(_("worker"), max_length=200, blank=True)
    error = models.TextField(_("last error"), blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    not_before = models.DateTimeField(_("not before"), default=timezone.now)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_by_repr = models.CharField(_("requested by"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["key"], condition=models.Q(state__in=["queued", "sent", "running"]),
                                    name="compliance_job_one_active_per_key"),
        ]
        indexes = [
            models.Index(fields=["state", "not_before"], name="compliance_job_state_idx"),
            models.Index(fields=["key", "created_at"], name="compliance_job_key_idx"),
        ]
        # Each kind names who may send its jobs again (compliance.jobs.register_job_kind); this one
        # allows it for every kind.
        permissions = [("retry_job", "Can send any stalled or failed job again")]

    def __str__(self) -> str:
        return f"{self.key} #{self.pk}"

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        if not self.progress_total:
            return 0
        return max(0, min(100, int(self.progress * 100 // self.progress_total)))


class ProcessHeartbeat(models.Model):
    """A job process's sign of life (workers, beat, the dispatcher), refreshed every few seconds;
    /healthz counts the fresh ones."""

    class Role(models.TextChoices):
        WORKER = "worker", _("worker")
        BEAT = "beat", _("beat")
        DISPATCHER = "dispatcher", _("dispatcher")

    role = models.CharField(max_length=20, choices=Role.choices)
    name = models.CharField(max_length=200)
    started_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["role", "name"], name="compliance_heartbeat_one_per_process")]

    def __str__(self) -> str:
        return f"{self.role} {self.name}"
