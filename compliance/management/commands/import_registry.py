import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from compliance.models import ExclusionRegistry, RegistryImport
from compliance.registry_services import RegistryImportError, registry_import_stage


class Command(BaseCommand):
    help = (
        "Stage a register file (CSV, docs/compliance.md) for import into a registry. The whole file is "
        "checked first; on any error nothing is staged (exit 1, errors by line). A staged import replaces "
        "the registry's entries when a second person approves it on the approvals page."
    )

    def add_arguments(self, parser):
        parser.add_argument("registry", help="Registry name")
        parser.add_argument("file", help="CSV file")
        parser.add_argument("--by", required=True, help="User name of the staff member importing")
        parser.add_argument("--reason", default="")

    def handle(self, *args, **o):
        try:
            registry = ExclusionRegistry.objects.get(name=o["registry"])
        except ExclusionRegistry.DoesNotExist:
            raise CommandError(f"No registry named {o['registry']!r}.") from None
        user = get_user_model().objects.filter(username=o["by"], is_active=True).first()
        if user is None:
            raise CommandError(f"No active user {o['by']!r}.")
        path = Path(o["file"])
        try:
            batch = registry_import_stage(actor=user, registry=registry, data=path.read_bytes(), file_name=path.name,
                                          reason=o["reason"])
        except RegistryImportError as exc:
            raise CommandError(str(exc)) from None
        if batch.state == RegistryImport.State.FAILED:
            for e in batch.errors:
                self.stderr.write(f"line {e['row']}: {e['error']}")
            self.stderr.write(f"Refused: nothing was imported (import {batch.pk}).")
            sys.exit(1)
        self.stdout.write(self.style.SUCCESS(
            f"Staged import {batch.pk}: {batch.rows} entries, sha256 {batch.sha256}. "
            "A second person must approve it on the approvals page."
        ))
