"""The forms of the disputes and complaints pages (issue 19 items 4 and 5). They read what was typed;
the services decide (and say what is wrong beside the field)."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.bounds import BIGINT_MAX
from compliance.forms import UTCDateTimeField
from compliance.money import euros_to_cents
from players.models import Person

from .disputes import DECIDER_ROLES
from .models import Complaint, Dispute, Table, Venue

MONEY = {"max_digits": 14, "decimal_places": 2, "min_value": 0, "localize": True}


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Table) -> str:
        return f"{obj.venue.name} · {obj.code}"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class DisputeForm(forms.Form):
    table = TableChoiceField(label=_("Table"), queryset=Table.objects.select_related("venue").order_by("venue__name", "code"))
    round_ref = forms.CharField(label=_("Recorded round (reference)"), required=False, max_length=64,
                                help_text=_("The table system's reference of the round, when it was recorded."))
    round_description = forms.CharField(
        label=_("Round, if it was not recorded"), required=False, max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}), help_text=_("E.g. the spin after 21:40, box 3's hand."))
    occurred_at = UTCDateTimeField(
        label=_("Time of the dispute"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Operator's time zone; empty: the time of the recorded round."))
    players = forms.CharField(
        label=_("Players"), widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One a line: an identified player's id number, or a description (e.g. box 3, grey jacket)."))
    staff = forms.CharField(
        label=_("Staff involved"), required=False, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One a line: the name, a comma and the role (e.g. Matti Virtanen, dealer)."))
    decider_name = forms.CharField(label=_("Decided by (name)"), max_length=150)
    decider_role = forms.ChoiceField(label=_("Role of the decider"))
    second_decider_name = forms.CharField(label=_("Also decided by (name)"), required=False, max_length=150)
    second_decider_role = forms.ChoiceField(label=_("Role of the second decider"), required=False)
    decision = forms.CharField(label=_("Decision"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
    round_outcome = forms.ChoiceField(label=_("After the decision"), choices=Dispute.RoundOutcome.choices,
                                      widget=forms.RadioSelect)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        roles = list(DECIDER_ROLES.items())
        self.fields["decider_role"].choices = roles
        self.fields["second_decider_role"].choices = [("", "–"), *roles]

    def clean_players(self):
        out = []
        for line in _lines(self.cleaned_data["players"]):
            out.append({"person": int(line)} if line.isascii() and line.isdigit() and len(line) < 19
                       else {"description": line})
        return out

    def clean_staff(self):
        out = []
        for line in _lines(self.cleaned_data.get("staff", "")):
            name, _sep, role = line.partition(",")
            out.append({"name": name.strip(), "role": role.strip()})
        return out

    def service_args(self) -> dict:
        d = self.cleaned_data
        deciders = [{"name": d["decider_name"], "role": d["decider_role"]}]
        if d.get("second_decider_name") or d.get("second_decider_role"):
            deciders.append({"name": d.get("second_decider_name", ""), "role": d.get("second_decider_role", "")})
        return {"table": d["table"], "round_ref": d.get("round_ref", ""), "round_description": d.get("round_description", ""),
                "occurred_at": d.get("occurred_at"), "players": d["players"], "staff": d["staff"], "deciders": deciders,
                "decision": d["decision"], "round_outcome": d["round_outcome"]}

    @staticmethod
    def initial_from(dispute: Dispute) -> dict:
        """The form filled from a dispute (its amendment starts from what it says)."""
        deciders = dispute.deciders + [{"name": "", "role": ""}]
        return {
            "table": dispute.table_id, "round_ref": dispute.round.ref if dispute.round else "",
            "round_description": dispute.round_description,
            "occurred_at": timezone.localtime(dispute.occurred_at).strftime("%Y-%m-%dT%H:%M"),
            "players": "\n".join(str(p["person"]) if p.get("person") else p.get("description", "") for p in dispute.players),
            "staff": "\n".join(f"{s['name']}, {s['role']}" if s.get("role") else s["name"] for s in dispute.staff),
            "decider_name": deciders[0]["name"], "decider_role": deciders[0]["role"],
            "second_decider_name": deciders[1]["name"], "second_decider_role": deciders[1]["role"],
            "decision": dispute.decision, "round_outcome": dispute.round_outcome,
        }


class AmendDisputeForm(DisputeForm):
    amendment_reason = forms.CharField(label=_("Why the record is amended"), max_length=2000,
                                       widget=forms.Textarea(attrs={"rows": 2}))


class DisputeFilterForm(forms.Form):
    venue = forms.ModelChoiceField(label=_("Venue"), queryset=Venue.objects.order_by("name"), required=False)
    day = forms.DateField(label=_("Day"), required=False, widget=_date_input())


class ComplaintForm(forms.Form):
    venue = forms.ModelChoiceField(label=_("Venue"), queryset=Venue.objects.order_by("name"))
    received_on = forms.DateField(label=_("Received on"), widget=_date_input(), initial=timezone.localdate)
    channel = forms.ChoiceField(label=_("Received"), choices=Complaint.Channel.choices)
    person = forms.IntegerField(label=_("Identified player (id)"), required=False, min_value=1, max_value=BIGINT_MAX)
    player_name = forms.CharField(label=_("Player's name, if not identified"), required=False, max_length=200)
    subject = forms.CharField(label=_("What the complaint is about"), max_length=4000,
                              widget=forms.Textarea(attrs={"rows": 3}))
    round_ref = forms.CharField(label=_("Related round (reference)"), required=False, max_length=120,
                                help_text=_("The round's reference, or table/reference when several tables use it."))
    dispute = forms.IntegerField(label=_("Related dispute (number)"), required=False, min_value=1, max_value=BIGINT_MAX)
    winnings = forms.DecimalField(label=_("Winnings payable (€)"), required=False,
                                  help_text=_("Only when the complaint is about winnings already found payable."), **MONEY)
    payout_requested_on = forms.DateField(label=_("Payment asked for on"), required=False, widget=_date_input(),
                                          help_text=_("Empty: the day the complaint was received."))

    def clean_person(self):
        pk = self.cleaned_data.get("person")
        if pk is None:
            return None
        person = Person.objects.filter(pk=pk).first()
        if person is None:
            raise forms.ValidationError(_("No player has this id."))
        return person

    def service_args(self) -> dict:
        d = self.cleaned_data
        return {"venue": d["venue"], "person": d.get("person"), "received_on": d["received_on"], "channel": d["channel"], "subject": d["subject"],
                "player_name": d.get("player_name", ""), "round_ref": d.get("round_ref", ""), "dispute": d.get("dispute"),
                "winnings_cents": euros_to_cents(d["winnings"]) if d.get("winnings") is not None else None,
                "payout_requested_on": d.get("payout_requested_on")}


class ComplaintFilterForm(forms.Form):
    venue = forms.ModelChoiceField(label=_("Venue"), queryset=Venue.objects.order_by("name"), required=False)
    all = forms.BooleanField(label=_("Also those with no open deadline"), required=False)


class ExtendForm(forms.Form):
    notified_on = forms.DateField(label=_("The player was notified on"), widget=_date_input(), initial=timezone.localdate)


class AnswerForm(forms.Form):
    answered_on = forms.DateField(label=_("Answered on"), widget=_date_input(), initial=timezone.localdate)
    text = forms.CharField(label=_("The answer"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
    winnings = forms.DecimalField(label=_("Winnings payable (€)"), required=False,
                                  help_text=_("When the answer finds winnings payable to the player."), **MONEY)
    payout_requested_on = forms.DateField(label=_("Payment asked for on"), required=False, widget=_date_input(),
                                          help_text=_("Empty: the day the complaint was received."))

    def service_args(self) -> dict:
        d = self.cleaned_data
        return {"answered_on": d["answered_on"], "text": d["text"],
                "winnings_cents": euros_to_cents(d["winnings"]) if d.get("winnings") is not None else None,
                "payout_requested_on": d.get("payout_requested_on")}


class PaidForm(forms.Form):
    paid_on = forms.DateField(label=_("Paid on"), widget=_date_input(), initial=timezone.localdate)
    reference = forms.CharField(label=_("Payment reference"), required=False, max_length=100,
                                help_text=_("E.g. the cash desk receipt or the bank transfer."))
