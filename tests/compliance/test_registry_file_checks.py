"""A register file is refused whole, with its line numbers, for impossible identifiers, repeated rows,
NUL characters, fields too long for CSV and dates no register holds (issue 14, findings 5 and 9);
nothing is staged and no 500 is answered."""

from __future__ import annotations

import datetime as dt

import pytest

from compliance.idcodes import identifier_problem, ukrainian_id_valid
from compliance.models import ExclusionStage, RegistryImport
from compliance.registry_services import parse_registry_file, registry_import_stage
from compliance.roles import COMPLIANCE_OFFICER
from tests.factories import ExclusionRegistryFactory, finnish_id_for

HETU = finnish_id_for(dt.date(1981, 6, 6), 11)
HEADER = "identifier,country,starts,ends,external_id\n"


def _rows(text: str) -> list[int]:
    return [e["row"] for e in parse_registry_file(text.encode()).errors]


def _messages(text: str) -> str:
    return " ".join(e["error"] for e in parse_registry_file(text.encode()).errors)


def test_an_identifier_that_is_not_a_finnish_identity_code_is_refused_by_line():
    assert _rows(HEADER + f"{HETU},FI,2024-01-01,,A1\nnot-a-hetu,FI,2024-01-01,,A2\n") == [3]


def test_a_finnish_identity_code_with_a_wrong_check_character_is_refused():
    wrong = HETU[:-1] + ("A" if HETU[-1] != "A" else "B")
    assert "check character" in _messages(HEADER + f"{wrong},FI,2024-01-01,,A1\n")


def test_a_finnish_identity_code_of_an_impossible_date_is_refused():
    assert _rows(HEADER + "310295-9012,FI,2024-01-01,,A1\n") == [2]


@pytest.mark.parametrize("code", ["010594Y9021", "010594Y9032", "020504E903F", "150199W9024"])
def test_identity_codes_with_the_2023_century_signs_are_accepted(code):
    assert identifier_problem(code, "FI") is None


def test_a_ukrainian_rnokpp_with_its_check_digit_is_accepted():
    assert ukrainian_id_valid("3184710691")


def test_a_ukrainian_rnokpp_with_a_wrong_check_digit_is_refused():
    assert _rows(HEADER + "3184710692,UA,2024-01-01,,A1\n") == [2]


def test_an_identifier_of_another_country_is_checked_by_its_format():
    assert _rows(HEADER + "19811231-1234,SE,2024-01-01,,A1\n12,SE,2024-01-01,,A2\n") == [3]


def test_a_repeated_row_is_reported_with_the_line_it_repeats():
    text = HEADER + f"{HETU},FI,2024-01-01,,A1\n" + "".join(f"{finnish_id_for(dt.date(1970, 1, n), 20)},FI,2024-01-01,,B{n}\n"
                                                        for n in range(1, 5)) + f"{HETU},FI,2024-02-01,,A7\n"
    assert "row 7 repeats row 2" in _messages(text)


def test_a_nul_character_is_refused_with_its_line():
    assert _rows(HEADER + f"{HETU},FI,2024-01-01,,A1\nX\x00,FI,2024-01-01,,A2\n") == [3]


def test_a_field_longer_than_csv_allows_is_refused_with_its_line():
    assert _rows(HEADER + f"{HETU},FI,2024-01-01,,A1\n{HETU},FI,2024-01-01,,{'x' * 140_000}\n") == [3]


def test_an_end_on_9999_12_31_is_refused_not_a_crash():
    assert "ends '9999-12-31' is not a date" in _messages(HEADER + f"{HETU},FI,2024-01-01,9999-12-31,A1\n")


def test_a_start_far_in_the_future_is_refused():
    assert _rows(HEADER + f"{HETU},FI,9999-12-31T23:59:59-10:00,,A1\n") == [2]


def test_a_refused_file_stages_nothing(make_staff):
    registry = ExclusionRegistryFactory(kind="national")
    batch = registry_import_stage(actor=make_staff(COMPLIANCE_OFFICER), registry=registry, file_name="r.csv",
                                  data=(HEADER + "not-a-hetu,FI,2024-01-01,,A1\n").encode())
    assert (batch.state, ExclusionStage.objects.count()) == (RegistryImport.State.FAILED, 0)
