"""Compliance of one vendor bid against the sizing plan it answers.

Pure engine: plain frozen dataclasses in, a list of ``ComplianceItem`` out. No Django.

The warn/fail rule, applied to every "at least" quantity (memory per GPU, scale-up
domain, network per GPU, storage capacity and throughput):

* offered >= required                      -> ``pass``
* offered short by at most ``tolerance``   -> ``warn`` (default 10 %: close enough to
  negotiate, e.g. 900 of 1,000 TB)
* offered short by more than ``tolerance`` -> ``fail``
* offered not stated (``None``)            -> ``warn`` ("ask the vendor"); a missing
  figure cannot be verified but is not proof of a shortfall.

The GPU count is not judged here: a count says nothing across accelerators (256 H20
would "pass" against 104 H200 with 37 % of the compute). `capability.py` judges what the
GPUs deliver (``compute``, ``memory_fit``) and `check_capability_compliance` puts its
items first.

IT power is an "at most" quantity (the site was provisioned for the plan): offered up to
the plan passes, up to ``tolerance`` above warns, beyond that fails. An offered power far
*below* the plan (under ``implausible_power_share``, default 75 %) also warns, because the
usual mistake is quoting GPU TDP x 8 instead of server power: an 8x H100 SXM server is
~10.2 kW max, not 5.6 kW (hardware-facts.md section 5, "8xH100 server 4.8 kW": False;
NVIDIA DGX H100 user guide).

Cooling: a plan that needs liquid cooling fails an air-cooled offer (air tops out around
30-50 kW per rack with containment; hardware-facts.md section 4). An air plan offered
liquid cooling warns, because the site needs facility work it did not plan for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "REQUIREMENT_DIGITS",
    "requirement_value",
    "BidOffer",
    "ComplianceInputError",
    "ComplianceItem",
    "ComplianceStatus",
    "PlanNeeds",
    "check_compliance",
]

COOLING_KINDS = ("air", "liquid")
REQUIREMENT_DIGITS = 1  # decimals a plan figure is stated with in the RFP


def requirement_value(
    value: float, *, at_least: bool, digits: int = REQUIREMENT_DIGITS
) -> float:
    """A plan figure as the RFP states it and as a bid is held to it: one rule for the
    pack, the portal's feedback and the comparison. Rounded to ``digits`` toward the
    plan's side (an "at least" down, an "at most" up), so that the plan's own figure
    always meets its own minimum: 232 x H20 = 34.336 PFLOPS is stated "≥ 34.3" and a
    bid identical to the plan passes (issue 21, item 9)."""
    scale = 10**digits
    scaled = round(value * scale, 6)
    return (math.floor(scaled) if at_least else math.ceil(scaled)) / scale


class ComplianceInputError(ValueError):
    """A plan or offer value is out of range (negative, unknown cooling kind)."""


class ComplianceStatus(StrEnum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class PlanNeeds:
    """What the sizing plan says the cluster needs.

    ``network_gbps_per_gpu`` is per direction (IB/Ethernet convention: NDR = 400 Gb/s);
    ``scaleup_domain_gpus`` is the NVLink/xGMI domain size (8 for HGX, 72 for NVL72).
    ``ecosystem`` is the accelerator software stack ("cuda", "rocm", "cann"); ``None``
    means any.
    """

    gpu_count: int
    vram_gb_per_gpu: float
    scaleup_domain_gpus: int
    network_gbps_per_gpu: float
    storage_tb: float
    storage_read_gbs: float
    storage_write_gbs: float
    it_power_kw: float
    cooling: str = "air"
    ecosystem: str | None = None


@dataclass(frozen=True)
class BidOffer:
    """What a bid offers, in the same units as ``PlanNeeds``; ``None`` = not stated."""

    gpu_count: int | None = None
    vram_gb_per_gpu: float | None = None
    scaleup_domain_gpus: int | None = None
    network_gbps_per_gpu: float | None = None
    storage_tb: float | None = None
    storage_read_gbs: float | None = None
    storage_write_gbs: float | None = None
    it_power_kw: float | None = None
    cooling: str | None = None
    ecosystem: str | None = None


@dataclass(frozen=True)
class ComplianceItem:
    item: str
    status: ComplianceStatus
    required: float | str | None
    offered: float | str | None
    unit: str
    note: str = ""
    note_zh: str = ""

    def note_for(self, lang: str = "en") -> str:
        """The note in ``lang`` ("zh..." gives Chinese, anything else English)."""
        return self.note_zh if lang.lower().startswith("zh") else self.note


# (field, unit) for every "offered must be at least required" quantity.
_AT_LEAST: tuple[tuple[str, str], ...] = (
    ("vram_gb_per_gpu", "GB"),
    ("scaleup_domain_gpus", "GPU"),
    ("network_gbps_per_gpu", "Gb/s"),
    ("storage_tb", "TB"),
    ("storage_read_gbs", "GB/s"),
    ("storage_write_gbs", "GB/s"),
)


def _check_at_least(
    item: str, required: float, offered: float | None, unit: str, tolerance: float
) -> ComplianceItem:
    if offered is None:
        return ComplianceItem(
            item,
            ComplianceStatus.WARN,
            required,
            None,
            unit,
            "Not stated by the vendor; ask for the figure.",
            "供应商未说明，请要求提供该数值。",
        )
    if offered >= required:
        return ComplianceItem(item, ComplianceStatus.PASS, required, offered, unit)
    short_share = (required - offered) / required
    status = (
        ComplianceStatus.WARN if short_share <= tolerance else ComplianceStatus.FAIL
    )
    pct = f"{short_share:.0%}"
    return ComplianceItem(
        item,
        status,
        required,
        offered,
        unit,
        f"{pct} below the plan ({offered:g} vs {required:g} {unit}).",
        f"比方案低 {pct}（{offered:g} 对 {required:g} {unit}）。",
    )


def _check_power(
    required: float,
    offered: float | None,
    tolerance: float,
    implausible_power_share: float,
) -> ComplianceItem:
    unit = "kW"
    if offered is None:
        return _check_at_least("it_power_kw", required, None, unit, tolerance)
    if required > 0 and offered < required * implausible_power_share:
        return ComplianceItem(
            "it_power_kw",
            ComplianceStatus.WARN,
            required,
            offered,
            unit,
            f"Offered power {offered:g} kW is far below the plan's {required:g} kW; "
            "check it is server maximum power, not GPU TDP x count "
            "(8x H100 SXM server ~10.2 kW max).",
            f"报价功率 {offered:g} kW 远低于方案的 {required:g} kW；请确认是整机最大功率，"
            "而不是 GPU TDP 乘以卡数（8 卡 H100 SXM 整机最大约 10.2 kW）。",
        )
    # At the plan's power within display rounding (a float 0.0001 kW over printed
    # "Draws 0% more" and cost a point): under half a per cent over is the plan.
    if offered <= required or (required > 0 and offered - required < required * 0.005):
        return ComplianceItem(
            "it_power_kw", ComplianceStatus.PASS, required, offered, unit
        )
    if required <= 0:
        return ComplianceItem(
            "it_power_kw",
            ComplianceStatus.FAIL,
            required,
            offered,
            unit,
            f"Draws {offered:g} kW; the site was planned for none.",
            f"功耗为 {offered:g} kW，而场地规划功率为 0。",
        )
    over_share = (offered - required) / required
    status = ComplianceStatus.WARN if over_share <= tolerance else ComplianceStatus.FAIL
    over = f"{over_share:.0%}"
    return ComplianceItem(
        "it_power_kw",
        status,
        required,
        offered,
        unit,
        f"Draws {over} more than the site was planned for ({offered:g} vs {required:g} kW).",
        f"功耗比场地规划高 {over}（{offered:g} 对 {required:g} kW）。",
    )


def _check_cooling(required: str, offered: str | None) -> ComplianceItem:
    if offered is None:
        return ComplianceItem(
            "cooling",
            ComplianceStatus.WARN,
            required,
            None,
            "",
            "Cooling not stated by the vendor.",
            "供应商未说明散热方式。",
        )
    if offered == required:
        return ComplianceItem("cooling", ComplianceStatus.PASS, required, offered, "")
    if required == "liquid":
        return ComplianceItem(
            "cooling",
            ComplianceStatus.FAIL,
            required,
            offered,
            "",
            "The plan's rack density needs liquid cooling; air tops out around "
            "30-50 kW per rack.",
            "方案的机柜功率密度需要液冷；风冷上限约为每柜 30-50 kW。",
        )
    return ComplianceItem(
        "cooling",
        ComplianceStatus.WARN,
        required,
        offered,
        "",
        "Liquid cooling offered for an air-cooled site: facility work not in the plan.",
        "为风冷机房提供了液冷方案：需要方案外的机房改造。",
    )


def _check_ecosystem(required: str | None, offered: str | None) -> ComplianceItem:
    if required is None:
        return ComplianceItem("ecosystem", ComplianceStatus.PASS, None, offered, "")
    if offered is None:
        return ComplianceItem(
            "ecosystem",
            ComplianceStatus.WARN,
            required,
            None,
            "",
            "Software ecosystem not stated by the vendor.",
            "供应商未说明软件生态。",
        )
    if offered.strip().lower() == required.strip().lower():
        return ComplianceItem("ecosystem", ComplianceStatus.PASS, required, offered, "")
    return ComplianceItem(
        "ecosystem",
        ComplianceStatus.FAIL,
        required,
        offered,
        "",
        f"The plan's workloads run on {required}; the bid offers {offered}, "
        "so code and tooling must be ported.",
        f"方案的工作负载基于 {required}；投标提供的是 {offered}，需要移植代码和工具链。",
    )


def _validate(needs: PlanNeeds, offer: BidOffer) -> None:
    for name, _unit in (("gpu_count", "GPU"), *_AT_LEAST, ("it_power_kw", "kW")):
        for side, value in (
            ("plan", getattr(needs, name)),
            ("bid", getattr(offer, name)),
        ):
            if value is not None and value < 0:
                raise ComplianceInputError(
                    f"{side} {name} must not be negative: {value}"
                )
    if needs.cooling not in COOLING_KINDS:
        raise ComplianceInputError(f"plan cooling must be one of {COOLING_KINDS}")
    if offer.cooling is not None and offer.cooling not in COOLING_KINDS:
        raise ComplianceInputError(f"bid cooling must be one of {COOLING_KINDS}")


def check_compliance(
    needs: PlanNeeds,
    offer: BidOffer,
    *,
    tolerance: float = 0.10,
    implausible_power_share: float = 0.75,
) -> list[ComplianceItem]:
    """Compare ``offer`` with ``needs`` item by item, in a fixed order.

    Raises ``ComplianceInputError`` on negative quantities or unknown cooling kinds.
    """
    if not 0 <= tolerance < 1:
        raise ComplianceInputError("tolerance must be in [0, 1)")
    _validate(needs, offer)
    items: list[ComplianceItem] = []
    for name, unit in _AT_LEAST:
        required = getattr(needs, name)
        if required is not None:
            required = requirement_value(required, at_least=True)
        offered = getattr(offer, name)
        if required == 0:
            items.append(ComplianceItem(name, ComplianceStatus.PASS, 0, offered, unit))
        else:
            items.append(_check_at_least(name, required, offered, unit, tolerance))
    power = needs.it_power_kw
    if power is not None:
        power = requirement_value(power, at_least=False)
    items.append(
        _check_power(power, offer.it_power_kw, tolerance, implausible_power_share)
    )
    items.append(_check_cooling(needs.cooling, offer.cooling))
    items.append(_check_ecosystem(needs.ecosystem, offer.ecosystem))
    return items
