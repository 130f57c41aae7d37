import datetime as dt

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from .bounds import BIGINT_MAX
from .models import ExclusionRegistry, ScreeningDecision
from .registry_services import IMPORTABLE_KINDS, STAFF_KEPT_KINDS
from .reports.kinds import KINDS
from .selectors import AuditFilter


class UTCDateTimeField(forms.DateTimeField):
    """A date and time with any UTC offset, kept in UTC. Python reads offsets up to ±23:59 while
    PostgreSQL refuses those beyond ±15:59, and a time at the edge of year 1 or 9999 cannot be moved to
    UTC: in UTC the first is harmless and the second is a form error, never a 500 (issue 14)."""

    def to_python(self, value):
        try:
            result = super().to_python(value)
            return None if result is None else result.astimezone(dt.UTC)
        except OverflowError:
            raise ValidationError(_("Enter a date and time between the years 1 and 9999."), code="invalid") from None


class AuditFilterForm(forms.Form):
    """Filter of the audit page and API. Times are in the operator's zone."""

    since = UTCDateTimeField(label=_("From"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    until = UTCDateTimeField(label=_("Until"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    # Part of the text matches; `list`: the choices of the audit page's datalists (no script needed).
    actor = forms.CharField(label=_("Actor"), required=False, max_length=150,
                            widget=forms.TextInput(attrs={"list": "actors"}))
    action = forms.CharField(label=_("Action"), required=False, max_length=100,
                             help_text=_("Part of the name or code, e.g. result"),
                             widget=forms.TextInput(attrs={"list": "actions"}))
    object_type = forms.CharField(label=_("Object type"), required=False, max_length=100,
                                  widget=forms.TextInput(attrs={"list": "object-types"}))
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


class DecideApprovalForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", _("Approve")), ("reject", _("Reject"))])
    note = forms.CharField(label=_("Note"), required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))


class RegistryUploadForm(forms.Form):
    registry = forms.ModelChoiceField(label=_("Register"), queryset=None)
    file = forms.FileField(label=_("CSV file"))
    reason = forms.CharField(label=_("Reason"), required=False, max_length=255)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registry"].queryset = ExclusionRegistry.objects.filter(kind__in=IMPORTABLE_KINDS)


class BanForm(forms.Form):
    """An operator ban, an insider or a restricted person: by identifier, or by name and birth date."""

    registry = forms.ModelChoiceField(label=_("Register"), queryset=None)
    national_id = forms.CharField(label=_("National identifier"), required=False, max_length=40)
    id_country = forms.CharField(label=_("Identifier country"), initial="FI", max_length=2)
    first_name = forms.CharField(label=_("First name"), required=False, max_length=150)
    last_name = forms.CharField(label=_("Last name"), required=False, max_length=150)
    birth_date = forms.DateField(label=_("Birth date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    starts_at = UTCDateTimeField(label=_("Starts"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = UTCDateTimeField(label=_("Ends"), required=False, help_text=_("Empty: until further notice."),
                                  widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    reason = forms.CharField(label=_("Reason"), max_length=255)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registry"].queryset = ExclusionRegistry.objects.filter(kind__in=STAFF_KEPT_KINDS)

    def clean(self):
        data = super().clean()
        if not data.get("national_id") and not (data.get("last_name") and data.get("birth_date")):
            raise forms.ValidationError(_("Give the national identifier, or the last name and the birth date."))
        if data.get("starts_at") and data.get("ends_at") and data["ends_at"] <= data["starts_at"]:
            raise forms.ValidationError(_("The end must be after the start."))
        return data


class LiftBanForm(forms.Form):
    reason = forms.CharField(label=_("Reason for lifting early"), max_length=1000)


class ScreeningFilterForm(forms.Form):
    """Filter of the screening log page. Times are in the operator's zone."""

    since = UTCDateTimeField(label=_("From"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    until = UTCDateTimeField(label=_("Until"), required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    person = forms.IntegerField(label=_("Person id"), required=False, min_value=1, max_value=BIGINT_MAX)
    name = forms.CharField(label=_("Name"), required=False, max_length=150)
    action = forms.ChoiceField(label=_("Action"), required=False)
    outcome = forms.ChoiceField(
        label=_("Outcome"), required=False,
        choices=[("", _("all")), ("allowed", _("allowed")), ("denied", _("denied"))],
    )
    code = forms.CharField(label=_("Reason code"), required=False, max_length=40)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"].choices = [("", _("all")), *ScreeningDecision.Action.choices]


class ReportForm(forms.Form):
    """The reports page's request form: the kind, the language, the period (unless the kind is about
    something else, e.g. one draw) and the fields each registered kind adds (`ReportKind.form_fields`,
    in registration order; a name two kinds share is one field). The kind's own checks
    (`ReportKind.params_from_form`, then `ReportKind.prepare`) run in `clean`."""

    kind = forms.ChoiceField(label=_("Report"))
    language = forms.ChoiceField(label=_("Language"))
    # A report period ends before year 3000: the day after "until" must exist (9999-12-31 was a crash).
    since = forms.DateField(label=_("From (date)"), required=False, widget=forms.DateInput(attrs={"type": "date"}),
                            validators=[MaxValueValidator(dt.date(2999, 12, 31))])
    until = forms.DateField(label=_("Until (date, included)"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}),
                            validators=[MaxValueValidator(dt.date(2999, 12, 31))])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k.key, k.title) for k in KINDS.values()]
        self.fields["language"].choices = settings.LANGUAGES
        for definition in KINDS.values():
            for name, field in definition.fields().items():
                self.fields.setdefault(name, field)
        self._params: dict = {}

    def clean(self):
        data = super().clean()
        definition = KINDS.get(data.get("kind") or "")
        if definition is None:
            return data
        params: dict = {}
        if definition.period:
            if not data.get("since") or not data.get("until"):
                raise forms.ValidationError(_("Give the period: 'From' and 'Until'."))
            if data["since"] > data["until"]:
                raise forms.ValidationError(_("'From' must not be after 'Until'."))
            params = {"since": data["since"].isoformat(), "until": data["until"].isoformat()}
        try:
            params.update(definition.params_from_form(data))
            self._params = definition.prepare(params)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data

    def params(self) -> dict:
        """The kind's parameters, checked and completed (valid form only)."""
        return self._params

    @staticmethod
    def kind_fields() -> dict[str, list[str]]:
        """The fields each kind reads (the page shows only those of the chosen kind)."""
        return {key: (["since", "until"] if k.period else []) + list(k.fields()) for key, k in KINDS.items()}
