"""How a thing of the sizing catalogue is named to a person: the one home.

Pages, PDFs, DOCX, XLSX and e-mails show catalogue items, models, fabrics and
precisions by these names, never by their keys (``h20-sxm-96gb`` is "NVIDIA H20
96GB", ``qwen3-235b-a22b`` "Qwen3 235B-A22B", ``roce`` "RoCE", ``fp8`` "FP8"). A key
the catalogue does not hold (a row deleted since) is shown as it is: the document
still says what was chosen.
"""

from __future__ import annotations

from .models import Accelerator, ModelPreset, Precision

#: Interconnect fabrics as their makers write them (IBTA "InfiniBand", "RoCE").
FABRIC_NAMES = {"infiniband": "InfiniBand", "roce": "RoCE", "ethernet": "Ethernet"}


def accelerator_name(key: str | None) -> str:
    """The catalogue name of accelerator ``key`` ("NVIDIA H20 96GB"); "—" for none."""
    if not key:
        return "—"
    row = Accelerator.objects.filter(key=key).only("vendor", "model").first()
    return str(row) if row else key


def model_name(preset: str | None, custom: str | None = None) -> str:
    """A workload's model: the preset's name, else the name the user gave; "—"."""
    if preset:
        row = ModelPreset.objects.filter(key=preset).only("name").first()
        return row.name if row else preset
    return custom or "—"


def fabric_name(code: str | None) -> str:
    return FABRIC_NAMES.get(code or "", code or "—")


def precision_name(code: str | None) -> str:
    """ "fp8" -> "FP8" (the Precision choice's label); "—" for none."""
    if not code:
        return "—"
    try:
        return str(Precision(code).label)
    except ValueError:
        return code.upper()
