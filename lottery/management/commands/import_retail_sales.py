"""Import a retail sales file for a draw (docs/draws.md, "Retail sales file").

    python manage.py import_retail_sales --draw lotto:1234 sales.csv [--by username] [--queue]

Exits 0 when the file was imported, 1 when it was refused (the report lists every bad row). The
import runs in this process; with --queue the file is stored and its import handed to a worker, as
an upload on the staff page is (the command prints the import's id and exits).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from compliance.bounds import INT_MAX, parse_int
from compliance.money import format_cents
from lottery.models import Draw
from lottery.services import DrawError
from lottery.services.retail import import_file, retail_import_submit


class Command(BaseCommand):
    help = "Import a retail sales CSV for a draw: all of it, or nothing and a report of every bad row."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--draw", required=True, help="draw id, or game:number (e.g. lotto:1234)")
        parser.add_argument("--by", help="user name of the staff member importing (needs lottery.import_sales)")
        parser.add_argument("--queue", action="store_true",
                            help="store the file and let a worker import it (the staff page shows the progress)")

    def handle(self, *args, file, draw, by=None, queue=False, **options):
        target = self._draw(draw)
        actor = "system:import_retail_sales"
        if by:
            actor = get_user_model().objects.filter(username=by, is_active=True).first()
            if actor is None or not actor.has_perm("lottery.import_sales"):
                raise CommandError(f"{by!r} is not an active user allowed to import sales (lottery.import_sales).")
        try:
            if queue:
                with open(file, "rb") as stream:
                    record, attached = retail_import_submit(actor=actor, draw=target, stream=stream,
                                                            file_name=file.rsplit("/", 1)[-1])
                record.refresh_from_db()  # without a broker the job has run already
                if record.in_progress:
                    self.stdout.write(f"{'Already being imported' if attached else 'Queued'}: import {record.pk} of "
                                      f"{record.file_name} into {target} (sha256 {record.file_sha256}).")
                    return
            else:
                record = import_file(actor=actor, draw=target, path=file)
        except (OSError, DrawError) as exc:
            raise CommandError(str(exc)) from exc
        if record.state == "done":
            self.stdout.write(f"Imported {record.file_name} into {target}: {record.rows} rows, {record.tickets} tickets, "
                              f"{record.lines} lines, stakes {format_cents(record.stake_cents, language='en')} ({record.method}).")
            return
        for entry in record.errors:
            self.stderr.write(f"row {entry['row']}: {'; '.join(entry['errors'])}")
        extra = record.error_count - len(record.errors)
        if extra > 0:
            self.stderr.write(f"... and {extra} more bad rows")
        raise CommandError(f"Refused: {record.error_count} bad rows; nothing was imported (import {record.pk}).")

    def _draw(self, ref: str) -> Draw:
        if ":" in ref:
            game, number = ref.split(":", 1)
            number = parse_int(number, maximum=INT_MAX)
            found = Draw.objects.filter(game__code=game, number=number).first() if number is not None else None
        else:
            found = Draw.objects.filter(pk=parse_int(ref)).first() if parse_int(ref) is not None else None
        if found is None:
            raise CommandError(f"No draw {ref!r}.")
        return found
