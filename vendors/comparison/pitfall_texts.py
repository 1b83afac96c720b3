"""The pitfall detectors' computed evidence in the reader's language.

``vendors.engine.detectors`` (pure) reports what it computed behind a finding as a ``Fact``:
a code and its params ("short_of_plan", item storage_tb, offered None, needed 10.83,
unit TB). Pages, the API and the decision memo word it here, items named by their
label, never by their key. The memo stores facts as ``{"code", "params"}`` and words
them when it is shown, so it reads in the language of whoever opens it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import figure

from ..engine.detectors import Fact
from .labels import category_label, compliance_label

_SPECIFICS = {
    "workload": lambda: _("the workload type"),
    "model_scale": lambda: _("the model scale"),
    "data_volume": lambda: _("the data volume"),
    "location": lambda: _("the deployment site"),
}


_ACCESS_FIELDS = {
    "root_access": lambda: _("Root / cluster-admin access"),
    "native_scheduler_access": lambda: _("Native scheduler access"),
}
_ACCESS_VALUES = {
    "no": lambda: _("no"),
    "limited": lambda: _("limited"),
    "wrapped": lambda: _("wrapped by the vendor's platform"),
    "none": lambda: _("none"),
}


def _share(value: Any) -> str:
    try:
        return f"{float(value):.0%}"
    except (TypeError, ValueError):
        return str(value)


def _with_unit(value: Any, unit: str) -> str:
    return f"{figure(value, 2)} {unit}".strip()


def _messages(p: Mapping[str, Any]) -> dict[str, Any]:
    return {**_detector_messages(p), **_figure_messages(p)}


def _figure_messages(p: Mapping[str, Any]) -> dict[str, Any]:
    """The facts of issue 24: figures against their floors, access, originality."""
    return {
        "delivery_floor": lambda: (
            _(
                "Delivery in %(offered)s days; supply, installation, burn-in and "
                "acceptance of %(gpus)s GPUs take at least %(floor)s days"
            )
            % {
                "offered": figure(p.get("offered_days"), 1),
                "gpus": p.get("gpu_count", ""),
                "floor": figure(p.get("floor_days"), 1),
            }
        ),
        "mfu_ceiling": lambda: (
            _("MFU claimed: %(claimed)s; the best published: %(ceiling)s")
            % {
                "claimed": _share(p.get("claimed")),
                "ceiling": f"{float(p.get('ceiling') or 0):.1%}",
            }
        ),
        "throughput_ceiling": lambda: (
            _(
                "Promised %(promised)s tokens/s; the sizing engine gives "
                "%(achievable)s tokens/s for this hardware"
            )
            % {
                "promised": figure(p.get("promised"), 0),
                "achievable": figure(p.get("achievable"), 0),
            }
        ),
        "availability_ceiling": lambda: (
            _("Availability promised: %(claimed)s %%; one site achieves %(ceiling)s %%")
            % {
                "claimed": figure(p.get("claimed_pct"), 3),
                "ceiling": figure(p.get("ceiling_pct"), 3),
            }
        ),
        "access": lambda: (
            _("%(field)s: %(value)s")
            % {
                "field": _ACCESS_FIELDS.get(
                    str(p.get("field")), lambda: str(p.get("field"))
                )(),
                "value": _ACCESS_VALUES.get(
                    str(p.get("value")), lambda: str(p.get("value"))
                )(),
            }
        ),
        "rfp_echo": lambda: (
            _("%(share)s of the text is the buyer's own RFP")
            % {"share": _share(p.get("share"))}
        ),
        "no_design": lambda: _(
            "No design of its own: parallelism, checkpoints, fabric, storage"
        ),
        "plan_bom": lambda: (
            _(
                "%(category)s lines: %(offered)s, under half of the %(cost)s the "
                "plan's %(basis)s costs at the price book"
            )
            % {
                "category": category_label(str(p.get("category", ""))),
                "offered": figure(p.get("offered_cny"), 0),
                "basis": p.get("basis", ""),
                "cost": figure(p.get("cost_cny"), 0),
            }
        ),
    }


def _detector_messages(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "gpu_share": lambda: (
            _("GPU servers: %(share)s of the one-off hardware cost")
            % {"share": _share(p.get("share"))}
        ),
        "no_priced_line": lambda: (
            _("%(category)s: no priced line item")
            % {"category": category_label(str(p.get("category", "")))}
        ),
        "short_of_plan": lambda: (
            _("%(item)s: offered %(offered)s, the sizing plan needs %(needed)s")
            % {
                "item": compliance_label(str(p.get("item", ""))),
                "offered": (
                    _("not stated")
                    if p.get("offered") is None
                    else _with_unit(p.get("offered"), p.get("unit", ""))
                ),
                "needed": _with_unit(p.get("needed"), p.get("unit", "")),
            }
        ),
        "not_addressed": lambda: (
            _("Not addressed: %(specific)s")
            % {
                "specific": _SPECIFICS.get(
                    str(p.get("specific")), lambda: str(p.get("specific"))
                )()
            }
        ),
        "similar_text": lambda: (
            _(
                "Other bid %(n)s: %(share)s of the text in common (Jaccard similarity "
                "of 4-character sequences)"
            )
            % {"n": p.get("other_bid", ""), "share": _share(p.get("similarity"))}
        ),
        "promised_days": lambda: (
            _("Promised training time: %(days)s days")
            % {"days": figure(p.get("days"), 1)}
        ),
        "lower_bound_days": lambda: (
            _("Physical lower bound for this configuration: %(days)s days")
            % {"days": figure(p.get("days"), 1)}
        ),
        "scheduler": lambda: (
            _("Scheduler offered: %(name)s (not open software)")
            % {"name": p.get("name", "")}
        ),
        "frameworks": lambda: (
            _("Frameworks offered, none of them open: %(names)s")
            % {"names": ", ".join(str(n) for n in p.get("names", ()))}
        ),
    }


def fact_text(item: Fact | Mapping[str, Any]) -> str:
    """One computed evidence line in the active language (a ``Fact``, or its stored
    form ``{"code", "params"}``); an unknown code shows the English form."""
    if isinstance(item, Fact):
        code, params = str(item.code), item.params
    else:
        code, params = str(item.get("code", "")), item.get("params") or {}
    message = _messages(params).get(code)
    return message() if message is not None else str(Fact(code, params))


def fact_json(item: Fact) -> dict[str, Any]:
    """A fact as the decision memo stores it."""
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in item.params.items()}
    return {"code": str(item.code), "params": params}
