"""Accelerators as people name them: the catalogue grouped by vendor for a select, and
a key found from either the key or the shown name ("NVIDIA H200 SXM 141GB"), so a bid
typed or imported with the name lands on the same catalogue row."""

from __future__ import annotations

from sizing.models import Accelerator


def _normal(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def accelerator_key_for(text: str) -> str | None:
    """The catalogue key for a key, a shown name (vendor + model) or a model name,
    ignoring case and spacing; None when no row matches."""
    wanted = _normal(text)
    if not wanted:
        return None
    rows = Accelerator.objects.values_list("key", "vendor", "model")
    for key, vendor, model in rows:
        if wanted in (_normal(key), _normal(f"{vendor} {model}"), _normal(model)):
            return key
    return None


def accelerator_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """[(vendor, [(key, shown name), ...]), ...] for a grouped select, vendors and
    models in alphabetical order; empty when no catalogue is loaded."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for accelerator in Accelerator.objects.order_by("vendor", "model", "key"):
        groups.setdefault(accelerator.vendor, []).append(
            (accelerator.key, str(accelerator))
        )
    return list(groups.items())
