"""Audit staff sign-ins, sign-outs and failed sign-ins."""

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver

from .audit import audit_record

User = get_user_model()


@receiver(user_logged_in, dispatch_uid="compliance.audit_login")
def _audit_login(sender, request, user, **kwargs):
    audit_record(actor=user, action="auth.login", obj=user, request=request)


@receiver(user_logged_out, dispatch_uid="compliance.audit_logout")
def _audit_logout(sender, request, user, **kwargs):
    if user is not None:
        audit_record(actor=user, action="auth.logout", obj=user, request=request)


@receiver(user_login_failed, dispatch_uid="compliance.audit_login_failed")
def _audit_login_failed(sender, credentials, request=None, **kwargs):
    username = str(credentials.get(User.USERNAME_FIELD, credentials.get("username", "")))[:150]
    audit_record(
        actor=None,
        action="auth.login_failed",
        data={"username": username},
        request=request,
        significant=False,
    )
