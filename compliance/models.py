"""Compliance tables: the audit trail (DESIGN §5) and the staff access permissions."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class StaffAccess(models.Model):
    """Holds the permissions that are not about one table (no table of its own)."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            ("access_backoffice", "Can use the staff back office"),
            ("use_api", "Can use the integration API and read its documentation"),
        ]


class AuditEvent(models.Model):
    """One append-only, hash-chained audit record.

    `hash` is SHA-256 over the canonical JSON of the row's content and `prev_hash`, the hash of the
    row with the previous `seq`. Database triggers refuse UPDATE, DELETE and TRUNCATE (migration
    0002); `manage.py audit_verify` recomputes the chain.
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

    class Meta:
        ordering = ["-seq"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} by {self.actor_repr}"


class AuditChainHead(models.Model):
    """Single row locked by every writer of the chain, so events are chained one at a time.

    It also remembers the last sequence number and hash, which lets the verifier notice a chain
    whose newest rows were removed.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last_seq = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64)

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

    name = models.CharField(_("name"), max_length=100, unique=True)
    source = models.CharField(_("source"), max_length=200, help_text=_("Who keeps the register."))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.NATIONAL)
    jurisdiction = models.CharField(
        _("jurisdiction"), max_length=8, blank=True, help_text=_("Applies to people of this jurisdiction; empty: to all.")
    )
    adapter = models.CharField(max_length=200, default="compliance.registries.DatabaseRegistryAdapter")
    active = models.BooleanField(_("active"), default=True)
    last_updated = models.DateTimeField(_("last updated"), null=True, blank=True)

    class Meta:
        verbose_name = _("exclusion registry")
        verbose_name_plural = _("exclusion registries")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ExclusionEntry(models.Model):
    """One barred person in a registry, for a period (ends_at empty: until further notice)."""

    registry = models.ForeignKey(ExclusionRegistry, on_delete=models.PROTECT, related_name="entries")
    identifier_hash = models.CharField(max_length=64, blank=True, db_index=True)
    name_normalised = models.CharField(max_length=300, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"), null=True, blank=True)
    external_id = models.CharField(_("id in the source"), max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

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
        indexes = [models.Index(fields=["registry", "name_normalised", "birth_date"], name="compliance_excl_name_idx")]

    def __str__(self) -> str:
        return f"{self.registry}: {self.external_id or self.pk}"


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
