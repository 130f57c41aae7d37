"""The round check page's forms: the game, venue and outcome, and one row per bet."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.rules.jsonio import BET_KEYS
from casino.rules.venues import LEGAL

from .selectors import variant_choices

SEP = "/"
BET_ROWS = 8
# An engine's field path: `bets[2].stake`, `bets[2]`, `paid[1]`, `outcome.player[0]`, `venue.max_stake.x`.
_ROW_FIELD = re.compile(r"(bets|paid)\[(\d+)\](?:\.(\w+))?")
ROW_FIELDS = ("type", "stake", "box", "player")


#: Venue kinds in staff words (casino.rules.venues); a kind not listed shows its code.
VENUE_KINDS = {"game_hall": _("Game hall"), "casino": _("Casino"), "ray": _("RAY game hall"),
               "billionaire": _("Casino Billionaire")}


def _label(code: str) -> str:
    return code.replace("_", " ").capitalize()


def game_choices() -> list[tuple[str, str]]:
    return [(SEP.join(key), f"{key[0]} · {_label(key[1])} · {key[2]}") for key in variant_choices()]


def venue_choices() -> list[tuple[str, str]]:
    return [(f"{rulebook}{SEP}{kind}", f"{rulebook} · {VENUE_KINDS.get(kind, kind)}") for rulebook, kind in sorted(LEGAL)]


def _json_object(text: str, *, required: bool) -> dict | None:
    text = (text or "").strip()
    if not text:
        if required:
            raise forms.ValidationError(_("Enter a JSON object."))
        return None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise forms.ValidationError(_("Not valid JSON: %(reason)s"), params={"reason": exc}) from None
    if not isinstance(data, dict):
        raise forms.ValidationError(_("Enter a JSON object, such as {\"number\": 17}."))
    return data


class RoundCheckForm(forms.Form):
    game = forms.ChoiceField(label=_("Rulebook, game and variant"))
    venue = forms.ChoiceField(label=_("Venue"))
    table_limits = forms.CharField(
        label=_("Table limits (JSON)"), required=False,
        widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false", "class": "mono"}),
        help_text=_("Optional: the table's own lower limits, e.g. {\"max_stake\": {\"roulette_inside_1\": \"100.00\"}, "
                    "\"win_cap\": null}. Required for RAY tables."))
    round_at = forms.DateTimeField(
        label=_("Played at"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Selects the rule version in force; empty: now."))
    outcome = forms.CharField(
        label=_("Outcome (JSON)"), widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "mono"}),
        help_text=_("What the table produced, as docs/casino.md describes for the game: {\"number\": 17}, "
                    "{\"player\": \"As Kh\", \"dealer\": \"9c 7d 5s\"} ... Cards as text such as As Kh 10d."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        self.fields["venue"].choices = venue_choices()

    def clean_table_limits(self):
        return _json_object(self.cleaned_data.get("table_limits"), required=False)

    def clean_outcome(self):
        return _json_object(self.cleaned_data.get("outcome"), required=True)

    def clean(self):
        data = super().clean()
        game, venue = data.get("game"), data.get("venue")
        if game and venue and game.split(SEP)[0] != venue.split(SEP)[0]:
            self.add_error("venue", _("This venue is not of rulebook %(rulebook)s.") % {"rulebook": game.split(SEP)[0]})
        return data

    def round_args(self) -> dict[str, Any]:
        """The service's arguments (bets and paid amounts come from the rows)."""
        rulebook, game, variant = self.cleaned_data["game"].split(SEP)
        kind = self.cleaned_data["venue"].split(SEP)[1]
        limits = self.cleaned_data.get("table_limits")
        return {"rulebook": rulebook, "game": game, "variant": variant, "outcome": self.cleaned_data["outcome"],
                "venue": {**limits, "kind": kind} if limits else kind, "round_at": self.cleaned_data.get("round_at")}


class BetForm(forms.Form):
    type = forms.CharField(label=_("Bet type"), required=False, max_length=60)
    stake = forms.CharField(label=_("Stake (€)"), required=False, max_length=20)
    box = forms.IntegerField(label=_("Box"), required=False, min_value=1, max_value=99)
    player = forms.CharField(label=_("Player"), required=False, max_length=64)
    params = forms.CharField(
        label=_("Bet details (JSON)"), required=False, max_length=4000,
        widget=forms.TextInput(attrs={"spellcheck": "false", "class": "mono", "placeholder": '{"numbers": [17]}'}))
    paid = forms.CharField(label=_("Paid (€)"), required=False, max_length=20)

    def clean_params(self):
        params = _json_object(self.cleaned_data.get("params"), required=False) or {}
        taken = sorted(set(params) & (BET_KEYS - {"player_age"}))
        if taken:
            raise forms.ValidationError(_("Give %(keys)s in its own column."), params={"keys": ", ".join(taken)})
        return params

    def clean(self):
        data = super().clean()
        if not self.is_blank() and not data.get("type"):
            self.add_error("type", _("Which bet?"))
        if not self.is_blank() and not data.get("stake"):
            self.add_error("stake", _("The stake of the bet."))
        return data

    def is_blank(self) -> bool:
        return not any(self.data.get(self.add_prefix(name), "").strip() for name in self.fields)

    def bet(self) -> dict[str, Any]:
        data = self.cleaned_data
        bet = {"type": data["type"], "stake": data["stake"].strip(), **data["params"]}
        for key in ("box", "player"):
            if data.get(key) not in (None, ""):
                bet[key] = data[key]
        return bet


BetFormSet = forms.formset_factory(BetForm, extra=BET_ROWS, max_num=50, validate_max=True)


def place_error(field: str, message: str, form: RoundCheckForm, rows: list[BetForm]) -> None:
    """Show an engine's refusal beside the field it names: `bets[2].stake` on the third filled row's
    stake, `bets[2].numbers` on its details, `outcome.player` on the outcome, `venue...` on the venue."""
    text = f"{field}: {message}"
    m = _ROW_FIELD.match(field)
    if m and int(m.group(2)) < len(rows):
        row, sub = rows[int(m.group(2))], m.group(3)
        if m.group(1) == "paid":
            row.add_error("paid", message)
        elif sub in ROW_FIELDS:
            row.add_error(sub, message)
        elif sub is None:
            row.add_error(None, message)
        else:
            row.add_error("params", text)
        return
    head = re.split(r"[.\[]", field, maxsplit=1)[0]
    target = {"outcome": "outcome", "venue": "table_limits" if form.cleaned_data.get("table_limits") else "venue",
              "rulebook": "game", "game": "game", "variant": "game", "round_at": "round_at"}.get(head)
    form.add_error(target, text)
