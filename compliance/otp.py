"""Second factor for staff (django-otp, TOTP).

Every person signing in to the staff UI or the Django admin gives a 6-digit code from an
authenticator app after the password when `settings.OTP_REQUIRED` is on. A user without a confirmed
device is sent to the enrolment page (QR code made on the server as inline SVG, the secret as text,
confirmed with a first code); a user with one to the verification page. Until then every page but
these, sign-out, the language switch and static files redirects there. API clients that send a token
are not affected (they have no session). Enrolment, failed codes and device resets are audited.
"""

from __future__ import annotations

import base64
from urllib.parse import quote

import qrcode
import qrcode.image.svg
from django import forms
from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views import View
from django_otp import login as otp_login
from django_otp import match_token, user_has_device
from django_otp.plugins.otp_totp.models import TOTPDevice

from .audit import audit_record

DEVICE_NAME = "Valvoja"


class TokenForm(forms.Form):
    otp_token = forms.RegexField(
        label=_("Code from the authenticator app"),
        regex=r"^[0-9]{6}$",
        max_length=6,
        error_messages={"invalid": _("Enter the 6 digits the app shows.")},
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}),
    )


def _exempt_prefixes() -> tuple[str, ...]:
    return (
        reverse("otp-enrol"),
        reverse("otp-verify"),
        reverse("logout"),
        reverse("set_language"),
        reverse("healthz"),
        "/" + settings.STATIC_URL.lstrip("/"),
    )


class StaffSecondFactorMiddleware:
    """Sends a signed-in user who has not given a code this session to enrolment or verification.
    Sits after AuthenticationMiddleware and django-otp's OTPMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            settings.OTP_REQUIRED
            and user is not None
            and user.is_authenticated
            and not user.is_verified()
            and "HTTP_AUTHORIZATION" not in request.META  # an API token client; DRF authenticates it
            and not request.path_info.startswith(_exempt_prefixes())
        ):
            target = "otp-verify" if user_has_device(user) else "otp-enrol"
            return redirect(f"{reverse(target)}?next={quote(request.get_full_path())}")
        return self.get_response(request)


def _next_url(request) -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse(settings.LOGIN_REDIRECT_URL)


def qr_code_svg(data: str) -> str:
    """The QR code of `data` as an inline SVG element (no script, no style attribute: CSP-safe)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return image.to_string(encoding="unicode")


def base32_secret(device: TOTPDevice) -> str:
    return base64.b32encode(device.bin_key).decode().rstrip("=")


def _pending_device(user) -> TOTPDevice:
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)
    return device


class EnrolView(LoginRequiredMixin, View):
    """First sign-in: set up the authenticator app, confirmed by its first code."""

    template_name = "registration/otp_enrol.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and user_has_device(request.user):
            # A second device only after a reset by an Administrator: a stolen password alone must
            # not be enough to enrol a new authenticator.
            return redirect(f"{reverse('otp-verify')}?next={quote(_next_url(request))}")
        return super().dispatch(request, *args, **kwargs)

    def _render(self, request, form, device, status=200):
        context = {
            "form": form,
            "qr_svg": qr_code_svg(device.config_url),
            "secret": base32_secret(device),
            "next": _next_url(request),
            "issuer": settings.OTP_TOTP_ISSUER,
        }
        return render(request, self.template_name, context, status=status)

    def get(self, request):
        return self._render(request, TokenForm(), _pending_device(request.user))

    def post(self, request):
        device = _pending_device(request.user)
        form = TokenForm(request.POST)
        if form.is_valid() and device.verify_token(form.cleaned_data["otp_token"]):
            with transaction.atomic():
                device.confirmed = True
                device.save(update_fields=["confirmed"])
                TOTPDevice.objects.filter(user=request.user, confirmed=False).delete()
                audit_record(
                    actor=request.user, action="auth.otp_enrolled", obj=request.user,
                    data={"device": device.persistent_id}, request=request,
                )
            otp_login(request, device)
            return redirect(_next_url(request))
        if form.is_valid():
            form.add_error("otp_token", _("That code is not right. Check the clock of the device and try again."))
            audit_record(
                actor=request.user, action="auth.otp_failed", obj=request.user,
                data={"step": "enrolment"}, request=request,
            )
        return self._render(request, form, device, status=200)


class VerifyView(LoginRequiredMixin, View):
    """Every sign-in of an enrolled user: the code from the app."""

    template_name = "registration/otp_verify.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not user_has_device(request.user):
            return redirect(f"{reverse('otp-enrol')}?next={quote(_next_url(request))}")
        return super().dispatch(request, *args, **kwargs)

    def get(self, request):
        return render(request, self.template_name, {"form": TokenForm(), "next": _next_url(request)})

    def post(self, request):
        form = TokenForm(request.POST)
        if form.is_valid():
            device = match_token(request.user, form.cleaned_data["otp_token"])
            if device is not None:
                otp_login(request, device)
                return redirect(_next_url(request))
            form.add_error("otp_token", _("That code is not right. Check the clock of the device and try again."))
            audit_record(
                actor=request.user, action="auth.otp_failed", obj=request.user,
                data={"step": "verification"}, request=request,
            )
        return render(request, self.template_name, {"form": form, "next": _next_url(request)})


def reset_devices(*, actor, user, request=None) -> int:
    """Remove every second-factor device of `user` (lost phone); they enrol again at the next
    sign-in. A significant audit event. Returns the number of devices removed."""
    with transaction.atomic():
        removed = [d.persistent_id for d in TOTPDevice.objects.filter(user=user)]
        TOTPDevice.objects.filter(user=user).delete()
        audit_record(
            actor=actor, action="auth.otp_reset", obj=user, before={"devices": removed},
            after={"devices": []}, request=request, significant=True,
        )
    return len(removed)
