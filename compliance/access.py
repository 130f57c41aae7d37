"""Access checks shared by staff pages and the API.

Every view names the permission it needs in `permission_required`; a view without one is refused
(fail closed), and tests/test_access.py walks every URL to prove it.
"""

from __future__ import annotations

import logging

from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from rest_framework.permissions import BasePermission

log = logging.getLogger(__name__)


class StaffPermissionRequired(LoginRequiredMixin, PermissionRequiredMixin):
    """Anonymous users go to the login page; signed-in users without the permission get 403."""

    raise_exception = False  # AccessMixin: authenticated users still get 403, anonymous a redirect


def _as_tuple(perm: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if not perm:
        return ()
    return (perm,) if isinstance(perm, str) else tuple(perm)


class HasRequiredPermission(BasePermission):
    """DRF: an authenticated user holding every permission named in the view's `permission_required`."""

    message = "You do not have the permission this endpoint requires."

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not (user and user.is_authenticated and user.is_active):
            return False
        perms = _as_tuple(getattr(view, "permission_required", None))
        if not perms:
            log.error("API view %s declares no permission_required; refusing", type(view).__name__)
            return False
        return user.has_perms(perms)


def required_permissions(view_class) -> tuple[str, ...]:
    return _as_tuple(getattr(view_class, "permission_required", None))
