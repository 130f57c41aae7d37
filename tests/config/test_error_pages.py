"""The error pages (issue 18): 403 in the staff layout says what the page needs and what the user holds
and links back; 404, 400 and 500 in the same style, the 500 without the database."""

from __future__ import annotations

import pytest
from django.template import loader

from compliance import roles


def test_a_refused_page_names_the_roles_it_is_for_and_the_users_own(staff_client, language_restored):
    client = staff_client(roles.OPERATOR)
    response = client.get("/compliance/audit/", HTTP_ACCEPT_LANGUAGE="fi")
    text = response.content.decode()
    assert response.status_code == 403
    assert "Compliance-vastaava" in text and "Roolisi: Operaattori." in text and 'href="/"' in text


def test_a_refused_page_is_in_the_staff_layout_with_the_navigation(staff_client):
    text = staff_client(roles.OPERATOR).get("/compliance/audit/").content.decode()
    assert 'class="main"' in text and 'data-nav="lottery:draws"' in text and "<h1" in text


def test_a_refused_api_call_keeps_the_apis_error_shape(api_client_for):
    response = api_client_for(roles.SALES_CHANNEL).get("/api/v1/audit-events/")
    assert response.status_code == 403 and "detail" in response.json()


def test_a_missing_page_is_in_the_staff_layout(staff_client, language_restored):
    response = staff_client(roles.OPERATOR).get("/lottery/no-such-page/", HTTP_ACCEPT_LANGUAGE="sv")
    assert response.status_code == 404 and "Sidan hittades inte" in response.content.decode()


@pytest.mark.parametrize("name", ["400.html", "500.html"])
def test_pages_rendered_without_the_request_need_no_database(name):
    """Django renders 400 and 500 without a request; they must never touch the database (it may be
    what failed): this test has no database, and pytest-django fails any query."""
    text = loader.get_template(name).render()
    assert "<h1" in text and 'href="/"' in text and "favicon.svg" in text


def test_every_page_links_the_favicon(staff_client):
    assert "valvoja/favicon.svg" in staff_client(roles.AUDITOR).get("/").content.decode()


def test_the_header_groups_an_apps_pages_in_one_menu(staff_client):
    """The compliance officer sees seven compliance pages: one menu, not seven links in the header."""
    text = staff_client(roles.COMPLIANCE_OFFICER).get("/").content.decode()
    assert text.count('<details class="menu" data-menu="compliance">') == 1 and 'data-nav="compliance:audit-list"' in text


def test_the_header_names_roles_in_the_readers_language(staff_client, language_restored):
    text = staff_client(roles.DRAW_SUPERVISOR).get("/", HTTP_ACCEPT_LANGUAGE="sv").content.decode()
    assert "Dragningsövervakare" in text

