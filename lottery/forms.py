"""The prize calculator's form: a round as the `calculate_prizes` command takes it."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import GAME_CHOICES, RuleSet
from .rules.games import MULTIPLIER_GAMES as MULTIPLIER


def _amount(value: Any) -> str | None:
    if value in (None, ""):
        return None
    return f"{Decimal(value):.2f}"


class CalculatorForm(forms.Form):
    """Step one picks the game and version; step two fills the round.

    Class games get a field per prize class (winners, incoming rollover, Plussa-boosted winners);
    every game can instead take the round as JSON, which is also how multiplier games (Keno, Kaikki
    tai ei mitään, Synttärit, Tähdenlento) are entered, as line buckets.
    """

    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    ruleset = forms.ModelChoiceField(label=_("Rule version"), queryset=RuleSet.objects.all(), required=False)
    turnover = forms.DecimalField(label=_("Turnover (€)"), required=False, min_value=0, decimal_places=2)
    jackpot = forms.DecimalField(label=_("Confirmed jackpot (€)"), required=False, min_value=0, decimal_places=2)
    plussa_turnover = forms.DecimalField(label=_("Plussa turnover (€)"), required=False, min_value=0, decimal_places=2)
    round_json = forms.CharField(
        label=_("Round as JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "mono"}),
        help_text=_("Overrides the fields above. Same format as manage.py calculate_prizes --input."),
    )

    def __init__(self, *args, classes: list[dict] | None = None, plussa_classes: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_keys = [c["class"] for c in classes or []]
        self.plussa_classes = plussa_classes or []
        for c in classes or []:
            key = c["class"]
            self.fields[f"winners_{key}"] = forms.IntegerField(label=_("Winners"), required=False, min_value=0)
            self.fields[f"rollover_{key}"] = forms.DecimalField(
                label=_("Rollover in (€)"), required=False, min_value=0, decimal_places=2
            )
            if key in self.plussa_classes:
                self.fields[f"plussa_{key}"] = forms.IntegerField(label=_("Plussa winners"), required=False, min_value=0)

    def class_rows(self) -> list[dict]:
        return [
            {
                "key": key,
                "winners": self[f"winners_{key}"],
                "rollover": self[f"rollover_{key}"],
                "plussa": self[f"plussa_{key}"] if key in self.plussa_classes else None,
            }
            for key in self.class_keys
        ]

    def clean_round_json(self):
        text = self.cleaned_data.get("round_json", "").strip()
        if not text:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("Not valid JSON: %(msg)s (line %(line)s)"), params={"msg": exc.msg, "line": exc.lineno})
        if not isinstance(data, dict):
            raise forms.ValidationError(_("The round must be a JSON object."))
        return data

    def clean(self):
        data = super().clean()
        ruleset = data.get("ruleset")
        if ruleset is not None and data.get("game") and ruleset.game != data["game"]:
            self.add_error("ruleset", _("This version belongs to another game."))
        if not data.get("round_json") and data.get("game") in MULTIPLIER:
            self.add_error("round_json", _("Enter the line buckets of this game as JSON."))
        return data

    def round_input(self) -> dict[str, Any]:
        """The round in the command's JSON format."""
        d = self.cleaned_data
        if d.get("round_json"):
            return {**d["round_json"], "game": d["game"]}
        out: dict[str, Any] = {"game": d["game"]}
        for name in ("turnover", "jackpot"):
            if d.get(name) is not None:
                out[name] = _amount(d[name])
        winners = {k: d[f"winners_{k}"] for k in self.class_keys if d.get(f"winners_{k}") is not None}
        rollover = {k: _amount(d[f"rollover_{k}"]) for k in self.class_keys if d.get(f"rollover_{k}")}
        if winners:
            out["winners"] = winners
        if rollover:
            out["rollover_in"] = rollover
        boosted = {k: d[f"plussa_{k}"] for k in self.plussa_classes if d.get(f"plussa_{k}") is not None}
        if boosted or d.get("plussa_turnover") is not None:
            out["plussa"] = {}
            if boosted:
                out["plussa"]["boosted"] = boosted
            if d.get("plussa_turnover") is not None:
                out["plussa"]["turnover"] = _amount(d["plussa_turnover"])
        return out

