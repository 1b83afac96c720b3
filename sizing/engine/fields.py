"""Reading typed fields of an API object; every rejection names the field's dotted path.

The sizing parsers (``workload_from_dict``, ``constraints_from_dict``) build on these so
that the API can return a 400 on exactly the offending field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import SizingInputError
from .limits import ceiling, floor


def read_number(
    data: dict,
    name: str,
    path: str,
    *,
    integer: bool = False,
    positive: bool = True,
    allow_zero: bool = False,
    maximum: float | None = None,
):
    """The number at ``name`` (numeric strings accepted), or None when absent.

    Finite, never negative, zero only with ``allow_zero``, at most ``maximum`` (or the
    field's physical ceiling, `limits.MAXIMA`), and a whole number when ``integer``.
    """
    value = data.get(name)
    if value is None:
        return None
    where = f"{path}.{name}"
    highest = ceiling(name, maximum)
    lowest = floor(name)
    # What every message about this number can state: the interval it must be in.
    allowed = {
        "minimum": lowest,
        "maximum": highest,
        "zero_allowed": (allow_zero or not positive) and lowest == 0,
        "integer": integer,
    }
    if isinstance(value, bool) or not isinstance(value, int | float):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise SizingInputError(
                    "must be a number",
                    field=where,
                    code="not_a_number",
                    params=allowed,
                ) from None
        else:
            raise SizingInputError(
                "must be a number", field=where, code="not_a_number", params=allowed
            )
    if not math.isfinite(value):
        raise SizingInputError(
            "must be a finite number (no NaN or infinity)",
            field=where,
            code="not_finite",
            params=allowed,
        )
    if value < 0:
        raise SizingInputError(
            "must not be negative", field=where, code="negative", params=allowed
        )
    if positive and value == 0 and not allow_zero:
        raise SizingInputError(
            "must be greater than zero", field=where, code="zero", params=allowed
        )
    if value < lowest:
        raise SizingInputError(
            f"must be at least {lowest:,.15g}",
            field=where,
            code="below_minimum",
            params=allowed,
        )
    if value > highest:
        raise SizingInputError(
            f"must be at most {highest:,.15g}",
            field=where,
            code="above_maximum",
            params=allowed,
        )
    if integer:
        if value != int(value):
            raise SizingInputError(
                "must be a whole number", field=where, code="not_whole", params=allowed
            )
        return int(value)
    return float(value)


def read_choice(data: dict, name: str, path: str, choices: tuple[str, ...], default):
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, str) or value.lower() not in choices:
        raise SizingInputError(
            f"must be one of {', '.join(choices)}",
            field=f"{path}.{name}",
            code="not_a_choice",
            params={"choices": list(choices)},
        )
    return value.lower()


def read_bool(data: dict, name: str, path: str, default: bool) -> bool:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise SizingInputError(
            "must be true or false", field=f"{path}.{name}", code="not_a_bool"
        )
    return value


@dataclass(frozen=True)
class NumberField:
    """An optional number of an API object: its checks and its value when absent."""

    name: str
    integer: bool = False
    allow_zero: bool = False
    maximum: float | None = None
    default: float | None = None

    def read(self, data: dict, path: str):
        value = read_number(
            data,
            self.name,
            path,
            integer=self.integer,
            allow_zero=self.allow_zero,
            maximum=self.maximum,
        )
        return self.default if value is None else value


def read_numbers(
    data: dict, path: str, fields: tuple[NumberField, ...]
) -> dict[str, Any]:
    """Read in table order, so the first bad field is the one reported."""
    return {field.name: field.read(data, path) for field in fields}


def require(
    data: dict,
    name: str,
    path: str,
    message: str = "is required",
    code: str = "required",
) -> None:
    if data.get(name) is None:
        raise SizingInputError(message, field=f"{path}.{name}", code=code)
