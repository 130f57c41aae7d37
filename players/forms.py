"""Staff forms of the players pages."""

from django import forms
from django.utils.translation import gettext_lazy as _


class PlayerSearchForm(forms.Form):
    """Find people by name and birth date (a GET: nothing secret goes into the address or the logs)."""

    name = forms.CharField(label=_("Name"), required=False, max_length=200)
    birth_date = forms.DateField(
        label=_("Birth date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def has_criteria(self) -> bool:
        d = self.cleaned_data
        return bool(d.get("name", "").strip() or d.get("birth_date"))


class IdentifierSearchForm(forms.Form):
    """Find a person by national identifier: a POST, audited and throttled (issue 14 item 4)."""

    national_id = forms.CharField(label=_("National identifier"), max_length=64,
                                  widget=forms.TextInput(attrs={"autocomplete": "off"}))
    id_country = forms.CharField(label=_("Identifier country"), required=False, max_length=2, initial="FI")

    def clean_id_country(self):
        return (self.cleaned_data.get("id_country") or "FI").upper()


class VerifyForm(forms.Form):
    method = forms.CharField(label=_("Verification method"), max_length=50, initial="document")
    note = forms.CharField(label=_("Note"), required=False, max_length=255)


class PayoutPaidForm(forms.Form):
    bank_reference = forms.CharField(label=_("Bank reference"), max_length=100)
