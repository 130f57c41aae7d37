"""The lottery's boundary for the prize engine's messages: an engine error's code -> a translatable
template (`gettext_lazy`) with the error's named parameters, rendered in the reader's language.

The engines (`lottery.rules`) stay pure and English; the codecs of `lottery.games` give their errors a
code and parameters (`RulesError(..., code=..., **params)`). `domain_message(exc)` returns what a
`compliance.errors.DomainError` takes: the template and the parameters, or the English message itself
for an error with no code (yet) in the table below.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from compliance.errors import shown_message

from ..rules.errors import RulesError

TEMPLATES = {
    "result_required": _("%(game)s result: the %(field)s is required"),
    "line_required": _("%(game)s line: the %(field)s is required"),
    "not_whole": _("%(what)s: %(value)s is not a whole number"),
    "not_numbers": _("%(what)s: %(value)s is not a list of whole numbers"),
    "expected_list": _("%(what)s: expected a list of numbers"),
    "no_plussa": _("%(game)s has no Plussa: the plus number must be empty"),
    "no_secondary": _("%(game)s lines have no star or Viking numbers"),
    "plussa_fee": _("a Plussa line (with a plus number) pays plus_cents; others pay none"),
}

#: The names of result and line fields inside the messages above.
FIELDS = {
    "numbers": _("numbers"),
    "additional number": _("additional number"),
    "plus number": _("plus number"),
    "star numbers": _("star numbers"),
    "Viking number": _("Viking number"),
    "Kunkku number": _("Kunkku number"),
    "Onnenapila lucky number": _("Onnenapila lucky number"),
    "bonus token": _("bonus token"),
    "digits": _("digits"),
    "city": _("city"),
    "number": _("number"),
    "date": _("date"),
    "letter": _("letter"),
}


def domain_message(exc: RulesError) -> tuple[Any, dict[str, Any]]:
    """(template, params) of an engine or codec error, for a DomainError: translated when its code is
    known, else its English text as it is."""
    template = TEMPLATES.get(exc.code)
    if template is None:
        return str(exc), {}
    params = dict(getattr(exc, "params", {}))
    if "field" in params:
        params["field"] = FIELDS.get(str(params["field"]), params["field"])
    return template, params


def shown_row_message(record: Mapping[str, Any]) -> str:
    """A stored row message (`{"msgid", "params"}`, compliance.errors.stored_message) in the active
    language; a `field` parameter (a result or line field's English name) is translated too."""
    params = record.get("params") or {}
    if "field" in params:
        params = {**params, "field": str(FIELDS.get(str(params["field"]), params["field"]))}
    return shown_message({**record, "params": params})


# Prize class names: the digest's English labels of the rule versions ("7 correct", "6 + additional
# correct", "5 digits in position", ...) as shown on pages; numeric names ("6+1", Keno's "10/10") read
# the same in every language and are shown as they are.
CLASS_PATTERNS = (
    (re.compile(r"^(\d+) correct$"), _("%(n)s correct")),
    (re.compile(r"^(\d+) \+ additional correct$"), _("%(n)s + additional correct")),
    (re.compile(r"^(\d+) digits in position$"), _("%(n)s digits in position")),
)
CLASS_NAMES = {
    "plus number correct": _("plus number correct"),
    "city correct": _("city correct"),
    "city and number correct": _("city and number correct"),
}


def class_label(label: str) -> str:
    """A prize class's label in the active language."""
    if label in CLASS_NAMES:
        return str(CLASS_NAMES[label])
    for pattern, template in CLASS_PATTERNS:
        if match := pattern.match(label):
            return str(template) % {"n": match.group(1)}
    return label
