"""The one exception handler of the API (`REST_FRAMEWORK["EXCEPTION_HANDLER"]`).

Every error answers `{"code": ..., "detail": ..., "fields": {...}}`: `code` a stable machine word,
`detail` a sentence for people, `fields` only for validation errors (field name -> messages; errors
that belong to no field under `non_field_errors`). Refusals may add their own keys (`reasons`,
`allowed_cents`, ...), which are kept as they are.

The services raise `compliance.errors.DomainError`s and this module answers every one of them the
same way, `(exc.status, exc.as_dict())`: no app registers its own translation.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import set_rollback

from .errors import DomainError

INVALID_DETAIL = _("The request is not valid; see fields.")


def _fields(detail: Any) -> dict[str, Any]:
    if isinstance(detail, dict):
        return detail
    return {"non_field_errors": detail if isinstance(detail, list) else [detail]}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's exception handler for the whole API; None (a 500) only for what nobody foresaw."""
    if isinstance(exc, DomainError):
        set_rollback()
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    if isinstance(exc, exceptions.ValidationError):
        body = {"code": "invalid", "detail": str(INVALID_DETAIL), "fields": _fields(exc.detail)}
    else:
        codes = exc.get_codes()
        body = {"code": codes if isinstance(codes, str) else exc.default_code, "detail": str(exc.detail)}
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)


class ApiErrorSerializer(serializers.Serializer):
    """The body of every error answer (documented once in the schema as `ApiError`)."""

    code = serializers.CharField(help_text="Stable machine word: invalid, not_found, four_eyes, draw_state, ...")
    detail = serializers.CharField(help_text="A sentence for people.")
    fields = serializers.DictField(
        child=serializers.JSONField(), required=False,
        help_text="Validation errors only: field name -> messages (non_field_errors for the whole request).",
    )
    reasons = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="Player-protection refusals: every reason, each with its code and message.",
    )


# Shared response declarations for extend_schema(responses={...}).
_DESCRIPTIONS = {
    400: "Invalid input: `fields` names each field and what is wrong with it",
    401: "No credentials or an invalid or expired token",
    403: "The caller lacks the permission, or the four-eyes rule refuses this person",
    404: "No such object, or not visible to the caller",
    409: "Conflicts with the object's current state",
    422: "Refused by a rule (player protection, the ledger, an import's contents); the body says why",
    429: "Too many requests; retry after `Retry-After` seconds",
}


def error_responses(*codes: int, **descriptions: str) -> dict[int, OpenApiResponse]:
    """`{status: OpenApiResponse(ApiErrorSerializer, ...)}` for extend_schema; descriptions by `e404=...`."""
    return {
        code: OpenApiResponse(ApiErrorSerializer, description=descriptions.get(f"e{code}", _DESCRIPTIONS[code]))
        for code in codes
    }


class ErrorsAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the error answers every operation can give, each with the
    `ApiError` body: 401 and 403 (authentication and permissions), 429 (throttles), 400 for
    operations that take a body or query parameters, 404 for those with a path parameter or pages,
    409 for writes (a service refusing because of the state). Views declare the rest (422, or a
    more precise description) with `error_responses(...)`."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = {401, 403, 429}
        writes = self.method in ("POST", "PUT", "PATCH", "DELETE")
        paged = self._is_list_view() and self._get_paginator() is not None
        if writes or any(p.get("in") == "query" for p in self._get_parameters()):
            codes.add(400)
        if "{" in self.path or paged:
            codes.add(404)
        if writes:
            codes.add(409)
        for code in sorted(codes):
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    OpenApiResponse(ApiErrorSerializer, description=_DESCRIPTIONS[code]), str(code),
                    direction=direction,
                )
        return responses
