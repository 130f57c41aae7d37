from django import forms
from django.utils.translation import gettext_lazy as _

from .selectors import AuditFilter


class AuditFilterForm(forms.Form):
    """Filter of the audit page and API. Times are in the operator's zone."""

    since = forms.DateTimeField(label=_("From"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    until = forms.DateTimeField(label=_("Until"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    actor = forms.CharField(label=_("Actor"), required=False, max_length=150)
    action = forms.CharField(label=_("Action"), required=False, max_length=100, help_text=_("Prefix, e.g. auth."))
    object_type = forms.CharField(label=_("Object type"), required=False, max_length=100)
    object_id = forms.CharField(label=_("Object id"), required=False, max_length=64)
    significant = forms.BooleanField(label=_("Significant only"), required=False)

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since >= until:
            raise forms.ValidationError(_("'From' must be before 'Until'."))
        return data

    def to_filter(self) -> AuditFilter:
        d = self.cleaned_data
        return AuditFilter(
            since=d.get("since"),
            until=d.get("until"),
            actor=d.get("actor", "").strip(),
            action=d.get("action", "").strip(),
            object_type=d.get("object_type", "").strip(),
            object_id=d.get("object_id", "").strip(),
            significant=bool(d.get("significant")),
        )
