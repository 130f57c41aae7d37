"""Every response says what the browser may load and use; pages of signed-in users are never cached."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_pages_carry_a_content_security_policy_without_inline_script(client, db):
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert (directives["frame-ancestors"], directives["base-uri"], directives["object-src"]) == ("'none'",) * 3
    assert directives["img-src"] == "'self' data:" and directives["form-action"] == "'self'"


def test_pages_carry_a_permissions_policy_that_allows_no_device(client, db):
    policy = client.get("/accounts/login/")["Permissions-Policy"]
    assert {"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"} <= set(policy.split(", "))


def test_pages_carry_referrer_policy_same_origin(client, db):
    assert client.get("/accounts/login/")["Referrer-Policy"] == "same-origin"


def test_pages_of_a_signed_in_user_are_not_stored(staff_client):
    assert "no-store" in staff_client("Auditor").get("/compliance/audit/")["Cache-Control"]


def test_api_answers_to_a_token_are_not_stored(api_client_for):
    assert "no-store" in api_client_for("Auditor").get("/api/v1/me/")["Cache-Control"]


def test_no_template_has_inline_script_event_handler_or_style_attribute():
    # PDF report templates (compliance/reports/) are rendered by WeasyPrint, never by a browser.
    offending = []
    for path in TEMPLATES.rglob("*.html"):
        if "compliance/reports/" in path.as_posix():
            continue
        text = path.read_text()
        if re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)", text) or re.search(
            r"\s(on[a-z]+|style)=\"", text
        ):
            offending.append(path.relative_to(TEMPLATES).as_posix())
    assert offending == []


def test_swagger_ui_page_loads_its_script_from_a_file(staff_client):
    response = staff_client("Auditor").get("/api/docs/")
    html = response.content.decode()
    assert response.status_code == 200 and "<script>" not in html and "?script=" in html
    assert "script-src 'self'" in response["Content-Security-Policy"]
