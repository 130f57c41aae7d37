"""The round check's outcome as form fields, built from the engine's description
(`casino.rules.fields`): no code here knows a game by its name.

`OutcomeForm(engine.outcome_fields, data, prefix=...)` has one form field per outcome field and, for a
game with boxes or hands, `rows` rows of the box's fields with the box number. `outcome()` gives the
outcome as the engine reads it (`{"number": 17}`, `{"dealer": "Kh 7c", "boxes": {"1": {...}}}`);
`place_error(path, message)` shows an engine's refusal (`outcome.boxes.1.cards`,
`outcome.boxes[0].actions[2]`, `outcome.player[2]`) beside the field it names.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.rules import fields as desc
from compliance.errors import lazy_format

from .labels import label

DIE = [("", "–")] + [(str(n), str(n)) for n in range(1, 7)]


class DiceWidget(forms.MultiWidget):
    def __init__(self, count: int):
        super().__init__([forms.Select(choices=DIE) for _i in range(count)])

    def decompress(self, value):
        return list(value or [])


class DiceField(forms.MultiValueField):
    """`count` dice, each 1-6; the dice given, in order (a blank die is left out)."""

    def __init__(self, count: int, **kwargs):
        fields = [forms.TypedChoiceField(choices=DIE, coerce=int, required=False, empty_value=None)
                  for _i in range(count)]
        widget = DiceWidget(count)
        super().__init__(fields=fields, widget=widget, require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list):
        return [d for d in (data_list or []) if d is not None]


def _slug(name: str) -> str:
    return re.sub(r"\W", "_", name)


def _help(f: desc.Field):
    if f.kind == "actions":
        return lazy_format(_("Words in order, separated by spaces: %(words)s"),
                           words=", ".join(f"{c} ({label(c)})" for c in f.choices))
    if f.kind == "steps":
        return lazy_format(_("Decisions in order, separated by semicolons: %(words)s. Cards exchanged: "
                             "exchange 2d 3c -> 9h Ts; a sixth card: sixth_card 5c."),
                           words=", ".join(f"{c} ({label(c)})" for c in f.choices))
    if f.kind == "cards":
        return _("Cards as text in deal order, such as As Kh 10d (T or 10 for a ten).")
    if f.kind == "pairs":
        return _("Pairs of box numbers, such as 1-2, 4-5.")
    return ""


def _form_field(f: desc.Field) -> forms.Field:
    common = {"label": label(f.label), "required": False, "help_text": _help(f)}
    if f.kind == "choice":
        return forms.ChoiceField(choices=[("", "–")] + [(c, label(c)) for c in f.choices], **common)
    if f.kind == "dice":
        return DiceField(f.count, label=label(f.label))
    if f.kind == "flag":
        return forms.BooleanField(label=label(f.label), required=False)
    size = {"number": 6, "amount": 12, "pairs": 12}.get(f.kind, 20)
    attrs = {"size": size, "spellcheck": "false", "autocomplete": "off"}
    if f.kind in ("cards", "actions", "steps"):
        attrs["class"] = "mono"
    if f.kind == "number":
        attrs["inputmode"] = "numeric"
    return forms.CharField(max_length=400, widget=forms.TextInput(attrs=attrs), **common)


def _value(f: desc.Field, value: Any) -> Any:
    """A cleaned form value as the outcome holds it; None when not given."""
    if value in (None, "", [], False):
        return None
    if f.kind == "number" or (f.kind == "choice" and str(value).isdigit()):
        return desc.number_value(str(value))
    if f.kind == "actions":
        return desc.words(value)
    if f.kind == "steps":
        return desc.steps_value(value, f.steps)
    if f.kind == "pairs":
        return desc.pairs_value(value)
    if isinstance(value, str):
        return value.strip()
    return value


class OutcomeForm(forms.Form):
    def __init__(self, description: tuple, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.description = description
        self.top: list[tuple[desc.Field, str]] = []
        self.boxes: desc.Boxes | None = None
        self.box_rows: list[dict[str, Any]] = []  # {"box": form name, "fields": [(Field, form name)]}
        for item in description:
            if isinstance(item, desc.Boxes):
                self.boxes = item
                for i in range(item.rows):
                    box_name = f"{item.name}{i}_box"
                    self.fields[box_name] = forms.IntegerField(
                        label=_("Box"), required=False, min_value=1, max_value=99,
                        widget=forms.NumberInput(attrs={"size": 3}))
                    row = {"box": box_name, "fields": []}
                    self.fields[box_name].widget.attrs["aria-label"] = _("Box")
                    for f in item.fields:
                        name = f"{item.name}{i}_{_slug(f.name)}"
                        self.fields[name] = _form_field(f)
                        self.fields[name].widget.attrs["aria-label"] = label(f.label)  # the column's heading
                        row["fields"].append((f, name))
                    self.box_rows.append(row)
            else:
                name = _slug(item.name)
                self.fields[name] = _form_field(item)
                self.top.append((item, name))

    # ------------------------------------------------------------------------------ for the page

    def top_fields(self):
        return [self[name] for _f, name in self.top]

    def row_fields(self):
        return [{"box": self[row["box"]], "fields": [self[name] for _f, name in row["fields"]]}
                for row in self.box_rows]

    def box_help(self):
        return [{"label": label(f.label), "help": _help(f)} for f in (self.boxes.fields if self.boxes else ())
                if _help(f)]

    def box_headers(self):
        return [label(f.label) for f in self.boxes.fields] if self.boxes else []

    # ------------------------------------------------------------------------------ the outcome

    def _filled_rows(self) -> list[dict[str, Any]]:
        data = self.cleaned_data
        return [row for row in self.box_rows
                if data.get(row["box"]) is not None or any(_value(f, data.get(n)) is not None for f, n in row["fields"])]

    def clean(self):
        data = super().clean()
        for row in self._filled_rows():
            if data.get(row["box"]) is None and row["box"] not in self.errors:
                self.add_error(row["box"], _("Which box?"))
        return data

    def outcome(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for f, name in self.top:
            value = _value(f, data.get(name))
            if value is not None:
                desc.nest(out, f.name, value)
        if self.boxes is not None:
            rows = []
            for row in self._filled_rows():
                box: dict[str, Any] = {}
                for f, name in row["fields"]:
                    value = _value(f, data.get(name))
                    if value is not None:
                        desc.nest(box, f.name, value, desc.list_width(self.boxes.fields, f.name))
                rows.append((data[row["box"]], box))
            if rows:
                out[self.boxes.name] = ({str(n): box for n, box in rows} if self.boxes.keyed
                                        else [{"box": n, **box} for n, box in rows])
        return out

    # ------------------------------------------------------------------------------ errors

    @staticmethod
    def _match(path: str, named: list[tuple[desc.Field, str]]) -> str | None:
        """The form name of the field a path within the outcome (or a box) names: the field itself
        (`cards`), a part of it (`actions[2]`, `player[1]`, `actions.river`), or a field of which the
        path names the whole (`withdrawn` of `withdrawn[0]`, `actions` of `actions.flop`)."""
        best = None
        for f, name in sorted(named, key=lambda item: -len(item[0].name)):
            if path == f.name or path.startswith((f.name + ".", f.name + "[")):
                return name
            if best is None and f.name.startswith((path + ".", path + "[")):
                best = name
        return best

    def place_error(self, path: str, message: Any) -> None:
        """Show an engine's refusal about `outcome...` beside its field (else above the fieldset)."""
        rest = path[len("outcome"):].lstrip(".") if path.startswith("outcome") else path
        target = self._match(rest, self.top) if rest else None
        if target is None and self.boxes is not None and rest.startswith(self.boxes.name):
            m = re.fullmatch(r"(?:\.(\d+)|\[(\d+)\])(?:\.(.+))?", rest[len(self.boxes.name):])
            row = None
            if m and m.group(1) is not None:  # keyed by box number
                row = next((r for r in self.box_rows if self.cleaned_data.get(r["box"]) == int(m.group(1))), None)
            elif m:  # the n-th box given
                filled = self._filled_rows()
                row = filled[int(m.group(2))] if int(m.group(2)) < len(filled) else None
            if row is not None:
                sub = m.group(3)
                target = row["box"] if not sub or sub == "box" else (self._match(sub, row["fields"]) or row["box"])
        if target is not None and target in self.fields:
            if target in self.errors:  # one message per field: the first the engine gave
                return
            self.add_error(target, message)
        else:
            self.add_error(None, message)
