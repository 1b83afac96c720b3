"""Explanation entries: every output quantity says how it was computed and from what."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


def clean(value: Any) -> Any:
    """JSON-safe copy: numpy scalars to Python floats/ints, non-finite floats to None."""
    kind = type(value)
    if kind is float:
        return value if math.isfinite(value) else None
    if value is None or kind in (int, str, bool):
        return value
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value


@dataclass
class Explainer:
    entries: list[dict[str, Any]] = field(default_factory=list)

    def put(
        self,
        target: dict,
        section: str,
        key: str,
        value: Any,
        unit: str,
        formula: str,
        inputs: dict[str, Any] | None = None,
        source: str = "",
    ) -> Any:
        target[key] = value
        self.entries.append(
            {
                "quantity": f"{section}.{key}" if section else key,
                "value": value,
                "unit": unit,
                "formula": formula,
                "inputs": inputs or {},
                "source": source,
            }
        )
        return value

    def extend(self, other: Explainer, prefix: str = "") -> None:
        for entry in other.entries:
            copied = dict(entry)
            if prefix:
                copied["quantity"] = f"{prefix}.{entry['quantity']}"
            self.entries.append(copied)

    def as_list(self) -> list[dict[str, Any]]:
        return clean(self.entries)


@dataclass
class Section:
    """One output section (``memory``, ``training``...): its values and their entries.

    ``put`` takes keywords only, so a unit can never be passed where a formula belongs.
    """

    explainer: Explainer
    name: str
    values: dict[str, Any] = field(default_factory=dict)

    def put(
        self,
        *,
        key: str,
        value: Any,
        unit: str,
        formula: str,
        inputs: dict[str, Any] | None = None,
        source: str = "",
    ) -> Any:
        return self.explainer.put(
            self.values, self.name, key, value, unit, formula, inputs, source
        )
