"""Move the audit chain to the newest key of AUDIT_HMAC_KEYS: `audit_rotate_key --by ADMIN`.

First list the new key first in AUDIT_HMAC_KEYS on every process (the old keys stay listed, for
verifying), then run this once: it records `audit.key_rotated` (significant, sealed with the new key),
after which every event is sealed with it, and writes a checkpoint signed with the new key.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from compliance.audit import audit_key_rotate, checkpoint_write
from compliance.roles import ADMINISTRATOR


class Command(BaseCommand):
    help = "Seal the audit chain with the newest key of AUDIT_HMAC_KEYS from now on (audited)."

    def add_arguments(self, parser):
        parser.add_argument("--by", required=True, help="the Administrator doing it (recorded in the audit trail)")
        parser.add_argument("--reason", default="", help="why (scheduled rotation, suspected exposure, ...)")

    def handle(self, *args, **options):
        try:
            admin = get_user_model().objects.get(username=options["by"], is_active=True)
        except get_user_model().DoesNotExist:
            raise CommandError(f"No active user {options['by']!r} (--by).", returncode=2)
        if not admin.groups.filter(name=ADMINISTRATOR).exists():
            raise CommandError(f"{admin.username} is not an Administrator: only an Administrator may rotate the "
                               "audit key.", returncode=2)
        try:
            event = audit_key_rotate(actor=admin, reason=options["reason"])
        except (ValueError, ImproperlyConfigured) as exc:
            raise CommandError(str(exc), returncode=2)
        self.stdout.write(f"Audit chain sealed with key {event.key_id!r} from seq {event.seq} on "
                          f"(audit.key_rotated, from {event.data['from']!r}).")
        checkpoint, report = checkpoint_write()
        if checkpoint is not None:
            self.stdout.write(f"Checkpoint written at seq {checkpoint.seq}, signed with {checkpoint.key_id!r}.")
        elif not report.ok:
            raise CommandError(f"The audit chain does not verify: {report.reason} (seq {report.bad_seq}).")
