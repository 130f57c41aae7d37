"""URL converters. `<id:pk>` is Django's `<int:pk>` bounded by the id columns: a number too large for a
BigAutoField is simply no such object (404), where `<int:pk>` would hand it to the database and fail
with a 500 (issue 14). Registered when this module is imported: every URLconf that uses `<id:...>`
imports it first."""

from __future__ import annotations

from django.urls import register_converter

from .bounds import BIGINT_MAX


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > BIGINT_MAX:
            raise ValueError("above the id column")  # Django: this route does not match -> 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
