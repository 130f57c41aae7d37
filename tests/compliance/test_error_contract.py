"""The one error contract (issue 16 item 3): a service's refusal reads the same on a page and in the
API, in the reader's language, and the API's schema documents its body."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from compliance import roles
from compliance.errors import DomainError, InvalidInput, StateConflict, either
from lottery.models import DrawState
from lottery.services import DrawStateError, result_enter
from tests.factories import DrawFactory

RESULT = {"numbers": [1, 2, 3, 4, 5, 6, 7], "additional": 8, "plus": 3, "draw_method": "device", "witnesses": "Notary"}
RESULT_FORM = {"enter-numbers": "1 2 3 4 5 6 7", "enter-additional": 8, "enter-plus": 3,
               "enter-draw_method": "device", "enter-witnesses": "Notary"}


pytestmark = pytest.mark.usefixtures("language_restored")


def _words(text: str) -> set[str]:
    """The words of a text, its %(name)s parameters left out."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"%\(\w+\)s", " ", text))}


def _api_refusal(api_client_for, draw, language: str):
    client = api_client_for(roles.DRAW_SUPERVISOR)
    return client.post(f"/api/v1/draws/{draw.pk}/result/", RESULT, format="json", HTTP_ACCEPT_LANGUAGE=language)


def _page_messages(client, make_staff, draw, language: str) -> str:
    client.force_login(make_staff(roles.DRAW_SUPERVISOR))
    client.cookies["django_language"] = language
    page = client.post(reverse("lottery:draw-enter", args=[draw.pk]), RESULT_FORM, follow=True)
    return html.unescape(page.content.decode())


@pytest.mark.parametrize("language", ["en", "fi"])
def test_entering_a_result_on_an_open_draw_reads_the_same_on_the_page_and_in_the_api(
    client, make_staff, api_client_for, language
):
    draw = DrawFactory(state="open")
    answer = _api_refusal(api_client_for, draw, language)
    page = _page_messages(client, make_staff, draw, language)
    assert (answer.status_code, answer.json()["code"], answer.json()["detail"] in page) == (409, "draw_state", True)


def test_a_draw_state_refusal_in_finnish_names_the_states_in_finnish_and_has_no_english_words(make_staff):
    draw = DrawFactory(state="open")
    with pytest.raises(DrawStateError) as refused:
        result_enter(actor=make_staff(roles.DRAW_SUPERVISOR), draw=draw, numbers=RESULT, draw_method="device",
                     witnesses="Notary")
    with translation.override("en"):
        english = str(refused.value)
        english_words = _words(str(refused.value.template)) | _words("entering the result open closed")
    with translation.override("fi"):
        finnish = str(refused.value)
        labels = (str(DrawState.OPEN.label), str(DrawState.CLOSED.label))
    assert (finnish != english, all(label in finnish for label in labels), _words(finnish) & english_words) == (
        True, True, set())


def test_the_state_names_of_a_refusal_follow_the_language_it_is_shown_in():
    refusal = StateConflict("%(states)s", states=either(DrawState.OPEN.label, DrawState.CLOSED.label))
    shown = {}
    for language in ("en", "fi", "sv"):
        with translation.override(language):
            shown[language] = str(refusal)
    assert shown == {"en": "open or closed", "fi": "avoin tai suljettu", "sv": "öppen eller stängd"}


def test_a_domain_error_answers_with_its_code_status_fields_and_extra_keys():
    refusal = InvalidInput(code="bad_amount", fields={"amount_cents": "Too large."}, extra={"largest_cents": 5})
    assert (refusal.status, refusal.as_dict()) == (400, {
        "code": "bad_amount", "detail": "The input is not valid.", "fields": {"amount_cents": ["Too large."]},
        "largest_cents": 5})


def test_every_service_refusal_is_a_domain_error():
    from compliance.approvals import ApprovalRefused
    from compliance.jobs import JobError
    from compliance.registry_services import RegistryImportError
    from lottery.services import DrawError, RuleSetConflict, RuleSetRefused
    from players.errors import PlayerError

    kinds = (ApprovalRefused, JobError, RegistryImportError, DrawError, RuleSetConflict, RuleSetRefused, PlayerError)
    assert [k.__name__ for k in kinds if not issubclass(k, DomainError)] == []


def test_the_schema_documents_the_error_body_of_a_refusing_endpoint(api_client_for):
    schema = api_client_for(roles.AUDITOR).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = schema.json()
    answers = document["paths"]["/api/v1/draws/{id}/result/"]["post"]["responses"]
    body = answers["409"]["content"]["application/json"]["schema"]["$ref"]
    api_error = document["components"]["schemas"]["ApiError"]
    assert (body, {"code", "detail", "fields"} <= set(api_error["properties"]), api_error["required"]) == (
        "#/components/schemas/ApiError", True, ["code", "detail"])


def test_an_import_row_error_is_stored_in_english_and_shown_in_the_readers_language():
    from compliance.errors import shown_message
    from compliance.registry_services import parse_registry_file

    error = parse_registry_file(b"identifier,starts\n010101-123N,2026-01-01,extra\n").errors[0]
    with translation.override("fi"):
        finnish = shown_message(error, "error")
    assert (error["row"], error["error"], finnish) == (
        2, "Expected 2 values, found 3.", "Odotettiin 2 arvoa, löytyi 3.")
