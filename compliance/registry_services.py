"""Exclusion registries: file imports (staged, applied on a second person's approval, replacing the
previous import atomically), operator bans and insiders decided by staff, and early lifting of a
ban through a four-eyes approval. File format: docs/compliance.md.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import approval_words, file_jobs
from .approvals import FourEyesError, approval_request, register_approval_handler
from .audit import audit_record
from .errors import RuleRefused, stored_message
from .idcodes import identifier_problem, normalise_name
from .identity import identifier_hash
from .jobs import job_enqueue
from .models import ExclusionEntry, ExclusionRegistry, ExclusionStage, RegistryImport
from .services import exclusion_entry_add

log = logging.getLogger(__name__)
IMPORT_KIND = "registry.import"
LIFT_KIND = "registry.lift_ban"
# Registers that are files from an outside keeper; the others are kept by staff, entry by entry.
IMPORTABLE_KINDS = {ExclusionRegistry.Kind.NATIONAL, ExclusionRegistry.Kind.FOREIGN, ExclusionRegistry.Kind.RESTRICTED}
STAFF_KEPT_KINDS = {ExclusionRegistry.Kind.OPERATOR, ExclusionRegistry.Kind.INSIDER, ExclusionRegistry.Kind.RESTRICTED}
COLUMNS = ("identifier", "country", "last_name", "first_name", "birth_date", "starts", "ends", "external_id")
MAX_REPORTED_ERRORS = 200
# Dates of a register are within these years (a date outside is a typo, or 9999-12-31 meaning "no
# end", which is written as an empty `ends`).
LATEST_YEAR_BACK, LATEST_YEAR = 1900, 2999
# The csv module's default limit (131,072 characters); a longer field is reported, not a crash.
MAX_FIELD = csv.field_size_limit()


class RegistryImportError(RuleRefused):
    """A register file or entry that is refused; `errors` lists the rows (when a file is)."""

    code = "registry_refused"

    def __init__(self, message, errors: list[dict] | None = None, **params):
        super().__init__(message, **params)
        self.errors = errors or []


@dataclass
class Parsed:
    rows: list[tuple] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    error_count: int = 0


def _zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


class _Times:
    """Dates -> aware datetimes at local midnight, memoised (a register has few distinct dates)."""

    def __init__(self):
        self.zone = _zone()
        self.cache: dict[str, dt.datetime] = {}

    def at(self, text: str, *, end: bool) -> dt.datetime:
        key = f"{end}:{text}"
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        try:
            if len(text) == 10:
                day = dt.date.fromisoformat(text)
                if end:  # "ends" is the last day barred, inclusive: the bar ends at the next local midnight
                    day += dt.timedelta(days=1)
                value = dt.datetime.combine(day, dt.time(), tzinfo=self.zone)
            else:
                value = dt.datetime.fromisoformat(text)
                if value.tzinfo is None:
                    value = value.replace(tzinfo=self.zone)
            value = value.astimezone(dt.UTC)
        except OverflowError as exc:  # 9999-12-31 as an inclusive end, or an offset past year 9999
            raise ValueError(text) from exc
        if not (LATEST_YEAR_BACK <= value.year <= LATEST_YEAR):
            raise ValueError(text)
        self.cache[key] = value
        return value


PROGRESS_LINES = 20_000  # lines between two progress reports while a file is checked
REPEATS_IDENTIFIER = _("row %(row)s repeats row %(first)s (the same identifier).")
REPEATS_NAME = _("row %(row)s repeats row %(first)s (the same name and birth date).")


def parse_registry_file(data: bytes, progress: Callable[[int], None] | None = None) -> Parsed:
    """Validate every row; return the rows to stage or the row-numbered errors (line 1 = header).
    `progress(line)` is called every PROGRESS_LINES lines."""
    out = Parsed()

    def err(line: int, template, **params) -> None:
        """A row error: stored in English with what shows it in the reader's language (`error`,
        `msgid`, `params`; `compliance.errors.shown_message(e, "error")`)."""
        out.error_count += 1
        if len(out.errors) < MAX_REPORTED_ERRORS:
            stored = stored_message(template, **params)
            out.errors.append({"row": line, "error": stored["message"], "msgid": stored["msgid"],
                               "params": stored["params"]})

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        err(1, _("The file is not UTF-8 text."))
        return out
    if "\x00" in text:
        err(text.count("\n", 0, text.index("\x00")) + 1, _("The line holds a NUL character: the file is not CSV text."))
        return out
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        err(1, _("The header is not CSV: %(problem)s."), problem=str(exc))
        return out
    if not header:
        err(1, _("The file is empty; the first line must name the columns."))
        return out
    header = [h.strip().lower() for h in header]
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        err(1, _("Unknown column(s): %(unknown)s. Allowed: %(allowed)s."),
            unknown=", ".join(unknown), allowed=", ".join(COLUMNS))
    if "starts" not in header:
        err(1, _("The column 'starts' is required."))
    if "identifier" not in header and not {"last_name", "birth_date"} <= set(header):
        err(1, _("Either 'identifier' or 'last_name' and 'birth_date' columns are required."))
    if out.errors:
        return out
    idx = {name: header.index(name) for name in COLUMNS if name in header}
    times = _Times()
    width = len(header)
    seen: dict[tuple, int] = {}
    line = 1
    while True:
        try:
            raw = next(reader, None)
        except csv.Error as exc:  # e.g. a field longer than MAX_FIELD characters; the rest cannot be read
            err(reader.line_num, _("Not CSV: %(problem)s (at most %(max)s characters a field)."),
                problem=str(exc), max=MAX_FIELD)
            break
        if raw is None:
            break
        line = reader.line_num
        if progress is not None and line % PROGRESS_LINES == 0:
            progress(line)
        if not raw or (len(raw) == 1 and not raw[0].strip()):
            continue
        if len(raw) != width:
            err(line, _("Expected %(width)s values, found %(found)s."), width=width, found=len(raw))
            continue
        get = lambda name: raw[idx[name]].strip() if name in idx else ""  # noqa: E731
        identifier, country = get("identifier"), (get("country") or "FI").upper()
        last, first, birth_text = get("last_name"), get("first_name"), get("birth_date")
        birth = None
        if birth_text:
            try:
                birth = dt.date.fromisoformat(birth_text)
            except ValueError:
                err(line, _("birth_date %(value)s is not a date (YYYY-MM-DD)."), value=repr(birth_text))
                continue
        if not identifier and not (last and birth):
            err(line, _("Each row needs an identifier, or a last name and a birth date."))
            continue
        if len(country) != 2 or not country.isascii() or not country.isalpha():
            err(line, _("country %(value)s must be a two-letter code."), value=repr(country))
            continue
        if birth is not None and not (LATEST_YEAR_BACK <= birth.year <= timezone.localdate().year):
            err(line, _("birth_date %(value)s is not a possible birth date."), value=repr(birth_text))
            continue
        if identifier and (problem := identifier_problem(identifier, country)):
            err(line, _("identifier: %(problem)s."), problem=problem)
            continue
        try:
            starts = times.at(get("starts"), end=False)
        except ValueError:
            err(line, _("starts %(value)s is not a date (YYYY-MM-DD) or an ISO date-time."), value=repr(get("starts")))
            continue
        ends = None
        if get("ends"):
            try:
                ends = times.at(get("ends"), end=True)
            except ValueError:
                err(line, _("ends %(value)s is not a date (YYYY-MM-DD) or an ISO date-time."), value=repr(get("ends")))
                continue
            if ends <= starts:
                err(line, _("ends is before starts."))
                continue
        id_hash = identifier_hash(identifier, country) if identifier else ""
        name = normalise_name(first, last) if (first or last) else ""
        # One row per person: the same identifier, or (without one) the same name and birth date.
        key = ("id", id_hash) if id_hash else ("name", name, birth)
        if key in seen:
            err(line, REPEATS_IDENTIFIER if id_hash else REPEATS_NAME, row=line, first=seen[key])
            continue
        seen[key] = line
        external = get("external_id")[:100]
        shown = " ".join(part for part in (first, last) if part)[:300]
        out.rows.append((id_hash, name, birth, starts, ends, external, shown))
    if not out.rows and not out.error_count:
        err(1, _("The file has no entries."))
    return out


def _stage_rows(batch: RegistryImport, rows: list[tuple], progress: file_jobs.Progress | None = None) -> None:
    if connection.vendor == "postgresql":
        sql = (
            "COPY compliance_exclusionstage (batch_id, identifier_hash, name_normalised, birth_date, starts_at, "
            "ends_at, external_id, name) FROM STDIN"
        )
        with connection.cursor() as cur, cur.copy(sql) as copy:
            for n, r in enumerate(rows, start=1):
                copy.write_row((batch.pk, *r))
                if progress is not None and n % PROGRESS_LINES == 0:
                    progress.advance(n)
        return
    ExclusionStage.objects.bulk_create(
        (ExclusionStage(batch=batch, identifier_hash=r[0], name_normalised=r[1], birth_date=r[2], starts_at=r[3],
                        ends_at=r[4], external_id=r[5], name=r[6]) for r in rows),
        batch_size=2000,
    )


def _stale_seconds() -> int:
    return int(getattr(settings, "REGISTRY_IMPORT_STALE_SECONDS", 120))


def registry_import_submit(*, actor, registry: ExclusionRegistry, stream: IO[bytes], file_name: str,
                           reason: str = "", request=None, store: bool = True,
                           start: bool = True) -> tuple[RegistryImport, bool]:
    """Hand in a register file: stored (content-addressed) and recorded `queued`, with its audit
    event, in one transaction; a job (`registry_import_run`) checks and stages it once that is
    committed. Returns (import, attached): the same file for the same registry while it is being
    checked is not queued again, its import is returned (attached). RegistryImportError (nothing
    recorded) for a registry that takes no files. `store=False`: the caller runs the job itself."""
    if registry.kind not in IMPORTABLE_KINDS:
        raise RegistryImportError(_("%(registry)s is kept by staff entry by entry; it cannot be replaced by a file."),
                                  registry=str(registry))
    sha, size = file_jobs.fingerprint(stream)
    name = file_jobs.store_upload(stream, sha) if store else ""
    for _attempt in range(3):
        active = RegistryImport.objects.filter(registry=registry, sha256=sha, state__in=file_jobs.ACTIVE).first()
        if active is not None:
            attached = _attach(active)
            if attached is not None:
                return attached, True
            continue
        try:
            with transaction.atomic():
                batch = RegistryImport.objects.create(
                    registry=registry, file_name=file_name[:255], sha256=sha, size_bytes=size, stored_file=name,
                    reason=(reason or "")[:255], uploaded_by=None if isinstance(actor, str) else actor,
                    uploaded_by_repr=actor if isinstance(actor, str) else actor.get_username(),
                    state=RegistryImport.State.QUEUED, phase=RegistryImport.Phase.QUEUED,
                )
                audit_record(actor=actor, action="registry.import_queued", obj=batch, request=request,
                             data={"registry": registry.name, "file": batch.file_name, "sha256": sha,
                                   "size_bytes": size})
                if start:
                    _start(batch.pk)
        except IntegrityError:  # the same file queued by another request meanwhile: attach to it
            continue
        return batch, False
    raise RegistryImportError(_("The same file is being handed in by several requests at once; try again."))


def _attach(active: RegistryImport) -> RegistryImport | None:
    return file_jobs.attach(active, stale_seconds=_stale_seconds(), start=_start, stopped=lambda batch: _stopped(
        batch, "the check stopped before it finished (its process ended); nothing was staged"))


def _start(import_id: int) -> None:
    """The one place a register import is handed to a worker: a durable job (compliance.jobs) written in the
    caller's transaction, sent after commit and sent again by the dispatcher until it is done. A second
    request for the same import attaches to its unfinished job."""
    job_enqueue(kind="compliance.tasks.registry_import_run", key=f"compliance.registry_import:{import_id}", args={"import_id": import_id})


def registry_import_run(import_id: int, *, data: bytes | None = None) -> RegistryImport:
    """The job: claim the queued import (or one whose worker died), validate the whole stored file (or
    `data`); on any error nothing is staged and the import is recorded as failed with its row-numbered
    errors. Otherwise the rows are staged and a second person's approval is requested, in one
    transaction; the register is unchanged until then. Safe to run twice; errors of the job itself
    are recorded on the import, never raised."""
    attempt = file_jobs.claim_for_job(RegistryImport, import_id, stale_seconds=_stale_seconds(),
                              phase=RegistryImport.Phase.READING, progress_done=0, progress_total=0)
    batch = RegistryImport.objects.select_related("registry", "uploaded_by").get(pk=import_id)
    if attempt is None:
        return batch
    progress = file_jobs.Progress(RegistryImport, import_id, attempt)
    try:
        if data is None:
            if not batch.stored_file:
                raise RegistryImportError(_("the import has no stored file to read"))
            with default_storage.open(batch.stored_file, "rb") as stored:
                data = stored.read()
        if hashlib.sha256(data).hexdigest() != batch.sha256:
            raise RegistryImportError(_("the stored file does not match the SHA-256 recorded when it was handed in"))
        return _check_and_stage(batch, data, progress)
    except file_jobs.ImportLost:
        log.warning("registry import %s: taken over by another worker; this attempt's work is undone", import_id)
        return RegistryImport.objects.get(pk=import_id)
    except Exception as exc:  # noqa: BLE001 - recorded on the import and logged; nothing was staged
        log.exception("registry import %s failed", import_id)
        _stopped(batch, f"{type(exc).__name__}: {exc}")
        return RegistryImport.objects.get(pk=import_id)
    finally:
        progress.close()


def _check_and_stage(batch: RegistryImport, data: bytes, progress: file_jobs.Progress) -> RegistryImport:
    actor = batch.uploaded_by or batch.uploaded_by_repr
    registry = batch.registry
    progress.phase(RegistryImport.Phase.READING, 0, data.count(b"\n"))
    parsed = parse_registry_file(data, progress=progress.advance)
    if not parsed.error_count:
        progress.phase(RegistryImport.Phase.STAGING, 0, len(parsed.rows), rows=len(parsed.rows))
    with transaction.atomic():
        if not parsed.error_count:
            _stage_rows(batch, parsed.rows, progress)
        # The record last: after this the transaction holds its row (no more progress is written).
        file_jobs.finish(batch, state=RegistryImport.State.FAILED if parsed.error_count else RegistryImport.State.STAGED,
                rows=len(parsed.rows), errors=parsed.errors)
        audit_record(
            actor=actor,
            action="registry.import_failed" if parsed.error_count else "registry.import_staged",
            obj=batch,
            data={"registry": registry.name, "file": batch.file_name, "sha256": batch.sha256, "rows": batch.rows,
                  "errors": parsed.error_count},
        )
        if not parsed.error_count:
            approval_request(actor=actor, kind=IMPORT_KIND, obj=batch,
                             payload={"registry": registry.name, "rows": batch.rows, "sha256": batch.sha256},
                             reason=batch.reason or f"Import {batch.file_name} into {registry.name}")
    return batch


def _stopped(batch: RegistryImport, error: str) -> None:
    """The job itself failed (not the file): recorded as failed with the reason, audited."""
    with transaction.atomic():
        if RegistryImport.objects.filter(pk=batch.pk, state__in=file_jobs.ACTIVE).update(
                state=RegistryImport.State.FAILED, phase="", error=error[:2000]):
            audit_record(actor=batch.uploaded_by or batch.uploaded_by_repr, action="registry.import_stopped", obj=batch,
                         data={"registry": batch.registry.name, "file": batch.file_name, "sha256": batch.sha256,
                               "error": error[:500]})


def registry_import_stage(*, actor, registry: ExclusionRegistry, data: bytes, file_name: str,
                          reason: str = "", request=None) -> RegistryImport:
    """Check and stage a register file now, in this process (the command line, the demo, tests):
    recorded like an upload, run like the job. Returns the import: `staged` (a second person's
    approval requested) or `failed` with its row-numbered errors."""
    batch, attached = registry_import_submit(actor=actor, registry=registry, stream=io.BytesIO(data),
                                             file_name=file_name, reason=reason, request=request, store=False,
                                             start=False)
    if attached or batch.state != RegistryImport.State.QUEUED:
        return batch
    return registry_import_run(batch.pk, data=data)


def _apply_import(approval, *, approver) -> None:
    """Approval handler: swap the staged rows in for the registry's entries, in the decider's transaction."""
    batch = RegistryImport.objects.select_for_update().get(pk=approval.target_id)
    if batch.state != RegistryImport.State.STAGED:
        raise FourEyesError(_("Import %(import)s is %(state)s; it cannot be applied."),
                            state=RegistryImport.State(batch.state).label, **{"import": batch.pk})
    registry = ExclusionRegistry.objects.select_for_update().get(pk=batch.registry_id)
    now = timezone.now()
    with connection.cursor() as cur:
        cur.execute("DELETE FROM compliance_exclusionentry WHERE registry_id = %s", [registry.pk])
        replaced = max(cur.rowcount, 0)
        cur.execute(
            "INSERT INTO compliance_exclusionentry (registry_id, identifier_hash, name_normalised, birth_date, "
            "starts_at, ends_at, external_id, created_at, reason, batch_id, name) "
            "SELECT %s, identifier_hash, name_normalised, birth_date, starts_at, ends_at, external_id, %s, '', "
            "batch_id, name FROM compliance_exclusionstage WHERE batch_id = %s ORDER BY id",
            [registry.pk, connection.ops.adapt_datetimefield_value(now), batch.pk],
        )
        cur.execute("DELETE FROM compliance_exclusionstage WHERE batch_id = %s", [batch.pk])
        if connection.vendor == "postgresql":
            cur.execute("ANALYZE compliance_exclusionentry")  # fresh statistics for the look-up plans
    batch.state = RegistryImport.State.APPLIED
    batch.applied_at = now
    batch.applied_by_repr = approver.get_username()
    batch.replaced_rows = replaced
    batch.save(update_fields=["state", "applied_at", "applied_by_repr", "replaced_rows"])
    registry.last_updated = now
    registry.save(update_fields=["last_updated"])
    audit_record(
        actor=batch.uploaded_by or batch.uploaded_by_repr,
        action="registry.import_applied",
        obj=batch,
        data={"registry": registry.name, "rows": batch.rows, "replaced": replaced, "sha256": batch.sha256},
        approver=approver,
        significant=True,
    )


def _reject_import(approval, *, approver) -> None:
    batch = RegistryImport.objects.select_for_update().get(pk=approval.target_id)
    ExclusionStage.objects.filter(batch=batch).delete()
    batch.state = RegistryImport.State.REJECTED
    batch.save(update_fields=["state"])


@transaction.atomic
def ban_add(*, actor, registry: ExclusionRegistry, reason: str, national_id: str = "", id_country: str = "FI",
            first_name: str = "", last_name: str = "", birth_date=None, starts_at=None, ends_at=None,
            request=None) -> ExclusionEntry:
    """An operator ban, an insider or a restricted person, decided by staff (`actor`) with a reason."""
    if registry.kind not in STAFF_KEPT_KINDS:
        raise RegistryImportError(_("%(registry)s is filled by imports only."), registry=str(registry))
    if not reason.strip():
        raise RegistryImportError(_("A ban needs a reason."))
    return exclusion_entry_add(
        actor=actor, registry=registry, national_id=national_id, id_country=id_country, first_name=first_name,
        last_name=last_name, birth_date=birth_date, starts_at=starts_at, ends_at=ends_at, reason=reason.strip(),
        decided_by=None if isinstance(actor, str) else actor, request=request,
    )


def ban_lift_request(*, actor, entry: ExclusionEntry, reason: str, request=None):
    """Ask for a ban to end now, before its end; a second person must approve."""
    now = timezone.now()
    if entry.ends_at is not None and entry.ends_at <= now:
        raise RegistryImportError(_("This entry is no longer in force."))
    if entry.registry.kind not in STAFF_KEPT_KINDS:
        raise RegistryImportError(_("Entries of imported registers change only with the next import."))
    if not reason.strip():
        raise RegistryImportError(_("Lifting a ban early needs a reason."))
    return approval_request(actor=actor, kind=LIFT_KIND, obj=entry,
                            payload={"registry": entry.registry.name,
                                     "ends_at": entry.ends_at.isoformat() if entry.ends_at else None},
                            reason=reason.strip(), request=request)


def _lift_ban(approval, *, approver) -> None:
    entry = ExclusionEntry.objects.select_for_update().get(pk=approval.target_id)
    now = timezone.now()
    before = {"ends_at": entry.ends_at}
    if entry.ends_at is not None and entry.ends_at <= now:
        raise FourEyesError(_("The ban has already ended; nothing to lift."))
    entry.ends_at = max(now, entry.starts_at + dt.timedelta(microseconds=1))
    entry.lifted_at = now
    entry.save(update_fields=["ends_at", "lifted_at"])
    audit_record(
        actor=approval.requested_by,
        action="registry.ban_lifted",
        obj=entry,
        before=before,
        after={"ends_at": entry.ends_at, "reason": approval.reason},
        approver=approver,
        significant=True,
    )


def _withdraw_import(approval, *, actor) -> None:
    """The importer withdrew the request: the staged entries go, as when a checker rejects it; the
    previous import stays in force."""
    _reject_import(approval, approver=actor)


register_approval_handler(IMPORT_KIND, _apply_import, on_reject=_reject_import, on_cancel=_withdraw_import,
                          permission="compliance.import_registry",
                          title=approval_words.IMPORT_TITLE, describe=approval_words.describe_import)
register_approval_handler(LIFT_KIND, _lift_ban, permission="compliance.change_exclusionentry",
                          title=approval_words.LIFT_TITLE, describe=approval_words.describe_lift)
