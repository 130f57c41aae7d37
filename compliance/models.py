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
