"""Staff sign-in: the sign-in form for people only, the lockout page of django-axes, and the
password change page. The second factor that follows the password is in `compliance.otp`."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from .audit import audit_record
from .roles import SALES_CHANNEL


def is_integration_account(user) -> bool:
    """A sales channel (or another integration) is an API client, never a person at a browser."""
    return user.groups.filter(name=SALES_CHANNEL).exists()


class StaffAuthenticationForm(AuthenticationForm):
    """The sign-in form of the staff UI and of the Django admin (whose login page redirects here)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "integration_account": _(
            "This is an integration account: it cannot sign in to the staff pages. Integration "
            "accounts use API tokens (python manage.py api_token)."
        ),
    }

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        if is_integration_account(user):
            audit_record(
                actor=user,
                action="auth.login_refused",
                obj=user,
                data={"reason": "integration_account"},
                request=self.request,
                significant=True,
            )
            raise forms.ValidationError(self.error_messages["integration_account"], code="integration_account")

    @property
    def integration_refused(self) -> bool:
        return any(e.code == "integration_account" for e in self.non_field_errors().as_data())


class StaffLoginView(auth_views.LoginView):
    authentication_form = StaffAuthenticationForm
    redirect_authenticated_user = True


def locked_out_response(request, original_response=None, credentials=None):
    """django-axes' answer to a sign-in while locked out: the sign-in page saying so (429). The text is
    the same whether or not the user name exists (axes counts unknown names too)."""
    context = {
        "form": StaffAuthenticationForm(request),
        "locked_out": True,
        "lockout_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        "next": request.POST.get("next", request.GET.get("next", "")),
    }
    return render(request, "registration/login.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)


class StaffPasswordChangeView(auth_views.PasswordChangeView):
    """Staff change their own password (the change itself is audited by a pre_save receiver in
    compliance.signals, like every other password change)."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("password_change_done")


class StaffPasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "registration/password_change_done.html"
