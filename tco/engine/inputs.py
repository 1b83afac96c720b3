"""TCO scenario inputs: the frozen dataclass, its documented defaults and validation.

All of it is built from ``input_table.INPUT_TABLE`` (one row per input). Defaults are
stored in CNY. When a scenario is in USD, every *money* default the user did not give
is divided by ``fx_usd_cny``; values the user gave are taken as they are, in the
scenario currency.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, make_dataclass, replace
from decimal import Decimal
from typing import Any

from .currency import convert_money
from .errors import TcoInputError
from .input_table import (
    CAPEX_TABLE,
    CURRENCIES,
    ECONOMIC_DEPRECIATION_PER_YEAR,
    INPUT_TABLE,
    IT_POWER_KW_PER_GPU,
    MONEY,
    InputSpec,
)

__all__ = [
    "CAPEX_CATEGORIES",
    "CURRENCIES",
    "DEFAULTS",
    "ECONOMIC_DEPRECIATION_PER_YEAR",
    "HARDWARE_CATEGORIES",
    "INPUT_NAMES",
    "IT_POWER_KW_PER_GPU",
    "MONEY_FIELDS",
    "REASONS_ZH",
    "SOURCES_ZH",
    "CapexLine",
    "Default",
    "TcoInputError",
    "TcoInputs",
    "capex_label",
    "default_reason",
    "default_source",
    "defaults_used",
    "input_label",
    "inputs_from_dict",
    "inputs_to_dict",
    "with_values",
]

CAPEX_CATEGORIES: tuple[str, ...] = tuple(c.key for c in CAPEX_TABLE)
HARDWARE_CATEGORIES: tuple[str, ...] = tuple(c.key for c in CAPEX_TABLE if c.hardware)
INPUTS: dict[str, InputSpec] = {spec.name: spec for spec in INPUT_TABLE}
INPUT_NAMES: tuple[str, ...] = tuple(INPUTS)
MONEY_FIELDS: frozenset[str] = frozenset(
    spec.name for spec in INPUT_TABLE if spec.kind == "money"
)


@dataclass(frozen=True)
class Default:
    value: Any
    reason: str
    source: str
    money: bool = False  # stored in CNY; converted with fx_usd_cny for USD scenarios


@dataclass(frozen=True)
class CapexLine:
    category: str
    description: str
    amount: float


class _CapexTotals:
    """The capex sums every cost model needs (mixed into ``TcoInputs``)."""

    capex: tuple[CapexLine, ...]

    def capex_by_category(self) -> dict[str, float]:
        totals = dict.fromkeys(CAPEX_CATEGORIES, 0.0)
        for line in self.capex:
            totals[line.category] += line.amount
        return totals

    @property
    def capex_total(self) -> float:
        return float(sum(line.amount for line in self.capex))

    @property
    def hardware_capex(self) -> float:
        """gpu_servers + network + storage: the base of support, failures, residual."""
        by_cat = self.capex_by_category()
        return sum(by_cat[c] for c in HARDWARE_CATEGORIES)


_FIELD_TYPES: dict[str, Any] = {
    "count": int,
    "choice": str,
    "lines": tuple[CapexLine, ...],
}

#: One field per row of the input table, with the table's default, plus the names of
#: the fields the user gave (``user_fields``). Frozen: a scenario never changes.
TcoInputs = make_dataclass(
    "TcoInputs",
    [
        (spec.name, _FIELD_TYPES.get(spec.kind, float), field(default=spec.default))
        for spec in INPUT_TABLE
    ]
    + [("user_fields", frozenset[str], field(default_factory=frozenset))],
    bases=(_CapexTotals,),
    frozen=True,
)
TcoInputs.__module__ = __name__  # make_dataclass(module=...) needs Python 3.12

DEFAULTS: dict[str, Default] = {
    spec.name: Default(
        spec.default, spec.reason_en, spec.source_en, spec.name in MONEY_FIELDS
    )
    for spec in INPUT_TABLE
}
#: The reason of every default in Chinese: the same facts and numbers as ``DEFAULTS``.
#: Plain strings (the engine knows no gettext); the report and the form pick them for
#: a Chinese page.
REASONS_ZH: dict[str, str] = {spec.name: spec.reason_zh for spec in INPUT_TABLE}
#: The source of every default in Chinese (publication and product names kept).
SOURCES_ZH: dict[str, str] = {spec.name: spec.source_zh for spec in INPUT_TABLE}


def _is_chinese(lang: str) -> bool:
    return lang.lower().startswith("zh")


def default_reason(name: str, lang: str = "en") -> str:
    """Why the default of ``name`` is what it is, in ``lang`` ("zh..." or English)."""
    spec = INPUTS[name]
    return spec.reason_zh if _is_chinese(lang) else spec.reason_en


def default_source(name: str, lang: str = "en") -> str:
    """Where the default of ``name`` comes from, in ``lang`` ("zh..." or English)."""
    spec = INPUTS[name]
    return spec.source_zh if _is_chinese(lang) else spec.source_en


def input_label(name: str, lang: str = "en") -> str:
    """The form's and the report's label of input ``name`` in ``lang``."""
    spec = INPUTS[name]
    return spec.label_zh if _is_chinese(lang) else spec.label_en


def capex_label(category: str, lang: str = "en") -> str:
    """The label of a capex category in ``lang``."""
    row = next(c for c in CAPEX_TABLE if c.key == category)
    return row.label_zh if _is_chinese(lang) else row.label_en


# --- validation ---------------------------------------------------------------------


def _number(value: Any, field_name: str, allowed: dict | None = None) -> float:
    """``allowed`` (`range_params`) lets the error say which values are accepted."""
    if isinstance(value, bool) or value is None:
        raise TcoInputError(
            field_name, "must be a number", code="not_a_number", params=allowed
        )
    if isinstance(value, int | float | Decimal):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise TcoInputError(
                field_name, "must be a number", code="not_a_number", params=allowed
            ) from None
    else:
        raise TcoInputError(
            field_name, "must be a number", code="not_a_number", params=allowed
        )
    if not math.isfinite(number):
        raise TcoInputError(
            field_name,
            "must be a finite number (not NaN or infinity)",
            code="not_finite",
            params=allowed,
        )
    return number


def range_params(spec: InputSpec) -> dict[str, Any]:
    """What an error about ``spec`` can say is allowed: its bounds or its choices."""
    params: dict[str, Any] = {
        "kind": spec.kind,
        "choices": [str(choice) for choice in spec.choices],
    }
    if spec.bounds is not None:
        params.update(
            low=spec.bounds.low,
            high=None if spec.bounds.high == math.inf else spec.bounds.high,
            low_inclusive=spec.bounds.low_inclusive,
            high_inclusive=spec.bounds.high_inclusive,
        )
    return params


def _figure(value: float) -> str:
    """A bound as people read it: 10,000,000,000,000 rather than 1e+13."""
    return f"{value:,.0f}" if value == int(value) else f"{value:g}"


def _out_of_range_message(spec: InputSpec) -> str:
    if spec.range_message:
        return spec.range_message
    assert spec.bounds is not None
    low, high, low_inc = spec.bounds.low, spec.bounds.high, spec.bounds.low_inclusive
    if spec.kind == "count":
        return f"must be a whole number between {low:,.0f} and {high:,.0f}"
    if high == 1.0 and low == 0.0:
        return "must be a share between 0 and 1"
    if high == math.inf:
        return "must not be negative" if low_inc else "must be > 0"
    return f"must be between {_figure(low)} and {_figure(high)}"


def _in_bounds(number: float, spec: InputSpec) -> bool:
    if spec.bounds is None:
        return True
    bounds = spec.bounds
    too_low = number < bounds.low or (number == bounds.low and not bounds.low_inclusive)
    too_high = number > bounds.high or (
        number == bounds.high and not bounds.high_inclusive
    )
    return not (too_low or too_high)


def _integer(value: Any, name: str, allowed: dict | None = None) -> int:
    number = _number(value, name, allowed)
    if number != int(number):
        raise TcoInputError(
            name, "must be a whole number", code="not_whole", params=allowed
        )
    return int(number)


def _capex_line(raw: Any, index: int) -> CapexLine:
    if isinstance(raw, CapexLine):
        raw = {
            "category": raw.category,
            "description": raw.description,
            "amount": raw.amount,
        }
    if not isinstance(raw, dict):
        raise TcoInputError(f"capex.{index}", "must be an object", code="not_an_object")
    unknown = set(raw) - {"category", "description", "amount"}
    if unknown:
        raise TcoInputError(
            f"capex.{index}.{sorted(unknown)[0]}", "unknown field", code="unknown_field"
        )
    category = raw.get("category")
    if category not in CAPEX_CATEGORIES:
        raise TcoInputError(
            f"capex.{index}.category",
            f"unknown capex category {category!r}; expected one of "
            + ", ".join(CAPEX_CATEGORIES),
            code="unknown_category",
            params={"category": str(category), "choices": list(CAPEX_CATEGORIES)},
        )
    money = {"kind": "money", "low": MONEY.low, "high": MONEY.high}
    amount = _number(raw.get("amount"), f"capex.{index}.amount", money)
    if not MONEY.low <= amount <= MONEY.high:
        raise TcoInputError(
            f"capex.{index}.amount",
            f"must be between 0 and {_figure(MONEY.high)}",
            code="out_of_range",
            params=money,
        )
    description = raw.get("description") or ""
    if not isinstance(description, str):
        raise TcoInputError(
            f"capex.{index}.description", "must be text", code="not_text"
        )
    return CapexLine(category, description, amount)


def _capex(value: Any) -> tuple[CapexLine, ...]:
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise TcoInputError("capex", "must be a list of capex lines", code="not_a_list")
    return tuple(_capex_line(raw, index) for index, raw in enumerate(value))


def _validated(spec: InputSpec, value: Any) -> Any:
    """The value of input ``spec`` as the engine uses it; TcoInputError if invalid."""
    if spec.kind == "lines":
        return _capex(value)
    allowed = range_params(spec)
    if spec.kind == "choice":
        if value not in spec.choices:
            raise TcoInputError(
                spec.name,
                _out_of_range_message(spec),
                code="out_of_range",
                params=allowed,
            )
        return value
    if spec.kind == "count":
        number: float = _integer(value, spec.name, allowed)
    else:
        number = _number(value, spec.name, allowed)
    if (spec.choices and number not in spec.choices) or not _in_bounds(number, spec):
        raise TcoInputError(
            spec.name, _out_of_range_message(spec), code="out_of_range", params=allowed
        )
    return number


def _default_value(spec: InputSpec, values: dict[str, Any]) -> Any:
    """The default of ``spec`` given the inputs known so far (counts and choices)."""
    if spec.derive is not None:
        return spec.derive(values)
    if spec.kind in ("count", "choice", "lines"):
        return spec.default
    if spec.kind == "money" and values["currency"] == "USD":
        in_usd = convert_money(
            spec.default,
            from_currency="CNY",
            to_currency="USD",
            fx_usd_cny=values.get("fx_usd_cny"),  # None: the default rate
        )
        return round(in_usd, 4)
    return float(spec.default)


#: Counts and choices are checked (and filled) first: derived defaults read them.
#: The first bad field in this order is the one an error names.
_KIND_ORDER = {"count": 0, "choice": 0, "lines": 1}
_VALIDATION_ORDER: tuple[InputSpec, ...] = tuple(
    sorted(INPUT_TABLE, key=lambda spec: _KIND_ORDER.get(spec.kind, 2))
)


def _user_fields(value: Any) -> frozenset[str]:
    """The recorded user fields: a list of input names (anything else is an error)."""
    if value is None:
        return frozenset()
    if not isinstance(value, list | tuple | set | frozenset):
        raise TcoInputError(
            "user_fields", "must be a list of input names", code="not_a_list"
        )
    for item in value:
        if not isinstance(item, str):
            raise TcoInputError(
                "user_fields", "must be a list of input names", code="not_a_list"
            )
        if item not in INPUTS:
            raise TcoInputError(
                "user_fields",
                f"unknown field {item!r}",
                code="unknown_field",
                params={"name": item},
            )
    return frozenset(value)


def inputs_from_dict(data: dict) -> TcoInputs:
    """Validate a scenario, fill defaults, and record which fields the user gave.

    ``data`` may carry ``user_fields`` (as written by :func:`inputs_to_dict`); otherwise
    the keys present (and not ``None``) are the user's fields. Raises
    :class:`TcoInputError` naming the first bad field.
    """
    if not isinstance(data, dict):
        raise TcoInputError("__all__", "inputs must be an object", code="not_an_object")
    unknown = set(data) - set(INPUTS) - {"user_fields"}
    if unknown:
        raise TcoInputError(sorted(unknown)[0], "unknown input", code="unknown_field")
    given = {k: v for k, v in data.items() if k != "user_fields" and v is not None}
    if "user_fields" in data:
        user_fields = _user_fields(data["user_fields"])
    else:
        user_fields = frozenset(given)

    values: dict[str, Any] = {
        spec.name: _validated(spec, given[spec.name])
        for spec in _VALIDATION_ORDER
        if spec.name in given
    }
    for spec in _VALIDATION_ORDER:
        if spec.name not in values:
            values[spec.name] = _default_value(spec, values)
    ordered = {name: values[name] for name in INPUT_NAMES}
    return TcoInputs(**ordered, user_fields=user_fields)


def inputs_to_dict(inputs: TcoInputs) -> dict:
    """JSON-serialisable and round-trippable: ``inputs_from_dict(inputs_to_dict(x)) == x``."""
    out: dict[str, Any] = {}
    for name in INPUT_NAMES:
        value = getattr(inputs, name)
        if name == "capex":
            value = [
                {
                    "category": c.category,
                    "description": c.description,
                    "amount": c.amount,
                }
                for c in value
            ]
        out[name] = value
    out["user_fields"] = sorted(inputs.user_fields)
    return out


def defaults_used(inputs: TcoInputs) -> list[str]:
    """Input names whose value is a default (the report marks them)."""
    return [name for name in INPUT_NAMES if name not in inputs.user_fields]


def with_values(inputs: TcoInputs, **changes: Any) -> TcoInputs:
    """A copy with some fields replaced (no re-validation: callers keep values in range)."""
    return replace(inputs, **changes)
