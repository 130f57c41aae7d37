"""The prize calculator's form: a round as the `calculate_prizes` command takes it."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.bounds import INT_MAX, SMALLINT_MAX

from .games import registry
from .models import GAME_CHOICES, DrawMethod, Game, RuleSet
from .rules.games import MULTIPLIER_GAMES as MULTIPLIER
from .rules.jsonio import MAX_COUNT
from .selectors import WinnerFilter

# Euro amounts on the pages: at most 12 digits before the decimal point (below the prize engine's
# MAX_AMOUNT and, in cents, far below the BigIntegerField columns): a larger figure is a form error.
AMOUNT_DIGITS = 14
# A drawn number, position or digit (the game's rules then say what is allowed).
PICK_MAX = 9999


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
    turnover = forms.DecimalField(label=_("Turnover (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)
    jackpot = forms.DecimalField(label=_("Confirmed jackpot (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)
    plussa_turnover = forms.DecimalField(label=_("Plussa turnover (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)
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
            self.fields[f"winners_{key}"] = forms.IntegerField(label=_("Winners"), required=False, min_value=0, max_value=MAX_COUNT)
            self.fields[f"rollover_{key}"] = forms.DecimalField(
                label=_("Rollover in (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2
            )
            if key in self.plussa_classes:
                self.fields[f"plussa_{key}"] = forms.IntegerField(label=_("Plussa winners"), required=False, min_value=0, max_value=MAX_COUNT)

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
        except ValueError:  # a number of more than 4,300 digits
            raise forms.ValidationError(_("Not valid JSON: a number is too long.")) from None
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



# ------------------------------------------------------------------------------------------------
# draw pipeline
# ------------------------------------------------------------------------------------------------

def _cents(value: Decimal | None) -> int | None:
    return None if value is None else int((value * 100).to_integral_value())


class DrawScheduleForm(forms.Form):
    """Times are entered in the operator's zone (the form's fields are in the current zone)."""

    game = forms.ModelChoiceField(label=_("Game"), queryset=None, to_field_name="code")
    number = forms.IntegerField(label=_("Draw number"), min_value=1, max_value=INT_MAX)
    sales_open_at = forms.DateTimeField(label=_("Sales open"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    sales_close_at = forms.DateTimeField(label=_("Sales close"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    draw_at = forms.DateTimeField(label=_("Draw time"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    jackpot = forms.DecimalField(label=_("Confirmed jackpot (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].queryset = Game.objects.all()

    def jackpot_cents(self) -> int | None:
        return _cents(self.cleaned_data.get("jackpot"))


RESULT_FIELDS = registry.result_fields()  # every game's result fields (their codecs say which)


class ResultForm(forms.Form):
    """A draw result as staff read it from the draw: numbers separated by spaces. Each game shows the
    fields its codec names (`GameCodec.result_fields`)."""

    numbers = forms.CharField(label=_("Numbers"), help_text=_("The main numbers, separated by spaces."))
    additional = forms.IntegerField(label=_("Additional number"), min_value=0, max_value=PICK_MAX, required=False)
    stars = forms.CharField(label=_("Star numbers"), required=False)
    viking = forms.IntegerField(label=_("Viking number"), min_value=0, max_value=PICK_MAX, required=False)
    plus = forms.IntegerField(label=_("Plus number"), min_value=0, max_value=PICK_MAX, required=False)
    kunkku = forms.IntegerField(label=_("Kunkku number"), min_value=0, max_value=PICK_MAX, help_text=_("One of the 20 drawn numbers."))
    lucky = forms.IntegerField(label=_("Onnenapila lucky number"), min_value=0, max_value=PICK_MAX)
    bonus = forms.CharField(label=_("Bonus token"), help_text=_("The token of the bonus draw."))
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    letter = forms.CharField(label=_("Letter"), max_length=1)
    digits = forms.CharField(label=_("Digits"), max_length=7, help_text=_("The 7 drawn digits in order, e.g. 0123456."))
    city = forms.CharField(label=_("City"), max_length=100)
    number = forms.IntegerField(label=_("Number"), min_value=0, max_value=PICK_MAX)

    def __init__(self, *args, game: str | None = None, params: dict | None = None, **kwargs):
        """`params`: the draw's rule version, which says the expected format of the numbers."""
        super().__init__(*args, **kwargs)
        spec = registry.find(game) if game is not None else registry.all()[0]
        keep = set(spec.codec.result_fields) if spec is not None else {"numbers"}
        if spec is not None and (hint := spec.codec.result_format_help(params)):
            self.fields["numbers"].help_text = hint
        for name in list(self.fields):
            if name not in keep and name in RESULT_FIELDS:
                del self.fields[name]

    def result(self) -> dict[str, Any]:
        out = {k: v for k, v in self.cleaned_data.items() if k in RESULT_FIELDS and v not in (None, "")}
        if "date" in out:
            out["date"] = out["date"].isoformat()
        return out


class ResultEntryForm(ResultForm):
    draw_method = forms.ChoiceField(label=_("Draw method"), choices=[])
    witnesses = forms.CharField(label=_("Witnesses or evidence"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw_method"].choices = DrawMethod.choices


class CorrectionForm(ResultForm):
    reason = forms.CharField(label=_("Reason for the correction"), widget=forms.Textarea(attrs={"rows": 2}))


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}), required=False)


class RequiredReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class JackpotForm(forms.Form):
    jackpot = forms.DecimalField(label=_("Confirmed jackpot (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)
    to_highest_class = forms.BooleanField(
        label=_("Pay an unwon jackpot in the highest winning class"), required=False
    )

    def jackpot_cents(self) -> int | None:
        return _cents(self.cleaned_data.get("jackpot"))


class CentralInputsForm(forms.Form):
    """The multinational central system's figures of one round, one field each, as the draw's rule
    version asks for them (no JSON to type): the prize pool when the shares are of a prize pool, a
    common pool per common class, and a prize and winners per class imported from the central system.
    `cleaned_figures()` is what `draw_set_central_inputs` takes (`common_pools`, `central`, `prize_pool`)."""

    def __init__(self, *args, params: dict | None = None, initial_figures: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        params = params or {}
        figures = initial_figures or {}
        self.layout: list[tuple[str, tuple]] = []  # field name -> where its value goes in the figures
        if params.get("base") == "prize_pool":
            self._money("prize_pool", ("prize_pool",), _("Prize pool of the round (€)"), figures.get("prize_pool"))
        for cls in params.get("classes") or []:
            key = str(cls.get("class"))
            if cls.get("kind") == "common":
                self._money(f"common_{key}", ("common_pools", key),
                            _("Class %(key)s: common pool (€)") % {"key": key},
                            (figures.get("common_pools") or {}).get(key))
            if cls.get("importable"):
                central = (figures.get("central") or {}).get(key) or {}
                self._money(f"central_{key}_prize", ("central", key, "prize"),
                            _("Class %(key)s: prize from the central system (€)") % {"key": key}, central.get("prize"))
                self.fields[f"central_{key}_winners"] = forms.IntegerField(
                    label=_("Class %(key)s: winners in all countries") % {"key": key}, required=False, min_value=0,
                    max_value=MAX_COUNT, initial=central.get("winners"))
                self.layout.append((f"central_{key}_winners", ("central", key, "winners")))

    def _money(self, name: str, path: tuple, label, initial) -> None:
        self.fields[name] = forms.DecimalField(label=label, required=False, min_value=0, max_digits=AMOUNT_DIGITS,
                                               decimal_places=2, initial=initial)
        self.layout.append((name, path))

    def clean(self):
        data = super().clean()
        for name, path in self.layout:
            if path[0] == "central" and path[2] == "winners" and data.get(name) is not None \
                    and data.get(f"central_{path[1]}_prize") is None:
                self.add_error(f"central_{path[1]}_prize", _("Give the prize of the class with its winners."))
        return data

    def cleaned_figures(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, path in self.layout:
            value = self.cleaned_data.get(name)
            if value is None:
                continue
            value = str(value) if isinstance(value, Decimal) else value
            if path[0] == "central" and path[2] == "winners" and path[1] not in out.get("central", {}):
                continue  # winners without a prize: refused in clean()
            target = out
            for step in path[:-1]:
                target = target.setdefault(step, {})
            target[path[-1]] = value
        return out


class RetailImportForm(forms.Form):
    file = forms.FileField(label=_("Retail sales file (CSV)"))


class WinnerFilterForm(forms.Form):
    # Kaikki tai ei mitään has a class 0 (0 correct); Keno and Tähdenlento cells are numbered
    # level * 1000 + hits * 10 + column (docs/draws.md).
    class_no = forms.IntegerField(label=_("Class"), required=False, min_value=0, max_value=SMALLINT_MAX)
    boosted = forms.TypedChoiceField(
        label=_("Plussa boosted"), required=False, empty_value=None,
        choices=[("", _("any")), ("1", _("yes")), ("0", _("no"))], coerce=lambda v: v == "1",
    )
    min_prize = forms.DecimalField(label=_("Prize at least (€)"), required=False, min_value=0, max_digits=AMOUNT_DIGITS, decimal_places=2)
    ticket = forms.CharField(label=_("Ticket"), required=False, max_length=100,
                             help_text=_("A retail ticket or part of it, or channel:reference for an online wager."))
    order = forms.ChoiceField(label=_("Order"), required=False,
                              choices=[("line", _("by line")), ("prize", _("largest prize first"))])

    def to_filter(self):
        d = self.cleaned_data
        return WinnerFilter(
            class_no=d.get("class_no"), boosted=d.get("boosted"), min_prize_cents=_cents(d.get("min_prize")),
            ticket=(d.get("ticket") or "").strip(), order=d.get("order") or "line",
        )
