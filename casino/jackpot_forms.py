"""The jackpot pages' forms (docs/casino-operations.md, "Jackpots"): a jackpot's terms (a new jackpot,
or new terms of one), and its removal from play."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.money import euros_to_cents

from .models import Jackpot, JackpotVersion, Table, Venue


class TableChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Table) -> str:
        return f"{obj.venue.name} · {obj.code} ({obj.game})"


class JackpotChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Jackpot) -> str:
        return f"{obj.venue.name} · {obj.code}"


def _cents(value: Decimal | None) -> int | None:
    return None if value is None else euros_to_cents(value)


class JackpotTermsForm(forms.Form):
    """A jackpot's terms (000-casino §2.6): what is shown at the table, and how the pot grows and pays."""

    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(label=_("Kind"), choices=JackpotVersion.Kind.choices,
                             help_text=_("A fixed pre-announced sum, a sum formed by odds, or a progressively grown sum."))
    bet_type = forms.CharField(label=_("Participation bet"), max_length=40, initial="progressive",
                               help_text=_("The bet type whose stake takes part, as the table system records it."))
    participation_fee = forms.DecimalField(label=_("Participation fee"), max_digits=12, decimal_places=2, min_value=0,
                                           required=False, help_text=_("Empty: no set fee."))
    contribution_rate = forms.DecimalField(label=_("Contribution rate (%)"), max_digits=7, decimal_places=4,
                                           min_value=0, max_value=100,
                                           help_text=_("The share of each participation stake that goes into the pot."))
    seed = forms.DecimalField(label=_("Seed"), max_digits=14, decimal_places=2, min_value=0,
                              help_text=_("Paid in by the operator when the jackpot starts."))
    reset = forms.DecimalField(label=_("Reset amount"), max_digits=14, decimal_places=2, min_value=0,
                               help_text=_("After a win the pot is brought back to this amount."))
    maximum = forms.DecimalField(label=_("Maximum"), max_digits=14, decimal_places=2, min_value=0, required=False,
                                 help_text=_("Empty: no maximum."))
    overflow = forms.ChoiceField(label=_("Above the maximum"), choices=JackpotVersion.Overflow.choices)
    overflow_to = JackpotChoice(label=_("Next pot"), required=False, queryset=Jackpot.objects.none(),
                                help_text=_("The jackpot that takes what goes above the maximum."))
    max_win = forms.DecimalField(label=_("Maximum permitted win"), max_digits=14, decimal_places=2, min_value=0)
    tables = TableChoices(label=_("Tables"), queryset=Table.objects.none(), widget=forms.CheckboxSelectMultiple)
    instructions = forms.CharField(
        label=_("Instructions shown at the table"), widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("The participation, the fee, the ways of winning, the accumulation and the maximum permitted "
                    "win (000-casino §2.6)."))
    effective_from = forms.DateTimeField(label=_("In force from"), required=False,
                                         help_text=_("Empty: now. Operator's time zone."))
    note = forms.CharField(label=_("Note"), required=False, max_length=255)

    def __init__(self, *args, venue: Venue | None = None, jackpot: Jackpot | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        tables = Table.objects.select_related("venue").order_by("venue__name", "code")
        self.fields["tables"].queryset = tables.filter(venue=venue) if venue is not None else tables
        others = Jackpot.objects.filter(state=Jackpot.State.ACTIVE).select_related("venue").order_by("venue__name", "code")
        self.fields["overflow_to"].queryset = others.exclude(pk=jackpot.pk) if jackpot is not None else others

    def terms(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"name": d["name"], "kind": d["kind"], "bet_type": d["bet_type"],
                "participation_fee_cents": _cents(d.get("participation_fee")),
                "contribution_rate": d["contribution_rate"] / 100, "seed_cents": _cents(d["seed"]),
                "reset_cents": _cents(d["reset"]), "max_cents": _cents(d.get("maximum")), "overflow": d["overflow"],
                "overflow_to": d.get("overflow_to"), "max_win_cents": _cents(d["max_win"]),
                "instructions": d["instructions"], "tables": list(d["tables"]), "note": d.get("note", ""),
                "effective_from": d.get("effective_from")}

    @staticmethod
    def initial_from(version: JackpotVersion) -> dict[str, Any]:
        def euros(cents):
            return None if cents is None else Decimal(cents).scaleb(-2)

        return {"name": version.name, "kind": version.kind, "bet_type": version.bet_type,
                "participation_fee": euros(version.participation_fee_cents),
                "contribution_rate": (version.contribution_rate * 100).normalize(), "seed": euros(version.seed_cents),
                "reset": euros(version.reset_cents), "maximum": euros(version.max_cents), "overflow": version.overflow,
                "overflow_to": version.overflow_to_id, "max_win": euros(version.max_win_cents),
                "tables": [t.pk for t in version.tables.all()], "instructions": version.instructions}


class NewJackpotForm(JackpotTermsForm):
    venue = forms.ModelChoiceField(label=_("Venue"), queryset=Venue.objects.order_by("name"))
    code = forms.SlugField(label=_("Code"), max_length=40)

    field_order = ["venue", "code"]


class RemoveJackpotForm(forms.Form):
    destination = forms.ChoiceField(label=_("The balance goes to"), choices=Jackpot.Destination.choices)
    to = JackpotChoice(label=_("Jackpot that takes the balance"), required=False, queryset=Jackpot.objects.none())
    note = forms.CharField(label=_("Why"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)

    def __init__(self, *args, jackpot: Jackpot, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to"].queryset = (Jackpot.objects.filter(state=Jackpot.State.ACTIVE).exclude(pk=jackpot.pk)
                                      .select_related("venue").order_by("venue__name", "code"))
