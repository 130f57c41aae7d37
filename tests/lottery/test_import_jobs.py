"""Retail sales files as jobs: the request stores the file and queues the import; a worker loads it,
publishing its phase and progress on the record, which the import's page polls."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from django.utils import timezone, translation

from compliance import file_jobs, roles
from compliance.models import AuditEvent
from lottery.games.messages import shown_row_message
from lottery.models import Line, RetailImport, Wager
from lottery.services import DrawStateError
from lottery.services import retail as retail_service
from lottery.services.retail import retail_import, retail_import_run, retail_import_submit
from tests.factories import DrawFactory
from tests.lottery.support import lotto_row, sales_file

pytestmark = pytest.mark.usefixtures("language_restored")  # some pages are asked for in Finnish or Swedish


@pytest.fixture
def draw(db):
    return DrawFactory(state="closed")


@pytest.fixture
def supervisor(client, make_staff):
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    return client


def _rows(draw, tickets: int = 5):
    sold = draw.sales_open_at + dt.timedelta(hours=1)
    return [lotto_row(f"J{i:04d}", sold, ((i + k * 5) % 40 + 1 for k in range(7))) for i in range(tickets)]


def _upload(rows, name="sales.csv"):
    upload = sales_file(rows)
    upload.name = name
    return upload


def _post(client, draw, upload):
    return client.post(reverse("lottery:draw-import", args=[draw.pk]), {"file": upload})


def _submit(draw, rows, **kwargs):
    return retail_import_submit(actor="system:test", draw=draw, stream=sales_file(rows), file_name="s.csv", **kwargs)


# --- the request -----------------------------------------------------------------------------------

def test_the_upload_request_only_queues_the_import(supervisor, draw):
    response = _post(supervisor, draw, _upload(_rows(draw)))  # the after-commit job is not run here
    record = RetailImport.objects.get()
    assert (response.status_code, response["Location"], record.state, Line.objects.count()) == (
        302, reverse("lottery:import", args=[record.pk]), "queued", 0)


def test_the_upload_is_stored_under_its_sha256_with_who_when_and_size(supervisor, draw):
    content = sales_file(_rows(draw)).getvalue()
    _post(supervisor, draw, _upload(_rows(draw)))
    record = RetailImport.objects.get()
    sha = hashlib.sha256(content).hexdigest()
    with default_storage.open(record.stored_file, "rb") as stored:
        kept = stored.read()
    assert (record.stored_file.endswith(sha), kept, record.size_bytes, record.file_sha256,
            record.imported_by is not None) == (
        True, content, len(content), sha, True)


def test_the_queued_import_is_audited_in_the_request(supervisor, draw):
    _post(supervisor, draw, _upload(_rows(draw)))
    record = RetailImport.objects.get()
    assert AuditEvent.objects.filter(action="lottery.retail_import_queued", object_id=str(record.pk)).exists()


def test_a_second_click_attaches_to_the_queued_import(supervisor, draw):
    first = _post(supervisor, draw, _upload(_rows(draw)))
    second = _post(supervisor, draw, _upload(_rows(draw), name="same-again.csv"))
    page = supervisor.get(second["Location"])
    assert (RetailImport.objects.count(), second["Location"] == first["Location"],
            "already being imported" in page.content.decode()) == (1, True, True)


def test_a_second_click_sends_the_job_again_in_case_its_message_was_lost(draw, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as first:
        _submit(draw, _rows(draw))
    with django_capture_on_commit_callbacks() as second:
        record, attached = _submit(draw, _rows(draw))
    assert (len(first), len(second), attached) == (1, 1, True)


def test_a_fresh_running_import_is_attached_to_without_a_new_job(draw, django_capture_on_commit_callbacks):
    record, _ = _submit(draw, _rows(draw))
    RetailImport.objects.filter(pk=record.pk).update(state="running", heartbeat_at=timezone.now())
    with django_capture_on_commit_callbacks() as sent:
        again, attached = _submit(draw, _rows(draw))
    assert (again.pk, attached, len(sent)) == (record.pk, True, 0)


def test_an_upload_of_a_file_whose_command_line_import_died_is_queued_anew(draw):
    dead, _ = _submit(draw, _rows(draw), store=False)
    RetailImport.objects.filter(pk=dead.pk).update(state="running", heartbeat_at=timezone.now() - dt.timedelta(hours=1))
    again, attached = _submit(draw, _rows(draw))
    dead.refresh_from_db()
    assert (attached, again.pk != dead.pk, again.state, dead.state, "its process ended" in dead.error) == (
        False, True, "queued", "failed", True)


def test_the_same_file_for_another_draw_is_stored_once(draw):
    other = DrawFactory(state="closed", sales_open_at=draw.sales_open_at, sales_close_at=draw.sales_close_at)
    a, _ = _submit(draw, _rows(draw))
    b, _ = _submit(other, _rows(draw))
    _, files = default_storage.listdir(a.stored_file.rsplit("/", 1)[0])
    assert (a.pk != b.pk, a.stored_file == b.stored_file, files) == (True, True, [a.file_sha256])


def test_a_draw_that_takes_no_files_is_refused_in_the_request_and_nothing_is_recorded(supervisor, db):
    draw = DrawFactory(state="result_entered")
    response = _post(supervisor, draw, _upload(_rows(draw)))
    assert (response.status_code, RetailImport.objects.count()) == (200, 0)
    assert "until a result is entered" in response.content.decode()


def test_with_eager_tasks_the_page_answers_even_when_the_job_fails(supervisor, draw, monkeypatch,
                                                                  django_capture_on_commit_callbacks):
    def crash(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(retail_service, "_run", crash)
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(supervisor, draw, _upload(_rows(draw)))
    record = RetailImport.objects.get()
    assert (response.status_code, record.state, record.error) == (302, "failed", "RuntimeError: disk on fire")


# --- the job ---------------------------------------------------------------------------------------

def test_the_job_loads_the_stored_file(draw):
    upload = sales_file(_rows(draw, 7))
    record, _ = retail_import_submit(actor="system:test", draw=draw, stream=upload, file_name="s.csv")
    upload.close()  # the request is over: only the stored copy is left
    done = retail_import_run(record.pk)
    assert (done.state, done.lines, Line.objects.filter(draw=draw).count()) == ("done", 7, 7)


def test_a_stored_file_that_changed_loads_nothing(draw):
    record, _ = _submit(draw, _rows(draw))
    default_storage.delete(record.stored_file)
    default_storage.save(record.stored_file, io.BytesIO(sales_file(_rows(draw, 6)).getvalue()))
    done = retail_import_run(record.pk)
    assert (done.state, Line.objects.count(), "does not match the SHA-256" in done.error) == ("failed", 0, True)


def test_a_rerun_of_the_job_does_not_import_twice(draw):
    record, _ = _submit(draw, _rows(draw))
    retail_import_run(record.pk)
    again = retail_import_run(record.pk)
    assert (again.state, Wager.objects.count(), AuditEvent.objects.filter(action="lottery.retail_imported").count()) == (
        "done", 5, 1)


def test_a_bad_file_is_refused_by_the_job_with_its_row_numbered_report(draw):
    rows = _rows(draw) + [lotto_row("Z9", draw.sales_open_at + dt.timedelta(hours=1), (1, 2, 3, 4, 5, 6, 41))]
    record, _ = _submit(draw, rows)
    done = retail_import_run(record.pk)
    assert (done.state, [e["row"] for e in done.errors], Line.objects.count(), done.finished_at is not None) == (
        "failed", [7], 0, True)


def test_a_job_that_crashes_records_why_and_loads_nothing(draw, monkeypatch):
    record, _ = _submit(draw, _rows(draw))

    def crash(draw):
        raise OSError("connection to the database lost")

    monkeypatch.setattr(retail_service, "_lock_draw", crash)  # inside the loading transaction
    done = retail_import_run(record.pk)
    event = AuditEvent.objects.filter(action="lottery.retail_import_failed", object_id=str(record.pk)).exists()
    assert (done.state, "connection to the database lost" in done.error, Line.objects.count(), event) == (
        "failed", True, 0, True)


def test_a_running_import_with_a_fresh_heartbeat_is_not_claimed_by_a_second_worker(draw):
    record, _ = _submit(draw, _rows(draw))
    RetailImport.objects.filter(pk=record.pk).update(state="running", heartbeat_at=timezone.now(), attempts=1)
    again = retail_import_run(record.pk)
    assert (again.state, again.attempts, Line.objects.count()) == ("running", 1, 0)


def test_an_import_whose_worker_died_is_claimed_again_and_loaded(draw, settings):
    record, _ = _submit(draw, _rows(draw))
    beat = timezone.now() - dt.timedelta(seconds=settings.LOTTERY_IMPORT_STALE_SECONDS + 1)
    RetailImport.objects.filter(pk=record.pk).update(state="running", heartbeat_at=beat, attempts=1)
    done = retail_import_run(record.pk)
    assert (done.state, done.attempts, Line.objects.count()) == ("done", 2, 5)


def test_a_worker_that_lost_its_claim_loads_nothing(draw, monkeypatch):
    record, _ = _submit(draw, _rows(draw))
    real_lock = retail_service._lock_draw

    def taken_over(d):  # another worker claims the import while this one loads
        RetailImport.objects.filter(pk=record.pk).update(attempts=7)
        real_lock(d)

    monkeypatch.setattr(retail_service, "_lock_draw", taken_over)
    retail_import_run(record.pk)
    assert (RetailImport.objects.get(pk=record.pk).state, Line.objects.count(), Wager.objects.count()) == (
        "running", 0, 0)


def test_a_result_entered_before_the_job_runs_refuses_the_import(draw):
    record, _ = _submit(draw, _rows(draw))
    type(draw).objects.filter(pk=draw.pk).update(state="result_entered")
    done = retail_import_run(record.pk)
    assert (done.state, Line.objects.count(), "until a result is entered" in done.errors[0]["errors"][0]) == (
        "failed", 0, True)


def test_a_result_cannot_be_entered_while_an_import_is_queued(draw, make_staff):
    from lottery.services import result_enter

    _submit(draw, _rows(draw))
    with pytest.raises(DrawStateError, match="still being imported"):
        result_enter(actor=make_staff(roles.DRAW_SUPERVISOR), draw=draw, draw_method="system", witnesses="W",
                     numbers={"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": [8], "plus": 3},
                     now=draw.draw_at + dt.timedelta(minutes=1))


# --- progress --------------------------------------------------------------------------------------

@pytest.fixture
def published(monkeypatch):
    """Every Progress made, with the values it wrote; progress written at every chance."""
    made = []
    real_init = file_jobs.Progress.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.interval = 0
        made.append(self)

    monkeypatch.setattr(file_jobs.Progress, "__init__", init)
    monkeypatch.setattr(retail_service, "PROGRESS_ROWS", 2)
    return made


def test_the_job_publishes_its_phases_in_order_and_its_progress_advances(draw, published):
    record, _ = _submit(draw, _rows(draw, 40))
    retail_import_run(record.pk)
    history = published[0].history
    phases = [p for i, (p, _, _) in enumerate(history) if i == 0 or history[i - 1][0] != p]
    order = ["reading", "checking", "writing", "finishing"]
    reading = [done for p, done, _ in history if p == "reading"]
    assert phases == [p for p in order if p in phases] and {"reading", "writing"} <= set(phases)
    assert reading == sorted(reading) and reading[-1] > 0


def test_the_finished_import_shows_all_of_its_lines_written(draw):
    record, _ = _submit(draw, _rows(draw, 12))
    done = retail_import_run(record.pk)
    assert (done.phase, done.progress_done, done.progress_total) == ("", 12, 12)


@pytest.mark.django_db(transaction=True)
def test_progress_is_written_on_the_record_where_the_page_reads_it():
    draw = DrawFactory(state="closed")
    record, _ = _submit(draw, _rows(draw), start=False)  # committed here: no job runs it meanwhile
    attempt = file_jobs.claim(RetailImport, record.pk, stale_seconds=600)
    progress = file_jobs.Progress(RetailImport, record.pk, attempt)
    try:
        progress.phase("writing", 3, 10)
        progress.advance(7, force=True, rows=10)
    finally:
        progress.close()
    seen = RetailImport.objects.get(pk=record.pk)
    assert (seen.phase, seen.progress_done, seen.progress_total, seen.rows, seen.heartbeat_at is not None) == (
        "writing", 7, 10, 10, True)


# --- the page ------------------------------------------------------------------------------------

def test_the_page_of_a_running_import_shows_its_phase_in_words_and_a_progress_bar(supervisor, draw):
    record, _ = _submit(draw, _rows(draw))
    RetailImport.objects.filter(pk=record.pk).update(state="running", phase="writing", progress_done=25,
                                                     progress_total=100, heartbeat_at=timezone.now())
    html = supervisor.get(reverse("lottery:import", args=[record.pk])).content.decode()
    assert ('data-running="1"' in html, "writing the wagers and lines" in html, 'value="25"' in html) == (
        True, True, True)


def test_the_status_endpoint_gives_state_phase_and_percent(supervisor, draw):
    record, _ = _submit(draw, _rows(draw))
    RetailImport.objects.filter(pk=record.pk).update(state="running", phase="reading", progress_done=1,
                                                     progress_total=4, heartbeat_at=timezone.now())
    data = supervisor.get(reverse("lottery:import-status", args=[record.pk])).json()
    assert (data["state"], data["phase_label"], data["percent"], data["in_progress"]) == (
        "running", "reading the file", 25, True)


def test_the_status_endpoint_needs_the_permission_to_see_imports(client, make_staff, draw):
    record, _ = _submit(draw, _rows(draw))
    client.force_login(make_staff(None))
    assert client.get(reverse("lottery:import-status", args=[record.pk])).status_code == 403


def test_the_page_of_a_finished_import_says_what_was_imported_and_does_not_poll(supervisor, draw):
    record, _ = _submit(draw, _rows(draw))
    retail_import_run(record.pk)
    html = supervisor.get(reverse("lottery:import", args=[record.pk])).content.decode()
    assert ('data-running="0"' in html, "Imported 5 lines in 5 tickets." in html) == (True, True)


# --- the command -----------------------------------------------------------------------------------

def test_the_command_with_queue_stores_the_file_and_queues_the_import(draw, tmp_path, capsys):
    from django.core.management import call_command

    path = tmp_path / "sales.csv"
    path.write_bytes(sales_file(_rows(draw)).getvalue())
    call_command("import_retail_sales", str(path), "--draw", str(draw.pk), "--queue")
    record = RetailImport.objects.get()
    assert (record.state, default_storage.exists(record.stored_file), f"import {record.pk}" in capsys.readouterr().out) == (
        "queued", True, True)


def test_the_phase_is_given_in_the_staff_members_language(supervisor, draw):
    record, _ = _submit(draw, _rows(draw))
    RetailImport.objects.filter(pk=record.pk).update(state="running", phase="reading", heartbeat_at=timezone.now())
    supervisor.cookies["django_language"] = "sv"
    data = supervisor.get(reverse("lottery:import-status", args=[record.pk])).json()
    assert (data["state_label"], data["phase_label"]) == ("importeras", "läser filen")


# --- the page in the reader's language: row problems stored in English with msgid and parameters (issue 16)

def _refused_import(draw):
    sold = draw.sales_open_at + dt.timedelta(hours=1)
    rows = [lotto_row("A1", sold), lotto_row("A1", sold, terminal="T0002").replace(",7,", ",seven,")]
    record = retail_import(actor="system:test", draw=draw, stream=sales_file(rows), file_name="sales.csv")
    assert record.state == RetailImport.State.FAILED
    return record


def _page_in(client, record, language):
    return client.get(reverse("lottery:import", args=[record.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_import_page_shows_a_bad_rows_problems_in_finnish(supervisor, draw):
    html = _page_in(supervisor, _refused_import(draw), "fi")
    assert ("ei ole kokonaisluku" in html, "eri kuin saman kupongin rivillä 2" in html) == (True, True)


def test_the_import_page_in_finnish_shows_no_english_row_problem(supervisor, draw):
    html = _page_in(supervisor, _refused_import(draw), "fi")
    assert ("is not a whole number" in html, "differs from row" in html) == (False, False)


def test_the_import_page_shows_a_bad_rows_problems_in_swedish(supervisor, draw):
    html = _page_in(supervisor, _refused_import(draw), "sv")
    assert "skiljer sig från rad 2 i samma kupong" in html


def test_the_stored_english_problems_stay_as_they_were(draw):
    record = _refused_import(draw)
    assert record.errors[0]["errors"] == ["n7: 'seven' is not a whole number",
                                          "terminal: differs from row 2 of the same ticket"]


def test_a_record_written_before_messages_were_kept_shows_its_english(supervisor, draw):
    record = _refused_import(draw)
    RetailImport.objects.filter(pk=record.pk).update(
        errors=[{"row": 3, "ticket": "A1", "errors": ["terminal: differs from row 2 of the same ticket"]}])
    assert "terminal: differs from row 2 of the same ticket" in _page_in(supervisor, record, "fi")


def test_a_file_refused_as_a_whole_shows_its_reason_in_finnish(supervisor, draw):
    record = retail_import(actor="system:test", draw=draw, stream=sales_file([]), file_name="empty.csv")
    assert "tiedostossa ei ole myyntirivejä" in _page_in(supervisor, record, "fi")


def test_a_field_name_inside_a_row_problem_is_shown_in_the_readers_language():
    stored = {"msgid": "%(column)s: the %(field)s is needed", "params": {"column": "s1", "field": "star numbers"}}
    with translation.override("fi"):
        assert shown_row_message(stored) == "s1: tarvitaan tähtinumerot"


def test_a_file_handed_in_twice_is_reported_as_already_imported_not_as_a_bad_row(supervisor, draw):
    from lottery.services.retail import retail_import

    retail_import(actor="system:test", draw=draw, stream=sales_file(_rows(draw)), file_name="s.csv")
    again = retail_import(actor="system:test", draw=draw, stream=sales_file(_rows(draw)), file_name="s.csv")
    html = supervisor.get(reverse("lottery:import", args=[again.pk])).content.decode()
    assert ("already imported" in html, "bad row" not in html, again.error_count) == (True, True, 0)
