"""The round check page's forms: the game, venue and outcome, and one row per bet."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.rules.jsonio import BET_KEYS
from casino.rules.venues import LEGAL
from compliance.money import euros_to_cents

from .models import Table, Venue
from .selectors import variant_choices

SEP = "/"
BET_ROWS = 8
# An engine's field path: `bets[2].stake`, `bets[2]`, `paid[1]`, `outcome.player[0]`, `venue.max_stake.x`.
_ROW_FIELD = re.compile(r"(bets|paid)\[(\d+)\](?:\.(\w+))?")
ROW_FIELDS = ("type", "stake", "box", "player")


#: Venue kinds in staff words (casino.rules.venues); a kind not listed shows its code.
VENUE_KINDS = {"game_hall": _("Game hall"), "casino": _("Casino"), "ray": _("RAY game hall"),
               "billionaire": _("Casino Billionaire")}


def code_label(code: str) -> str:
    return code.replace("_", " ").capitalize()


def game_choices() -> list[tuple[str, str]]:
    return [(SEP.join(key), f"{key[0]} · {code_label(key[1])} · {key[2]}") for key in variant_choices()]


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
        label=_("Advanced: the outcome as JSON"), required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "mono"}),
        help_text=_("Optional, instead of the outcome fields above: what the table produced, as docs/casino.md "
                    "describes for the game, e.g. {\"number\": 17}. When given, the fields are not read."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        self.fields["venue"].choices = venue_choices()

    def clean_table_limits(self):
        return _json_object(self.cleaned_data.get("table_limits"), required=False)

    def clean_outcome(self):
        return _json_object(self.cleaned_data.get("outcome"), required=False)

    def clean(self):
        data = super().clean()
        game, venue = data.get("game"), data.get("venue")
        if game and venue and game.split(SEP)[0] != venue.split(SEP)[0]:
            self.add_error("venue", _("This venue is not of rulebook %(rulebook)s.") % {"rulebook": game.split(SEP)[0]})
        return data

    def round_args(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """The service's arguments (bets and paid amounts come from the rows; the outcome from the
        game's outcome fields unless the advanced JSON is given)."""
        rulebook, game, variant = self.cleaned_data["game"].split(SEP)
        kind = self.cleaned_data["venue"].split(SEP)[1]
        limits = self.cleaned_data.get("table_limits")
        return {"rulebook": rulebook, "game": game, "variant": variant,
                "outcome": self.cleaned_data.get("outcome") or outcome,
                "venue": {**limits, "kind": kind} if limits else kind, "round_at": self.cleaned_data.get("round_at")}

    def game_key(self) -> str:
        """`rulebook/game` of the chosen variant (bound or initial), "" when none is chosen."""
        value = (self.data.get("game") if self.is_bound else self.initial.get("game")) or ""
        return SEP.join(value.split(SEP)[:2]) if value.count(SEP) == 2 else ""


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


def place_error(field: str, message: str, form: RoundCheckForm, rows: list[BetForm], outcome_form=None) -> None:
    """Show an engine's refusal beside the field it names: `bets[2].stake` on the third filled row's
    stake, `bets[2].numbers` on its details, `outcome.player` on the outcome field it names (on the
    JSON outcome when that was given), `venue...` on the venue."""
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
    if head == "outcome" and outcome_form is not None and not form.cleaned_data.get("outcome"):
        outcome_form.place_error(field, message)
        return
    target = {"outcome": "outcome", "venue": "table_limits" if form.cleaned_data.get("table_limits") else "venue",
              "rulebook": "game", "game": "game", "variant": "game", "round_at": "round_at"}.get(head)
    form.add_error(target, text)


# --------------------------------------------------------------------------- casino operations (issue 19)


class VenueForm(forms.Form):
    code = forms.SlugField(label=_("Code"), max_length=40)
    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(label=_("Venue type"), choices=Venue.Kind.choices)
    jurisdiction = forms.CharField(label=_("Jurisdiction"), max_length=8, initial="FI")
    currency = forms.CharField(label=_("Currency"), max_length=3, initial="EUR")
    min_age = forms.IntegerField(label=_("Minimum age"), required=False, min_value=18, max_value=99,
                                 help_text=_("Empty: the legal minimum of the venue type."))


def _parse_limits(text: str) -> dict[str, int]:
    """`roulette_inside_1 = 600.00` lines -> {class: cents}."""
    limits: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        cls, sep, amount = line.partition("=")
        cents = euros_to_cents_or_none(amount.strip()) if sep else None
        if not cls.strip() or cents is None:
            raise forms.ValidationError(_("Line %(n)s: write a limit class, = and an amount, such as "
                                          "roulette_inside_1 = 600.00."), params={"n": number})
        limits[cls.strip()] = cents
    return limits


def euros_to_cents_or_none(text: str) -> int | None:
    try:
        cents = euros_to_cents(text.replace(",", ".").replace(" ", ""))
    except Exception:  # noqa: BLE001  (any refusal of the amount is the same answer here: not an amount)
        return None
    return cents if cents is not None and cents >= 0 else None


class TableVersionForm(forms.Form):
    """A table's configuration (a new table, or a new version of one)."""

    variant = forms.CharField(label=_("Variant"), max_length=60)
    min_stake = forms.DecimalField(label=_("Minimum stake"), max_digits=12, decimal_places=2, min_value=0)
    max_stake = forms.CharField(
        label=_("Maximum stakes"), widget=forms.Textarea(attrs={"rows": 4}), required=False,
        help_text=_("One limit class a line: roulette_inside_1 = 600.00. Empty: the legal maxima of the venue."))
    win_cap = forms.DecimalField(label=_("Win cap"), max_digits=14, decimal_places=2, min_value=0, required=False,
                                 help_text=_("Empty: the legal cap of the venue."))
    side_games = forms.CharField(label=_("Side games"), required=False, max_length=200,
                                 help_text=_("Comma-separated."))
    opening_hours = forms.CharField(label=_("Opening hours"), required=False, max_length=200)
    payout_sign = forms.CharField(label=_("Version and payout sign"), required=False, max_length=200)
    zero_rule = forms.CharField(label=_("Zero rule in use"), required=False, max_length=100)
    records = forms.CharField(label=_("Table records"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
                              help_text=_("000-casino §3.8: blackjack table record, Chinese poker scoring log, "
                                          "rake notice."))
    effective_from = forms.DateTimeField(label=_("In force from"), required=False,
                                         help_text=_("Empty: now. Operator's time zone."))
    note = forms.CharField(label=_("Note"), required=False, max_length=255)

    def clean_max_stake(self):
        return _parse_limits(self.cleaned_data["max_stake"])

    def config(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"variant": d["variant"], "min_stake_cents": euros_to_cents(d["min_stake"]),
                "max_stake_cents": d["max_stake"],
                "win_cap_cents": euros_to_cents(d["win_cap"]) if d.get("win_cap") is not None else None,
                "side_games": [s.strip() for s in d["side_games"].split(",") if s.strip()],
                "opening_hours": d["opening_hours"], "payout_sign": d["payout_sign"], "zero_rule": d["zero_rule"],
                "records": d["records"], "note": d["note"], "effective_from": d.get("effective_from")}


class TableForm(TableVersionForm):
    code = forms.SlugField(label=_("Table code"), max_length=40)
    game = forms.ChoiceField(label=_("Game"), choices=())

    field_order = ["code", "game"]

    def __init__(self, *args, games: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        # A game's name where the catalogue has it ("Roulette" in the reader's words), else its code in words.
        self.fields["game"].choices = [(g, gettext(code_label(g))) for g in games]


class RoundFilterForm(forms.Form):
    venue = forms.ModelChoiceField(label=_("Venue"), queryset=Venue.objects.order_by("name"), required=False)
    table = forms.IntegerField(label=_("Table id"), required=False, min_value=1)
    day = forms.DateField(label=_("Day"), required=False)
    game = forms.CharField(label=_("Game"), required=False, max_length=40)
    person = forms.IntegerField(label=_("Player id"), required=False, min_value=1)
    discrepancy_only = forms.BooleanField(label=_("Discrepancies only"), required=False)


class RoundFileForm(forms.Form):
    file = forms.FileField(label=_("Round file"), help_text=_("JSON Lines (.jsonl) or CSV (.csv); all or nothing."))


class RoundEntryForm(forms.Form):
    """An inspector's entry of one round (the bets and outcome as the engines read them)."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=Table.objects.select_related("venue"))
    ref = forms.CharField(label=_("Round reference"), max_length=64)
    played_at = forms.DateTimeField(label=_("Played at"), help_text=_("Operator's time zone."))
    bets = forms.CharField(label=_("Bets"), widget=forms.Textarea(attrs={"rows": 4}),
                           help_text=_('JSON, e.g. [{"type": "straight", "numbers": [17], "stake": "10.00", "box": 1}]'))
    outcome = forms.CharField(label=_("Outcome"), help_text=_('JSON, e.g. {"number": 17}'))
    paid = forms.CharField(label=_("Paid per bet"), help_text=_("Amounts separated by commas, in the bets' order."))
    corrects = forms.CharField(label=_("Corrects round"), required=False, max_length=64,
                               help_text=_("The reference of the round of this table this one corrects."))

    def _json(self, name):
        try:
            return json.loads(self.cleaned_data[name])
        except ValueError:
            raise forms.ValidationError(_("Not valid JSON.")) from None

    def clean_bets(self):
        return self._json("bets")

    def clean_outcome(self):
        return self._json("outcome")

    def clean_paid(self):
        return [p.strip() for p in self.cleaned_data["paid"].split(";" if ";" in self.cleaned_data["paid"] else ",")
                if p.strip()]

    def round(self) -> dict[str, Any]:
        d = self.cleaned_data
        doc = {"table": d["table"].pk, "ref": d["ref"], "played_at": d["played_at"], "bets": d["bets"],
               "outcome": d["outcome"], "paid": d["paid"]}
        if d.get("corrects"):
            doc["corrects"] = d["corrects"]
        return doc


class ResolveForm(forms.Form):
    note = forms.CharField(label=_("What was done"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)
