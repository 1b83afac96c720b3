"""What the TCO form, pages and PDF call things, in the active language.

Input and capex labels come from the engine's input table (``label_en``/``label_zh``),
so a new input needs no gettext entry; they are lazy, like ``gettext_lazy``, and pick
the language when they are displayed. The cloud options and the hidden-cost checks
are UI copy and go through gettext.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

from clusterbuy.engine.numbers import figure
from clusterbuy.errors import range_sentence

from .engine import CAPEX_CATEGORIES, INPUT_TABLE, capex_label, input_label
from .engine.basis_words import basis_in


def _in_active_language(label_of, key: str) -> str:
    return label_of(key, get_language() or "en")


_lazy_label = lazy(_in_active_language, str)

#: Labels of the engine's inputs, in the order of the input table.
INPUT_LABELS: dict[str, Any] = {
    spec.name: _lazy_label(input_label, spec.name) for spec in INPUT_TABLE
}
CAPEX_LABELS: dict[str, Any] = {
    key: _lazy_label(capex_label, key) for key in CAPEX_CATEGORIES
}
#: A derived default's formula in words (the engine's ``default_text`` in symbols
#: stays beside it, on hover).
DERIVED_DEFAULT_WORDS: dict[str, Any] = {
    "it_power_kw": gettext_lazy("number of GPUs × 1.275 kW"),
    "residual_value_rate": gettext_lazy("0.68 to the power of the horizon (years)"),
}
#: Inputs shown as percentages (the table's ``share`` kind).
PERCENT_INPUTS = frozenset(spec.name for spec in INPUT_TABLE if spec.kind == "share")

OPTION_LABELS: dict[str, Any] = {
    "on_demand": gettext_lazy("Cloud on-demand"),
    "reserved": gettext_lazy("Cloud reserved (3 years)"),
    "spot": gettext_lazy("Cloud spot"),
    "hybrid": gettext_lazy("Hybrid (on-prem + cloud spot)"),
}
HIDDEN_COST_LABELS: dict[str, tuple[Any, Any]] = {
    "installation": (
        gettext_lazy("Installation and commissioning"),
        gettext_lazy(
            "No installation cost: racking, cabling, burn-in and acceptance tests are "
            "rarely free; ask the vendor or add a line."
        ),
    ),
    "software_licences": (
        gettext_lazy("Software licences"),
        gettext_lazy(
            "No software cost: check scheduler, OS, NVIDIA AI Enterprise or storage "
            "licences."
        ),
    ),
    "support_after_warranty": (
        gettext_lazy("Support after warranty"),
        gettext_lazy(
            "No support cost within the horizon: confirm the warranty covers on-site "
            "parts and labour for the whole period."
        ),
    ),
    "network": (
        gettext_lazy("Network (fabric, switches, cables, NICs)"),
        gettext_lazy(
            "No network capex: a multi-node cluster needs switches, cables or optics "
            "for every NIC port (counted from the plan's fat tree and priced per port "
            "and link in the price book); add them."
        ),
    ),
    "storage": (
        gettext_lazy("Storage"),
        gettext_lazy(
            "No storage capex: training needs shared high-throughput storage for "
            "data and checkpoints."
        ),
    ),
    "facility": (
        gettext_lazy("Power and cooling (facility)"),
        gettext_lazy(
            "No facility capex: power distribution, UPS and cooling for the racks "
            "are needed unless colocation covers them."
        ),
    ),
    "staff": (
        gettext_lazy("Operations staff"),
        gettext_lazy(
            "No staff cost: someone has to run, patch and repair the cluster."
        ),
    ),
}


def format_input(name: str, value: Any) -> str:
    if name in PERCENT_INPUTS:
        return f"{float(value) * 100:.4g} %"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.2f}"
    return str(value)


#: What each item of a cost breakdown is (tco.engine.breakdown); ``%(category)s``
#: is the category's shown name.
BREAKDOWN_LABELS: dict[str, Any] = {
    "capex": gettext_lazy("Capex: %(category)s"),
    "quoted_one_off": gettext_lazy("Quoted one-off: %(category)s"),
    "quoted_recurring": gettext_lazy("Quoted yearly, over the horizon: %(category)s"),
    "added": gettext_lazy("Added by ClusterBuy: %(category)s"),
    "energy": gettext_lazy("Energy"),
    "colocation": gettext_lazy("Colocation"),
    "support": gettext_lazy("Support after warranty"),
    "software": gettext_lazy("Software licences (yearly)"),
    "staff": gettext_lazy("Operations staff"),
    "failures": gettext_lazy("GPU failures (replacement parts)"),
    "residual": gettext_lazy("Residual value (deducted)"),
}
#: Who set the figures of a breakdown item.
BREAKDOWN_SOURCES: dict[str, Any] = {
    "bid": gettext_lazy("the bid's price"),
    "clusterbuy": gettext_lazy("added by ClusterBuy (sourced rule)"),
    "default": gettext_lazy("ClusterBuy default, the same for every bid"),
    "scenario": gettext_lazy("scenario input"),
}


def breakdown_label(code: str, category: str = "") -> str:
    """The shown name of a breakdown item; ``category`` is already a shown name
    (the caller knows whether it is a capex or a bid line category)."""
    label = BREAKDOWN_LABELS.get(code)
    if label is None:
        return code
    return str(label) % {"category": category} if "%(" in str(label) else str(label)


_LINE_COUNT = re.compile(r"^(\d+) line\(s\)$")


def shown_basis(basis: str) -> str:
    """An item's basis as a person reads it: the engine's "3 line(s)" (a count of a
    bid's price lines, tco.engine.normalise) as "3 lines" / "3 行" with the right
    plural; a formula ("8 nodes x 20,000/node") in the reader's language
    (``tco.engine.basis_words``): figures and symbols as the engine wrote them."""
    match = _LINE_COUNT.match(basis or "")
    if not match:
        return basis_in(basis, get_language() or "en")
    count = int(match.group(1))
    return ngettext("%(count)s price line", "%(count)s price lines", count) % {
        "count": figure(count)
    }


def breakdown_rows(items: list[dict], category_label=None) -> list[dict]:
    """Breakdown items (``CostItem.to_dict()`` or CostItem) as a page shows them:
    label, amount, source and basis; ``category_label`` names a category (capex
    categories by default)."""
    rows = []
    for item in items:
        data = item if isinstance(item, dict) else item.to_dict()
        category = data["category"]
        if category_label is not None:
            shown = category_label(category)
        else:
            shown = str(CAPEX_LABELS.get(category, category))
        rows.append(
            {
                "code": data["code"],
                "category": category,
                "label": breakdown_label(data["code"], shown),
                "amount": data["amount"],
                "source": str(BREAKDOWN_SOURCES.get(data["source"], data["source"])),
                "basis": shown_basis(data["basis"]),
            }
        )
    return rows


# --- the engine's input errors (TcoInputError: code, params, field) ------------------

#: Names of the fields an error can name that are not scenario inputs.
ERROR_FIELD_LABELS: dict[str, Any] = {
    "capex": gettext_lazy("Capex lines"),
    "draws": gettext_lazy("Monte Carlo draws"),
    "user_fields": gettext_lazy("Fields set by the user"),
    "ranges": gettext_lazy("Uncertainty ranges"),
    "description": gettext_lazy("Description"),
    "amount": gettext_lazy("Amount"),
    "category": gettext_lazy("Category"),
}


def error_field_label(path: str) -> str | None:
    """ "capex.2.amount" -> "Capex line 3: Amount"; "ranges.pue.low" -> the input's
    label with "(uncertainty range)"; an input name -> its label."""
    parts = path.split(".")
    if parts[0] == "capex" and len(parts) >= 2 and parts[1].isdigit():
        line = gettext("Capex line %(n)s") % {"n": int(parts[1]) + 1}
        if len(parts) == 3 and parts[2] in ERROR_FIELD_LABELS:
            return gettext("%(line)s, %(field)s") % {
                "line": line,
                "field": ERROR_FIELD_LABELS[parts[2]],
            }
        return line
    if parts[0] == "ranges" and len(parts) >= 2 and parts[1] in INPUT_LABELS:
        return gettext("%(label)s (uncertainty range)") % {
            "label": INPUT_LABELS[parts[1]]
        }
    label = INPUT_LABELS.get(parts[0]) or ERROR_FIELD_LABELS.get(parts[0])
    return str(label) if label is not None else None


def allowed_values(params: dict) -> str:
    """The values an input accepts, in words: "a number from 1 to 5"."""
    choices = params.get("choices") or []
    if choices:
        return gettext("one of: %(choices)s") % {"choices": ", ".join(choices)}
    low, high = params.get("low"), params.get("high")
    if params.get("kind") == "share" and (low, high) == (0.0, 1.0):
        return gettext("a share from 0 to 1 (0.08 = 8 %%)") % {}
    return range_sentence(
        low=low,
        high=high,
        whole=params.get("kind") == "count" and low is not None,
        above=params.get("low_inclusive") is False,
    )


_REASONS: dict[str, Any] = {
    "not_a_number": gettext_lazy("Enter a number."),
    "not_finite": gettext_lazy("Enter a finite number (no NaN or infinity)."),
    "not_whole": gettext_lazy("Must be a whole number."),
}
_MESSAGES: dict[str, Any] = {
    "not_an_object": gettext_lazy("Must be an object (names mapped to values)."),
    "not_a_list": gettext_lazy("Must be a list."),
    "not_text": gettext_lazy("Must be text."),
    "unknown_field": gettext_lazy("Unknown field."),
    "expected_low_high": gettext_lazy("Give a low and a high value."),
    "mode_order": gettext_lazy(
        "The most likely value must lie between the low and the high value."
    ),
}


def error_message(exc) -> str | None:
    """A TcoInputError in the active language, saying what is allowed; None for a
    code this module does not know (the engine's English then stands)."""
    code, params = getattr(exc, "code", ""), getattr(exc, "params", {}) or {}
    if code == "out_of_range" and params.get("choices"):
        return gettext("Choose one of: %(choices)s.") % {
            "choices": ", ".join(params["choices"])
        }
    if code == "out_of_range":
        return gettext("Must be %(range)s.") % {"range": allowed_values(params)}
    if code in _REASONS:
        reason = str(_REASONS[code])
        if not params:
            return reason
        return gettext("%(reason)s Allowed: %(range)s.") % {
            "reason": reason,
            "range": allowed_values(params),
        }
    if code == "unknown_category":
        return gettext(
            "Unknown capex category %(category)s: choose one of %(choices)s."
        ) % {
            "category": params.get("category", ""),
            "choices": ", ".join(str(CAPEX_LABELS[c]) for c in CAPEX_CATEGORIES),
        }
    if code == "cannot_convert":
        return gettext(
            "Cannot convert %(source)s to %(target)s: only CNY and USD are supported."
        ) % {"source": params.get("from", ""), "target": params.get("to", "")}
    message = _MESSAGES.get(code)
    return str(message) if message is not None else None
