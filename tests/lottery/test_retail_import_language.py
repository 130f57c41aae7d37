"""A retail import's row problems are stored in English with their msgid and parameters, and the
import's page shows them in the reader's language (issue 16 item 3)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import translation

from compliance import roles
from lottery.games.messages import shown_row_message
from lottery.models import RetailImport
from lottery.services.retail import retail_import
from tests.factories import DrawFactory
from tests.lottery.support import lotto_row, sales_file

pytestmark = pytest.mark.usefixtures("language_restored")


@pytest.fixture
def draw(db):
    return DrawFactory(state="closed")


@pytest.fixture
def supervisor(client, make_staff):
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    return client


def _refused(draw):
    sold = draw.sales_open_at + dt.timedelta(hours=1)
    rows = [lotto_row("A1", sold), lotto_row("A1", sold, terminal="T0002").replace(",7,", ",seven,")]
    record = retail_import(actor="system:test", draw=draw, stream=sales_file(rows), file_name="sales.csv")
    assert record.state == RetailImport.State.FAILED
    return record


def _page(client, record, language):
    return client.get(reverse("lottery:import", args=[record.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_import_page_shows_a_bad_rows_problems_in_finnish(supervisor, draw):
    html = _page(supervisor, _refused(draw), "fi")
    assert ("ei ole kokonaisluku" in html, "eri kuin saman kupongin rivillä 2" in html) == (True, True)


def test_the_import_page_in_finnish_shows_no_english_row_problem(supervisor, draw):
    html = _page(supervisor, _refused(draw), "fi")
    assert ("is not a whole number" in html, "differs from row" in html) == (False, False)


def test_the_import_page_shows_a_bad_rows_problems_in_swedish(supervisor, draw):
    html = _page(supervisor, _refused(draw), "sv")
    assert "skiljer sig från rad 2 i samma kupong" in html


def test_the_stored_english_problems_stay_as_they_were(draw):
    record = _refused(draw)
    assert record.errors[0]["errors"] == ["n7: 'seven' is not a whole number",
                                          "terminal: differs from row 2 of the same ticket"]


def test_a_record_written_before_messages_were_kept_shows_its_english(supervisor, draw):
    record = _refused(draw)
    RetailImport.objects.filter(pk=record.pk).update(
        errors=[{"row": 3, "ticket": "A1", "errors": ["terminal: differs from row 2 of the same ticket"]}])
    assert "terminal: differs from row 2 of the same ticket" in _page(supervisor, record, "fi")


def test_a_file_refused_as_a_whole_shows_its_reason_in_finnish(supervisor, draw):
    record = retail_import(actor="system:test", draw=draw, stream=sales_file([]), file_name="empty.csv")
    assert "tiedostossa ei ole myyntirivejä" in _page(supervisor, record, "fi")


def test_a_field_name_inside_a_row_problem_is_shown_in_the_readers_language():
    stored = {"msgid": "%(column)s: the %(field)s is needed", "params": {"column": "s1", "field": "star numbers"}}
    with translation.override("fi"):
        assert shown_row_message(stored) == "s1: tarvitaan tähtinumerot"
