"""What the spec-claim checks read and return: the catalog figures of the offered
accelerator (the sizing catalogue's `Accelerator`, one datasheet type for both apps),
the bid's statements (`BidSpec`) and each `SpecClaim`.
The tolerances are explained in the package docstring (`vendors.engine.spec_claims`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sizing.engine.catalog import Accelerator

MEMORY_TOLERANCE = 0.07
TFLOPS_TOLERANCE = 0.10
BANDWIDTH_TOLERANCE = 0.05
SERVER_POWER_MIN_SHARE = 0.80
SERVER_POWER_TYPICAL_MIN_SHARE = 0.60
SERVER_POWER_MAX_SHARE = 1.10
GPUS_PER_SERVER = 8
NIC_SOURCE = (
    "IBTA InfiniBand rates (EDR 100, HDR 200, NDR 400, XDR 800 Gb/s) and NVIDIA NIC "
    "specs (ConnectX-7 400, ConnectX-8 800 Gb/s) via stas00/ml-engineering "
    "network/README.md (hardware-facts.md 2a)"
)
NIC_MAX_GBPS = {
    "EDR": 100,
    "HDR": 200,
    "NDR": 400,
    "XDR": 800,
    "CX6": 200,
    "CX7": 400,
    "CX8": 800,
    "BF3": 400,
}


class ClaimStatus(StrEnum):
    OK = "ok"
    MISMATCH = "mismatch"
    UNVERIFIABLE = "unverifiable"


class ClaimKind(StrEnum):
    MEMORY_GB = "memory_gb"
    MEMORY_TYPE = "memory_type"
    TFLOPS = "tflops"
    SERVER_POWER_KW = "server_power_kw"
    SCALEUP_GBS = "scaleup_gbs"
    SCALEUP_GENERATION = "scaleup_generation"
    NIC_GBPS = "nic_gbps"


def datasheet_from_row(row: Mapping[str, Any]) -> Accelerator:
    """The datasheet figures the claims read, from a catalog row (the CSV's or the
    model's field names; a figure not in the row is None)."""

    def number(name: str) -> float | None:
        value = row.get(name)
        return None if value in (None, "") else float(value)

    return Accelerator(
        key=str(row.get("key") or ""),
        name=str(row.get("model") or row.get("name") or ""),
        memory_gb=number("memory_gb"),
        memory_type=str(row.get("memory_type") or ""),
        bf16_tflops=number("bf16_dense_tflops"),
        fp8_tflops=number("fp8_dense_tflops"),
        int8_tops=number("int8_dense_tops"),
        fp4_tflops=number("fp4_dense_tflops"),
        scaleup_link=str(row.get("scaleup_link") or ""),
        scaleup_gbs=number("scaleup_gbs_per_gpu"),
        server_8gpu_max_kw=number("server_8gpu_max_kw"),
        form_factor=str(row.get("form_factor") or ""),
        source=str(row.get("source") or ""),
    )


@dataclass(frozen=True)
class BidSpec:
    """What a bid states: its free-text fields and the figures claims are read from."""

    proposal_text: str = ""
    server_model: str = ""
    scaleup_link: str = ""
    network_fabric: str = ""
    gpu_count: int | None = None
    nodes: int | None = None
    peak_power_kw: float | None = None


@dataclass(frozen=True)
class SpecClaim:
    """One claim: as written (``claim``), the figure read from it (``claimed``), the
    catalog's (``datasheet``), and where the catalog's comes from. ``claimed``,
    ``datasheet`` and ``note`` are (English, Chinese) pairs."""

    kind: ClaimKind
    claim: str
    claimed: tuple[str, str]
    datasheet: tuple[str, str]
    status: ClaimStatus
    source: str
    note: tuple[str, str] = ("", "")

    def as_dict(self, lang: str = "en") -> dict:
        zh = 1 if lang.lower().startswith("zh") else 0
        return {
            "kind": str(self.kind),
            "claim": self.claim,
            "claimed": self.claimed[zh],
            "datasheet": self.datasheet[zh],
            "status": str(self.status),
            "source": self.source,
            "note": self.note[zh],
        }
