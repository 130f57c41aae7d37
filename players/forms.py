"""Staff forms of the players pages."""

from django import forms
from django.utils.translation import gettext_lazy as _


class PlayerSearchForm(forms.Form):
    """Find people by any of name, birth date and national identifier (all given must match)."""

    name = forms.CharField(label=_("Name"), required=False, max_length=200)
    birth_date = forms.DateField(
        label=_("Birth date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    national_id = forms.CharField(label=_("National identifier"), required=False, max_length=64)
    id_country = forms.CharField(label=_("Identifier country"), required=False, max_length=2, initial="FI")

    def clean_id_country(self):
        return (self.cleaned_data.get("id_country") or "FI").upper()

    def has_criteria(self) -> bool:
        d = self.cleaned_data
        return bool(d.get("name", "").strip() or d.get("birth_date") or d.get("national_id", "").strip())


class VerifyForm(forms.Form):
    method = forms.CharField(label=_("Verification method"), max_length=50, initial="document")
    note = forms.CharField(label=_("Note"), required=False, max_length=255)


class PayoutPaidForm(forms.Form):
    bank_reference = forms.CharField(label=_("Bank reference"), max_length=100)
