"""The scenario form: every engine input, blank meaning "use the default".

Its fields, their kind and the section each is shown in come from the engine's
input table (``tco.engine.INPUT_TABLE``); only the section titles live here.

Each field's placeholder is the default value and its help text the default's reason
(the engine's Chinese text on a Chinese page), so the user sees what a blank field
means. The engine validates; its TcoInputError is
put back on the field it names (``capex.<i>.<field>`` on the capex row).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from clusterbuy.errors import error_message, error_sentence

from .engine import (
    CAPEX_CATEGORIES,
    DEFAULTS,
    INPUT_TABLE,
    TcoInputError,
    default_reason,
)
from .labels import CAPEX_LABELS, DERIVED_DEFAULT_WORDS, INPUT_LABELS, PERCENT_INPUTS
from .models import TcoScenario

SCALAR_INPUTS = tuple(spec.name for spec in INPUT_TABLE if spec.kind != "lines")
INTEGER_INPUTS = tuple(spec.name for spec in INPUT_TABLE if spec.kind == "count")
CHOICE_INPUTS = {
    spec.name: [("", "—")] + [(choice, choice) for choice in spec.choices]
    for spec in INPUT_TABLE
    if spec.kind == "choice"
}
#: Titles of the form's sections (the table's ``section`` column), in display order.
SECTION_TITLES: dict[str, Any] = {
    "scope": _("Scope"),
    "power": _("Power and facility"),
    "operations": _("Operations"),
    "finance": _("Finance and usage"),
    "cloud": _("Cloud alternatives"),
}
#: Sections of the form: each input of the table under its section, in table order.
SECTIONS: list[tuple[Any, tuple[str, ...]]] = [
    (title, tuple(spec.name for spec in INPUT_TABLE if spec.section == key))
    for key, title in SECTION_TITLES.items()
]
_DERIVED_DEFAULT_TEXT = {spec.name: spec.default_text for spec in INPUT_TABLE}


def _default_text(name: str) -> str:
    """The default as the form shows it: a derived one's formula in words."""
    if _DERIVED_DEFAULT_TEXT[name]:
        return str(DERIVED_DEFAULT_WORDS.get(name, _DERIVED_DEFAULT_TEXT[name]))
    value = DEFAULTS[name].value
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class ScenarioForm(forms.Form):
    name = forms.CharField(label=_("Scenario name"), max_length=200)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        lang = get_language() or "en"
        for name in SCALAR_INPUTS:
            label = INPUT_LABELS[name]
            attrs = {"placeholder": _default_text(name), "data-input": name}
            help_text = _("Default %(value)s: %(reason)s") % {
                "value": _default_text(name),
                "reason": default_reason(name, lang),
            }
            if name in CHOICE_INPUTS:
                field = forms.ChoiceField(
                    choices=CHOICE_INPUTS[name], required=False, label=label
                )
            elif name in INTEGER_INPUTS:
                field = forms.IntegerField(
                    required=False,
                    label=label,
                    widget=forms.NumberInput(attrs={**attrs, "step": 1}),
                )
            else:
                if name in PERCENT_INPUTS:
                    attrs["step"] = "0.01"
                else:
                    attrs["step"] = "any"
                field = forms.FloatField(
                    required=False, label=label, widget=forms.NumberInput(attrs=attrs)
                )
            field.help_text = help_text
            # the symbols behind the words, for the template's hover (ƒ)
            field.formula_symbols = _DERIVED_DEFAULT_TEXT[name]
            self.fields[name] = field

    def sections(self):
        return [(title, [self[name] for name in names]) for title, names in SECTIONS]


#: Capex cells fill their column, so the three-column table fits its fieldset.
_CELL = {"style": "width:100%;box-sizing:border-box"}


class CapexLineForm(forms.Form):
    category = forms.ChoiceField(
        label=_("Category"),
        choices=[("", "—")] + [(c, CAPEX_LABELS[c]) for c in CAPEX_CATEGORIES],
        required=False,
        widget=forms.Select(attrs=_CELL),
    )
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs=_CELL),
    )
    amount = forms.FloatField(
        label=_("Amount"), required=False, widget=forms.NumberInput(attrs=_CELL)
    )

    def clean(self):
        data = super().clean()
        if data.get("amount") is not None and not data.get("category"):
            self.add_error("category", _("Choose a category."))
        return data


CapexFormSet = forms.formset_factory(CapexLineForm, extra=3, max_num=50)


def initial_from_inputs(inputs: dict) -> tuple[dict, list[dict]]:
    """Form initial values: the user's fields only; defaults stay blank."""
    given = set(inputs.get("user_fields") or inputs.keys())
    initial = {k: v for k, v in inputs.items() if k in given and k in SCALAR_INPUTS}
    capex = [dict(line) for line in inputs.get("capex") or []]
    return initial, capex


def build_forms(
    data=None, *, scenario: TcoScenario | None = None, prefill: dict | None = None
) -> tuple[ScenarioForm, forms.BaseFormSet]:
    if data is not None:
        return ScenarioForm(data), CapexFormSet(data, prefix="capex")
    inputs = scenario.inputs if scenario is not None else (prefill or {})
    initial, capex = initial_from_inputs(inputs)
    if scenario is not None:
        initial["name"] = scenario.name
    return ScenarioForm(initial=initial), CapexFormSet(initial=capex, prefix="capex")


def _line_rows(formset) -> list:
    """The capex rows that make a line, in order: valid, with a category and an
    amount. ``capex.<i>`` in an engine error is the i-th of these."""
    rows = []
    for row in formset.forms:
        data = getattr(row, "cleaned_data", None) or {}
        if not row.errors and data.get("category") and data.get("amount") is not None:
            rows.append(row)
    return rows


def valid_inputs(form: ScenarioForm, formset) -> dict:
    """Engine inputs from the fields that validated (call ``is_valid`` first): blank
    and invalid fields are left out, so the engine uses their defaults."""
    cleaned = getattr(form, "cleaned_data", {})
    inputs = {
        name: cleaned[name]
        for name in SCALAR_INPUTS
        if name not in form.errors and cleaned.get(name) not in (None, "")
    }
    lines = [
        {
            "category": row.cleaned_data["category"],
            "description": row.cleaned_data.get("description") or "",
            "amount": row.cleaned_data["amount"],
        }
        for row in _line_rows(formset)
    ]
    if lines:
        inputs["capex"] = lines
    return inputs


def inputs_from_forms(form: ScenarioForm, formset) -> dict:
    """Engine inputs from valid forms: blank fields are left out (defaults)."""
    return valid_inputs(form, formset)


def inputs_shown(form: ScenarioForm, formset) -> dict | None:
    """Engine inputs of the forms as displayed: their initial values when unbound (a
    page load), the posted values when valid; ``None`` when the posted forms are
    invalid (the page already shows the errors)."""
    if form.is_bound:
        if form.is_valid() and formset.is_valid():
            return inputs_from_forms(form, formset)
        return None
    inputs = {
        name: form.initial[name]
        for name in SCALAR_INPUTS
        if form.initial.get(name) not in (None, "")
    }
    lines = [
        {
            "category": row["category"],
            "description": row.get("description") or "",
            "amount": row["amount"],
        }
        for row in formset.initial or []
        if row.get("category") and row.get("amount") is not None
    ]
    if lines:
        inputs["capex"] = lines
    return inputs


def add_engine_error(form: ScenarioForm, formset, exc: TcoInputError) -> list[str]:
    """Show the engine's complaint on the field (or capex row) it names; returns it
    when it names neither (it is then shown above the form)."""
    parts = exc.field.split(".")
    if parts[0] == "capex" and len(parts) >= 2 and parts[1].isdigit():
        rows = _line_rows(formset)
        index = int(parts[1])
        if index < len(rows):
            name = parts[2] if len(parts) == 3 else "amount"
            rows[index].add_error(
                name if name in rows[index].fields else None, error_message(exc)
            )
            return []
    if exc.field in form.fields:
        form.add_error(exc.field, error_message(exc))
        return []
    form.add_error(None, error_sentence(exc))
    return [error_sentence(exc)]
