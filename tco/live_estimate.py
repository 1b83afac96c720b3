"""The live estimate validates field by field (issue 13).

The scenario name is not needed, an invalid field is left out (its default is used)
and keeps its error next to it, so every other change still moves the figures. The
engine names one bad field per call: that field is set aside and the estimate tried
again, until it computes or an error cannot be pinned on a field the user gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from . import services, sources
from .engine import INPUT_TABLE, TcoInputError
from .engine.inputs import range_params
from .forms import SCALAR_INPUTS, add_engine_error, valid_inputs
from .labels import INPUT_LABELS, allowed_values

_SPECS = {spec.name: spec for spec in INPUT_TABLE if spec.kind != "lines"}


@dataclass
class LiveEstimate:
    estimate: dict | None = None
    #: ``html_name`` of every field and capex cell -> its messages (empty when valid).
    field_errors: dict[str, list[str]] = field(default_factory=dict)
    #: Labels of the fields left out of ``estimate`` because they are invalid.
    left_out: list[str] = field(default_factory=list)
    #: Errors that name no field the user gave: then there is no estimate.
    general_errors: list[str] = field(default_factory=list)


def allowed_range(name: str) -> str:
    """The allowed range of input ``name`` in words ("" when it has none), worded as
    the engine's own range errors are (tco.labels.allowed_values)."""
    spec = _SPECS.get(name)
    if spec is None or spec.bounds is None:
        return ""
    return allowed_values(range_params(spec))


def _labelled(label, message: str, range_text: str = "") -> str:
    text = _("%(label)s: %(message)s") % {"label": label, "message": message}
    if not range_text:
        return text
    return _("%(text)s (%(range)s)") % {"text": text, "range": range_text}


def _scalar_errors(form) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    data = form.errors.as_data()
    for name in SCALAR_INPUTS:
        messages = []
        for error in data.get(name, []):
            # Django's own ("Enter a number.") carry a code; the engine's name the
            # range already.
            range_text = allowed_range(name) if error.code else ""
            for message in error.messages:
                messages.append(_labelled(INPUT_LABELS[name], message, range_text))
        out[form[name].html_name] = messages
    return out


def _capex_errors(formset) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for number, row in enumerate(formset.forms, start=1):
        for name in ("category", "amount"):
            label = _("Capex line %(n)s, %(field)s") % {
                "n": number,
                "field": row.fields[name].label,
            }
            out[row[name].html_name] = [
                _labelled(label, message) for message in row.errors.get(name, [])
            ]
    return out


def live_estimate(form, formset, scenario=None) -> LiveEstimate:
    """The estimate of the valid fields of the bound ``form`` and ``formset``."""
    form.is_valid()
    formset.is_valid()
    live = LiveEstimate()
    previous = None
    for _attempt in range(len(SCALAR_INPUTS) + len(formset.forms) + 1):
        inputs, _derived = sources.follow_gpu_count(
            scenario, valid_inputs(form, formset)
        )
        if inputs == previous:  # the error names nothing the user gave
            break
        previous = inputs
        try:
            live.estimate = services.estimate(inputs=inputs)
        except TcoInputError as exc:
            live.general_errors = add_engine_error(form, formset, exc)
            continue
        live.general_errors = []
        break
    live.field_errors = {**_scalar_errors(form), **_capex_errors(formset)}
    if live.general_errors:
        live.estimate = None
    live.left_out = [
        str(INPUT_LABELS[name]) for name in SCALAR_INPUTS if name in form.errors
    ] + [
        _("Capex line %(n)s") % {"n": number}
        for number, row in enumerate(formset.forms, start=1)
        if row.errors
    ]
    return live
