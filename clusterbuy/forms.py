from django import forms
from django.utils.translation import gettext_lazy as _

from .bounds import model_field_limits
from .errors import error_message, error_sentence
from .models import Membership, Procurement, Role, Stage, StageChange
from .services import PROCUREMENT_FIELDS
from .text import refuse_line_breaks


def searchable(hint, label) -> dict:
    """A catalogue select's attributes for the filter box static/js/app.js puts
    above it (no inline script): the hint shown in the empty box and its accessible
    name."""
    return {
        "data-searchable": "",
        "data-search-placeholder": hint,
        "data-search-label": label,
    }


class ProcurementForm(forms.ModelForm):
    class Meta:
        model = Procurement
        fields = list(PROCUREMENT_FIELDS)
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, organisation=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.organisation = organisation
        self.fields["horizon_years"].widget = forms.Select(
            choices=[(3, _("3 years")), (4, _("4 years")), (5, _("5 years"))]
        )
        # the name goes into e-mail subjects and document titles: one line
        self.fields["name"].validators.append(refuse_line_breaks)

    def clean_horizon_years(self):
        value = self.cleaned_data["horizon_years"]
        if not 3 <= value <= 5:
            raise forms.ValidationError(_("The planning horizon is 3 to 5 years."))
        return value

    def clean(self):
        data = super().clean()
        low, high = data.get("budget_min"), data.get("budget_max")
        if low is not None and high is not None and low > high:
            self.add_error(
                "budget_max",
                _("The budget's upper bound must not be below its lower bound."),
            )
        for field in ("budget_min", "budget_max"):
            if data.get(field) is not None and data[field] < 0:
                self.add_error(field, _("A budget cannot be negative."))
        return data

    def validate_unique(self):
        # The organisation is not a form field; uniqueness is checked by the service.
        pass


class StageChangeForm(forms.Form):
    to_stage = forms.TypedChoiceField(choices=Stage.choices, coerce=int)
    note = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        **model_field_limits(StageChange, "note"),
    )


class TokenForm(forms.Form):
    username = forms.ChoiceField(label=_("Member"))

    def __init__(self, *args, organisation=None, **kwargs):
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(organisation=organisation).select_related(
            "user"
        )
        self.fields["username"].choices = [
            (m.user.username, f"{m.user.username} ({Role(m.role).label})")
            for m in members
        ]


def add_service_error(form: forms.BaseForm, exc, *, field: str | None = None) -> None:
    """Show a service or engine error on the form in the user's language: under the
    field it names when the form has that field, else above the form with the field's
    label first. `field` overrides the name when the error speaks of an engine path,
    not a form field."""
    name = exc.field if field is None else field
    if name in form.fields:
        form.add_error(name, error_message(exc))
    else:
        form.add_error(None, error_sentence(exc, name))
