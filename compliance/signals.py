"""Audit staff sign-ins, sign-outs, failed and locked-out sign-ins, and every password change."""

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db.models.signals import pre_save
from django.dispatch import receiver

from .audit import audit_record, current_request

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
    """One event per failed attempt. django-axes' receiver runs first (its app is listed before
    this one) and marks the request when the user name or the address is locked out: the attempt
    that reaches the limit starts the lockout (significant), later ones are refused without looking
    at the password until it ends."""
    username = str(credentials.get(User.USERNAME_FIELD, credentials.get("username", "")))[:150]
    if request is not None and getattr(request, "axes_locked_out", False):
        started = getattr(request, "axes_failures_since_start", None) is not None
        audit_record(
            actor=None,
            action="auth.locked_out",
            data={"username": username, "lockout_started": started},
            request=request,
            significant=started,
        )
        return
    audit_record(
        actor=None,
        action="auth.login_failed",
        data={"username": username},
        request=request,
        significant=False,
    )


@receiver(pre_save, sender=User, dispatch_uid="compliance.audit_password_change")
def _audit_password_change(sender, instance, raw=False, update_fields=None, **kwargs):
    """Every password change, wherever it is made (the staff page, the admin, `changepassword`, the
    shell), is one audit event, found here by comparing the stored hash. The actor is the signed-in
    user of the current request (compliance.audit.request_context, set for every request by
    config.middleware) or the console; changing someone else's password (or from the console) is
    significant. A hash upgrade on sign-in (Django re-hashes an outdated hash with the same
    password) is not a change."""
    if raw or instance._state.adding or instance.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    old = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if not old or old == instance.password:  # no row yet, or the first password of a new account
        return
    if instance._password is None and _outdated_hash(old):
        return
    request = current_request()
    actor = getattr(request, "user", None) if request is not None else None
    if actor is None or not actor.is_authenticated:
        actor = "system:console" if request is None else None
    self_change = not isinstance(actor, str) and actor is not None and actor.pk == instance.pk
    audit_record(
        actor=actor,
        action="auth.password_changed",
        obj=instance,
        data={"usable": instance.has_usable_password()},
        request=request,
        significant=not self_change,
    )


def _outdated_hash(encoded: str) -> bool:
    try:
        return identify_hasher(encoded).must_update(encoded)
    except ValueError:
        return False
