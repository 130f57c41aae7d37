"""Human words for what the audit trail, the approvals page and the reports archive store as codes
(issue 18 items 1 and 4): "Result entered" for `lottery.result_entered`, "Draw" for `lottery.draw`,
"Lotto #1002" linked to its page for `lottery.draw:2`, and a payload as labelled fields with money in
euros instead of `paid_cents: 53000`.

compliance imports no app, so the apps tell it their words from their registrations (`register_words`):
the names of their audit actions and object types, the labels of their payload keys, the words of
their stored codes, and how to link one of their objects. What nobody registered still reads as words
(`lottery.result_entered` -> "Result entered"), never as a code, and goes through the catalogue: a key
whose words are a msgid ("effective_from" -> "Effective from") and a stored value that is one (a state
such as "open") are shown in the reader's language. A stored message kept with its code and parameters
(a screening reason) is rendered again from them by the renderer registered for its key (`render`).

    from compliance.words import register_words
    register_words(actions={"lottery.result_entered": _("Result entered")},
                   object_types={"lottery.draw": _("Draw")},
                   links={"lottery.draw": lambda pk: reverse("lottery:draw", args=[pk])})
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .money import format_cents

MISSING = "—"

_ACTIONS: dict[str, Any] = {}
_OBJECT_TYPES: dict[str, Any] = {}
_KEYS: dict[str, Any] = {}
_LINKS: dict[str, Callable[[str], str]] = {}
_NAMES: dict[str, Callable[[str], str]] = {}
_REFS: dict[str, str] = {}
_VALUES: dict[str, Callable[[str], str]] = {}
_RENDER: dict[str, Callable[[Any], Any]] = {}


@dataclass(frozen=True)
class Fact:
    """One labelled line of a decision or an audit event: `value` is text (or a list of texts shown
    as a list), `url` the page of the thing named, if any."""

    label: Any
    value: Any
    url: str = ""

    @property
    def is_list(self) -> bool:
        return isinstance(self.value, list | tuple)


@dataclass
class Subject:
    """What a decision is about, in words: a title ("Lotto #1002"), its page, and the facts a decider
    needs (the person, the amounts, what is in force)."""

    title: str = ""
    url: str = ""
    facts: list[Fact] = field(default_factory=list)
    #: Why, in words, when the request's stored reason was written by the system rather than a person.
    reason: str = ""


def register_words(*, actions: dict[str, Any] | None = None, object_types: dict[str, Any] | None = None,
                   keys: dict[str, Any] | None = None, links: dict[str, Callable[[str], str]] | None = None,
                   names: dict[str, Callable[[str], str]] | None = None, refs: dict[str, str] | None = None,
                   values: dict[str, Callable[[str], str]] | None = None,
                   render: dict[str, Callable[[Any], Any]] | None = None) -> None:
    """Register translated names: `actions` (audit action -> name), `object_types` (model label ->
    name), `keys` (payload key -> label), `links` (model label -> fn(object id) -> url), `names`
    (model label -> fn(object id) -> its name, "Lotto #1002") and `refs` (payload key -> the model
    label its value is the id of: {"draw": "lottery.draw"}), `values` (payload key -> fn(code) -> its
    words, e.g. an approval's kind) and `render` (payload key -> fn(stored value of any shape) -> its
    words, a text or a list of texts: stored messages rendered again from their code and parameters)."""
    _ACTIONS.update(actions or {})
    _OBJECT_TYPES.update(object_types or {})
    _KEYS.update(keys or {})
    _LINKS.update(links or {})
    _NAMES.update(names or {})
    _REFS.update(refs or {})
    _VALUES.update(values or {})
    _RENDER.update(render or {})


def _humanised(code: str) -> str:
    words = code.rsplit(".", 1)[-1].replace("_", " ").strip()
    return capfirst(words) if words else code


def action_words(action: str) -> str:
    """The name of an audit action in the active language."""
    if action in _ACTIONS:
        return str(_ACTIONS[action])
    return _catalogued(_humanised(action))


def object_type_words(label: str) -> str:
    """The name of an object type (a model label) in the active language."""
    if not label:
        return ""
    if label in _OBJECT_TYPES:
        return str(_OBJECT_TYPES[label])
    try:
        return str(capfirst(apps.get_model(label)._meta.verbose_name))
    except (LookupError, ValueError):
        return _humanised(label)


def object_url(label: str, object_id: Any) -> str:
    """The staff page of one object, when its app registered one ("" otherwise)."""
    fn = _LINKS.get(label)
    if fn is None or object_id in (None, ""):
        return ""
    try:
        return fn(str(object_id)) or ""
    except (NoReverseMatch, ValueError, LookupError):
        return ""


def actions_choices(codes: Iterable[str]) -> list[tuple[str, str]]:
    """(code, name) of the given actions, sorted by name: the action filter's choices."""
    return sorted(((c, action_words(c)) for c in codes), key=lambda pair: pair[1].casefold())


def object_types_choices(labels: Iterable[str]) -> list[tuple[str, str]]:
    return sorted(((c, object_type_words(c)) for c in labels if c), key=lambda pair: pair[1].casefold())


def _catalogued(text: str) -> str:
    """`text` in the reader's language when the catalogue has it as a msgid, else as it is."""
    return gettext(text) if text else text


CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def code_words(value: str) -> str:
    """A stored code or English word in the reader's words when the catalogue knows it: a state
    ("open"), an action ("deposit"), a code whose words are a msgid ("game_hall" -> "Game hall");
    anything else (a name, a note a person wrote) as it is."""
    said = _catalogued(value)
    if said == value and CODE.fullmatch(value):
        words = _humanised(value)
        said = _catalogued(words)
        return said if said != words else value
    return said


def key_words(key: str) -> str:
    if key in _KEYS:
        return str(_KEYS[key])
    base = key[: -len("_cents")] if key.endswith("_cents") else key
    if base in _KEYS:
        return str(_KEYS[base])
    return _catalogued(_humanised(base))


def _local(value: dt.datetime) -> str:
    if timezone.is_naive(value):
        return value.strftime("%Y-%m-%d %H:%M")
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M")


def value_words(key: str, value: Any) -> Any:
    """A stored value as text: cents as euros, times in the operator's zone, lists and mappings
    spelt out (never `{'numbers': [...]}`)."""
    if value is None or value == "":
        return MISSING
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if key.endswith("_cents") and isinstance(value, int | str):
        try:
            return format_cents(int(value))
        except (TypeError, ValueError):
            return str(value)
    if isinstance(value, dt.datetime):
        return _local(value)
    if isinstance(value, str) and len(value) >= 19 and value[4:5] == "-" and value[10:11] == "T":
        try:
            return _local(dt.datetime.fromisoformat(value))
        except ValueError:
            return value
    if isinstance(value, str):
        return code_words(value)
    if isinstance(value, dict):
        return "; ".join(f"{key_words(k)}: {_flat(value_words(k, v))}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
            return " ".join(str(v) for v in value) if key.endswith(("numbers", "picks")) else ", ".join(
                _flat(value_words(key, v)) for v in value)
        return [_flat(value_words(key, v)) for v in value]
    return str(value)


def _flat(value: Any) -> str:
    return ", ".join(value) if isinstance(value, list) else str(value)


def object_name(label: str, object_id: Any) -> str:
    """An object's name by its app ("Lotto #1002"), or "" when its app registered none or it is gone."""
    fn = _NAMES.get(label)
    if fn is None or object_id in (None, ""):
        return ""
    try:
        return fn(str(object_id)) or ""
    except (ValueError, LookupError):
        return ""


def _target_fact(key: str, value: str) -> Fact | None:
    """"lottery.draw:2" (an approval's target in the audit trail) -> "Draw: Lotto #1002", linked."""
    label, _sep, object_id = value.rpartition(":")
    if not label or "." not in label or not object_id:
        return None
    name = object_name(label, object_id) or object_id
    return Fact(key_words(key), f"{object_type_words(label)}: {name}", object_url(label, object_id))


def _fact(key: str, value: Any) -> Fact:
    if key == "target" and isinstance(value, str):
        fact = _target_fact(key, value)
        if fact is not None:
            return fact
    if key in _VALUES and isinstance(value, str):
        return Fact(key_words(key), _VALUES[key](value))
    if key in _RENDER and value not in (None, ""):
        return Fact(key_words(key), _RENDER[key](value))
    label = _REFS.get(key)
    if label and isinstance(value, int | str) and not isinstance(value, bool) and str(value).isdigit():
        name = object_name(label, value)
        if name:
            return Fact(key_words(key), name, object_url(label, value))
    return Fact(key_words(key), value_words(key, value))


def payload_facts(payload: Any, *, skip: Iterable[str] = ()) -> list[Fact]:
    """A stored mapping (an audit event's before/after/details, an approval's payload, a report's
    parameters) as labelled facts: ids of known objects by name with a link, money in euros; anything
    else as one unlabelled fact."""
    if payload in (None, "", {}, []):
        return []
    if not isinstance(payload, dict):
        return [Fact("", value_words("", payload))]
    skipped = set(skip)
    return [_fact(k, v) for k, v in payload.items() if k not in skipped]


# Words of compliance's own actions and objects; the apps register theirs.
register_words(
    actions={
        "admin.add": _("Added in the admin"),
        "admin.change": _("Changed in the admin"),
        "admin.delete": _("Deleted in the admin"),
        "control.update": _("Controlled setting changed"),
        "control.create": _("Controlled setting created"),
        "control.delete": _("Controlled setting deleted"),
        "audit.chain_sealed": _("Audit chain sealed"),
        "audit.key_rotated": _("Audit key rotated"),
        "auth.otp_enrolled": _("Second factor enrolled"),
        "auth.otp_failed": _("Second factor failed"),
        "auth.otp_reset": _("Second factor reset"),
        "auth.superuser_created": _("Superuser created (break-glass)"),
        "approval.requested": _("Approval requested"),
        "approval.approved": _("Request approved"),
        "approval.rejected": _("Request rejected"),
        "approval.cancelled": _("Request withdrawn"),
        "approval.voided": _("Request made void"),
        "audit.chain_broken": _("Audit chain broken"),
        "auth.login": _("Signed in"),
        "auth.logout": _("Signed out"),
        "auth.login_failed": _("Sign-in failed"),
        "auth.login_refused": _("Sign-in refused"),
        "auth.locked_out": _("Account locked out"),
        "auth.password_changed": _("Password changed"),
        "auth.roles_changed": _("Roles changed"),
        "auth.user_created": _("User created"),
        "auth.token_issued": _("API token issued"),
        "auth.tokens_revoked": _("API tokens revoked"),
        "job.failed": _("Job failed"),
        "job.retried": _("Job retried"),
        "registry.ban_lifted": _("Ban lifted early"),
        "registry.entry_added": _("Register entry added"),
        "registry.import_applied": _("Register import applied"),
        "registry.import_failed": _("Register import failed"),
        "registry.import_queued": _("Register import queued"),
        "registry.import_staged": _("Register import staged"),
        "registry.import_rejected": _("Register import rejected"),
        "registry.import_stopped": _("Register import stopped"),
        "report.generated": _("Report generated"),
        "report.requested": _("Report requested"),
        "screening.excluded_attempt": _("Excluded person tried to play"),
        "screening.registry_unavailable": _("Register did not answer"),
    },
    object_types={
        "compliance.approval": _("Approval"),
        "compliance.screeningdecision": _("Screening decision"),
        "compliance.exclusionentry": _("Register entry"),
        "compliance.exclusionregistry": _("Register"),
        "compliance.registryimport": _("Register import"),
        "compliance.report": _("Report"),
        "compliance.job": _("Job"),
        "auth.user": _("User"),
    },
    keys={
        "amount": _("Amount"),
        "paid": _("Paid"),
        "reason": _("Reason"),
        "registry": _("Register"),
        "rows": _("Rows"),
        "ends_at": _("Ends"),
        "starts_at": _("Starts"),
        "note": _("Note"),
        "kind": _("Kind"),
        "requested_by": _("Requested by"),
        "state": _("State"),
        "file": _("File"),
        "errors": _("Errors"),
        "since": _("From"),
        "until": _("Until"),
        "game": _("Game"),
        "language": _("Language"),
        "target": _("Object"),
        "payload": _("Details"),
    },
)
