"""Remove a user's second-factor device (a lost or replaced phone): `otp_reset USER --by ADMIN`.

Only an active Administrator may do it; the reset is a significant audit event naming both users.
The user enrols a new device at the next sign-in.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from compliance.otp import reset_devices
from compliance.roles import ADMINISTRATOR


class Command(BaseCommand):
    help = "Remove a staff user's second-factor (TOTP) devices; they enrol again at the next sign-in."

    def add_arguments(self, parser):
        parser.add_argument("username", help="whose device to remove")
        parser.add_argument("--by", required=True, help="the Administrator doing it (recorded in the audit trail)")

    def handle(self, *args, **options):
        User = get_user_model()
        try:
            user = User.objects.get(username=options["username"])
        except User.DoesNotExist:
            raise CommandError(f"No user {options['username']!r}.", returncode=2)
        try:
            admin = User.objects.get(username=options["by"], is_active=True)
        except User.DoesNotExist:
            raise CommandError(f"No active user {options['by']!r} (--by).", returncode=2)
        if not admin.groups.filter(name=ADMINISTRATOR).exists():
            raise CommandError(f"{admin.username} is not an Administrator: only an Administrator may reset a device.",
                               returncode=2)
        if admin.pk == user.pk:
            raise CommandError("An Administrator cannot reset their own device; ask another Administrator.", returncode=2)
        removed = reset_devices(actor=admin, user=user)
        self.stdout.write(f"Removed {removed} device(s) of {user.username}; they enrol again at the next sign-in.")
