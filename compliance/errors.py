"""The one error contract of every service (issue 16 item 3).

A service refuses by raising a `DomainError` (or a subclass). The error carries:

- `code`: a stable machine word (`draw_state`, `insufficient_funds`, ...), the same in every language;
- a translatable message template (`gettext_lazy`) with named `%(name)s` parameters, rendered in the
  language active when it is shown (the page's, the API caller's), never when it is raised: a refusal
  raised in a Celery worker and stored shows in Finnish to a Finnish reader;
- `status`: the HTTP status the API answers with (400 bad input, 403 four eyes, 404, 409 state, 422 a
  rule refuses);
- `fields`: optional field errors (field name -> list of messages), shown beside the fields on pages
  and under `fields` in the API;
- `extra`: machine-readable details kept as they are in the API body (`reasons`, `allowed_cents`, ...).

Parameters that are themselves lazy strings (a state's label, a prize class's name) are rendered in the
same language as the message, so "Lotto #1003 on avoin" never mixes languages.

The API answers every DomainError as `{"code", "detail", "fields"?, **extra}` (`compliance.api_errors`);
pages show `str(exc)` beside the form (`add_to_form`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .money import format_cents


def _render(value: Any) -> Any:
    if isinstance(value, Promise):
        return str(value)
    return value


def _format(template: Any, params: Mapping[str, Any]) -> str:
    text = str(template)
    if params:
        text = text % {k: _render(v) for k, v in params.items()}
    return text


_lazy_format = lazy(_format, str)


def lazy_format(template: Any, **params: Any) -> Promise:
    """`template % params`, rendered when shown (in the language active then): a phrase that goes
    into another message as a parameter ("the result of %(draw)s")."""
    return _lazy_format(template, params)


def _either(items: tuple[Any, ...]) -> str:
    texts = [str(i) for i in items]
    if len(texts) < 2:
        return "".join(texts)
    return str(_("%(items)s or %(last)s")) % {"items": ", ".join(texts[:-1]), "last": texts[-1]}


#: "a, b or c" in the language active when shown (state labels in a refusal).
either = lazy(lambda *items: _either(items), str)
#: An amount for a message, formatted in the language active when shown.
lazy_cents = lazy(format_cents, str)


def stored_message(template: Any, **params: Any) -> dict[str, Any]:
    """A message to keep in a record (an import's row errors): `message` in English, so the record
    does not depend on whose request wrote it, and `msgid` and `params` (plain JSON values) to show it
    again in the reader's language with `shown_message`."""
    with translation.override(None):
        msgid = str(template)
    with translation.override("en"):
        message = _format(template, params)
    return {"message": message, "msgid": msgid, "params": params}


def shown_message(record: Mapping[str, Any], key: str = "message") -> str:
    """A stored message (`stored_message`) in the language active now; a record written before
    messages kept their msgid shows its English `key`."""
    if "msgid" in record:
        return gettext(record["msgid"]) % record.get("params", {}) if record.get("params") else gettext(record["msgid"])
    return record.get(key, "")


class DomainError(Exception):
    """A refusal of a service; subclasses set `code`, `status` and a default `message`."""

    code: str = "refused"
    status: int = 409
    default_message: Any = _("The operation was refused.")

    def __init__(
        self,
        message: Any = None,
        *,
        code: str | None = None,
        status: int | None = None,
        fields: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
        **params: Any,
    ) -> None:
        self.template = message if message is not None else type(self).default_message
        self.params = params
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.fields = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in (fields or {}).items()}
        self.extra = dict(extra or {})
        super().__init__(self.template)

    @property
    def detail(self) -> str:
        """The message in the active language, parameters filled in."""
        return _format(self.template, self.params)

    @property
    def message(self) -> str:
        """The same as `detail` (the name older callers use)."""
        return self.detail

    def __str__(self) -> str:
        return self.detail

    def field_messages(self) -> dict[str, list[str]]:
        return {k: [str(m) for m in v] for k, v in self.fields.items()}

    def as_dict(self) -> dict[str, Any]:
        """The API body: `{"code", "detail", "fields"?, **extra}`."""
        body: dict[str, Any] = {"code": self.code, "detail": self.detail}
        if self.fields:
            body["fields"] = self.field_messages()
        body.update(self.extra)
        return body

    def add_to_form(self, form) -> None:
        """Show the refusal on a Django form: each field error beside its field, the message on top."""
        for name, messages in self.fields.items():
            for m in messages:
                form.add_error(name if name in form.fields else None, str(m))
        if not self.fields or self.detail:
            form.add_error(None, self.detail)


class InvalidInput(DomainError):
    """The request breaks a rule about its own values."""

    code = "invalid"
    status = 400
    default_message = _("The input is not valid.")


class StateConflict(DomainError):
    """The request does not fit the object's current state."""

    code = "conflict"
    status = 409
    default_message = _("This does not fit the current state.")


class RuleRefused(DomainError):
    """A rule refuses (player protection, the ledger, an import's contents)."""

    code = "refused"
    status = 422
    default_message = _("A rule refuses this.")


class NotPermitted(DomainError):
    """The person may not do this (four eyes, a missing permission)."""

    code = "forbidden"
    status = 403
    default_message = _("You may not do this.")
