"""Second factor for staff (django-otp TOTP), on whenever OTP_REQUIRED is (the suite switches it off
except here)."""

import re

import pytest
from django.core.management import CommandError, call_command
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from compliance.models import AuditEvent
from tests.factories import PASSWORD


@pytest.fixture(autouse=True)
def _otp_required(settings):
    settings.OTP_REQUIRED = True


def _code(device) -> str:
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):06d}"


def _signed_in(client, user):
    client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    return client


@pytest.fixture
def enrolled(make_staff):
    user = make_staff("Auditor")
    device = TOTPDevice.objects.create(user=user, name="Valvoja", confirmed=True)
    return user, device


def test_staff_page_sends_a_user_without_a_device_to_enrolment(client, make_staff):
    response = _signed_in(client, make_staff("Operator")).get("/")
    assert response.status_code == 302 and response.url.startswith("/accounts/second-factor/enrol/")


def test_enrolment_page_shows_an_inline_svg_qr_code_and_the_secret(client, make_staff):
    response = _signed_in(client, make_staff("Operator")).get("/accounts/second-factor/enrol/")
    device = TOTPDevice.objects.get(user=response.wsgi_request.user, confirmed=False)
    html = response.content.decode()
    secret = re.search(r"<p class=\"secret\" data-secret>([A-Z2-7]+)</p>", html).group(1)
    assert "<svg" in html and "<img" not in html and secret in device.config_url


def test_enrolment_confirmed_by_a_code_opens_the_pages_and_is_audited(client, make_staff):
    user = make_staff("Operator")
    _signed_in(client, user).get("/accounts/second-factor/enrol/")
    device = TOTPDevice.objects.get(user=user)
    client.post("/accounts/second-factor/enrol/", {"otp_token": _code(device), "next": "/"})
    assert client.get("/").status_code == 200
    assert TOTPDevice.objects.get(user=user).confirmed
    assert AuditEvent.objects.filter(action="auth.otp_enrolled", object_id=str(user.pk)).exists()


def test_staff_page_sends_an_enrolled_user_to_verification(client, enrolled):
    response = _signed_in(client, enrolled[0]).get("/compliance/audit/")
    assert response.status_code == 302 and response.url == "/accounts/second-factor/?next=/compliance/audit/"


def test_verification_with_the_right_code_opens_the_pages(client, enrolled):
    user, device = enrolled
    _signed_in(client, user).post("/accounts/second-factor/", {"otp_token": _code(device)})
    assert client.get("/").status_code == 200


def test_wrong_code_is_refused_and_audited(client, enrolled):
    user, device = enrolled
    wrong = f"{(int(_code(device)) + 1) % 1_000_000:06d}"
    response = _signed_in(client, user).post("/accounts/second-factor/", {"otp_token": wrong})
    assert response.status_code == 200 and client.get("/").status_code == 302
    assert AuditEvent.objects.filter(action="auth.otp_failed", object_id=str(user.pk)).count() == 1


def test_an_enrolled_user_cannot_enrol_another_device(client, enrolled):
    response = _signed_in(client, enrolled[0]).get("/accounts/second-factor/enrol/")
    assert response.status_code == 302 and response.url.startswith("/accounts/second-factor/?")
    assert TOTPDevice.objects.filter(user=enrolled[0]).count() == 1


def test_django_admin_waits_for_the_second_factor(client, make_staff):
    admin = make_staff("Administrator", is_staff=True)
    response = _signed_in(client, admin).get("/admin/")
    assert response.status_code == 302 and response.url.startswith("/accounts/second-factor/enrol/")


def test_api_with_a_token_needs_no_second_factor(api_client_for):
    assert api_client_for("Auditor").get("/api/v1/me/").status_code == 200


def test_nothing_is_asked_when_the_second_factor_is_off(client, make_staff, settings):
    settings.OTP_REQUIRED = False
    assert _signed_in(client, make_staff("Operator")).get("/").status_code == 200


def test_administrator_resets_a_lost_device_with_a_significant_audit_event(make_staff, enrolled):
    admin = make_staff("Administrator")
    call_command("otp_reset", enrolled[0].username, "--by", admin.username, stdout=open("/dev/null", "w"))
    event = AuditEvent.objects.get(action="auth.otp_reset")
    assert not TOTPDevice.objects.filter(user=enrolled[0]).exists()
    assert (event.actor_id, event.object_id, event.significant) == (admin.pk, str(enrolled[0].pk), True)


def test_only_an_administrator_resets_a_device(make_staff, enrolled):
    officer = make_staff("Compliance officer")
    with pytest.raises(CommandError, match="not an Administrator"):
        call_command("otp_reset", enrolled[0].username, "--by", officer.username)
    assert TOTPDevice.objects.filter(user=enrolled[0]).exists()
