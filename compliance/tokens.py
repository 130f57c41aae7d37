"""API tokens (django-rest-knox): hashed at rest, with an expiry, issued and revoked only here.

A token's clear text exists once, in the answer to `token_issue` (the `api_token` command prints it);
the database keeps a digest. Issuing and revoking are audit events; a rotation issues the new token
and revokes the old ones in one transaction, so a channel is never without a working token longer
than it takes to deploy the new one (`--keep-old` keeps the old ones until they expire).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from knox.models import AuthToken

from .audit import audit_record


@transaction.atomic
def token_issue(*, actor, user, days: int | None = None, revoke_others: bool = False, request=None) -> str:
    """A new token for `user`; returns its clear text (shown once). Revokes the user's others on request."""
    ttl = dt.timedelta(days=days) if days else settings.REST_KNOX["TOKEN_TTL"]
    revoked = 0
    if revoke_others:
        revoked, _ = AuthToken.objects.filter(user=user).delete()
    instance, clear = AuthToken.objects.create(user=user, expiry=ttl)
    audit_record(
        actor=actor,
        action="auth.token_issued",
        obj=user,
        after={"token_prefix": instance.token_key, "expires": instance.expiry, "revoked_others": revoked},
        significant=True,
        request=request,
    )
    return clear


@transaction.atomic
def token_revoke_all(*, actor, user, request=None) -> int:
    count, _ = AuthToken.objects.filter(user=user).delete()
    audit_record(
        actor=actor, action="auth.tokens_revoked", obj=user, after={"revoked": count}, significant=True,
        request=request,
    )
    return count


def token_issue_once(*, actor, user) -> str | None:
    """A token for `user` unless it holds an unexpired one (then None: its clear text cannot be shown
    again; `api_token rotate` makes a new one). Keeps `seed_demo` idempotent."""
    from django.utils import timezone

    if AuthToken.objects.filter(user=user, expiry__gt=timezone.now()).exists():
        return None
    return token_issue(actor=actor, user=user)
