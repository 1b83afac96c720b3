"""Power and cooling: node and IT kW, racks, air vs liquid, facility kW, energy, feeds.

Server power is the vendor's maximum, not GPUs x TDP (DGX H100 10.2 kW vs 8 x 700 W).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .explain import Explainer

# Air with containment tops out around 30-50 kW per rack; 40 kW is the mid-point and the
# H100 SuperPOD 4-DGX rack layout (hardware-facts.md section 4).
AIR_MAX_RACK_KW = 40.0
# Direct-to-chip liquid ~60-80 kW, to ~130 kW two-phase; NVL72 racks run 120-132 kW.
LIQUID_MAX_RACK_KW = 132.0
PUE_AIR = 1.4  # modern air 1.2-1.4, upper end (cost-figures.md)
PUE_LIQUID = 1.2  # cold plate typically 1.15-1.25 (hardware-facts.md section 4)
AVERAGE_LOAD_SHARE = 0.75  # Epoch server_TDP_fraction: average draw during training
FEED_KW = (
    22.0  # 3-phase 400 V x 32 A ~ 22 kVA per PDU feed (arithmetic, hardware-facts 5)
)
SRC_POWER = "hardware-facts.md section 4; cost-figures.md"
SECTION = "power"


@dataclass(frozen=True)
class _RackLayout:
    """How the nodes fill racks under the cooling ceiling and the site's rack limit."""

    limit_kw: float
    nodes_per_rack: int
    racks: int
    rack_kw: float


def _rack_layout(
    *,
    nodes: int,
    node_kw: float,
    rack_limit_kw: float | None,
    liquid_ok: bool,
    platform_liquid: bool,
) -> _RackLayout:
    """As many nodes per rack as the limit allows, never fewer than one (an over-limit
    node still takes a rack of its own)."""
    cooling_cap_kw = (
        LIQUID_MAX_RACK_KW if (liquid_ok or platform_liquid) else AIR_MAX_RACK_KW
    )
    limit_kw = min(cooling_cap_kw, rack_limit_kw) if rack_limit_kw else cooling_cap_kw
    per_rack = max(1, math.floor(limit_kw / node_kw)) if node_kw <= limit_kw else 1
    racks = math.ceil(nodes / per_rack) if nodes else 0
    rack_kw = per_rack * node_kw if nodes >= per_rack else nodes * node_kw
    return _RackLayout(limit_kw, per_rack, racks, rack_kw)


def size_power(
    *,
    nodes: int,
    node_kw: float,
    gpus: int,
    peak_tflops: float,
    rack_limit_kw: float | None,
    liquid_ok: bool,
    platform_liquid: bool,
    pue: float | None,
    ex: Explainer,
) -> dict:
    """The power section; every quantity is also explained in ``ex``."""
    out: dict = {}
    ex.put(
        out,
        SECTION,
        "node_kw",
        node_kw,
        unit="kW",
        formula="vendor maximum system power per node",
        source=SRC_POWER,
    )
    it_kw = ex.put(
        out,
        SECTION,
        "it_kw",
        nodes * node_kw,
        unit="kW",
        formula="nodes x node_kw (switches and storage excluded)",
        inputs={"nodes": nodes},
        source=SRC_POWER,
    )
    racks = _rack_layout(
        nodes=nodes,
        node_kw=node_kw,
        rack_limit_kw=rack_limit_kw,
        liquid_ok=liquid_ok,
        platform_liquid=platform_liquid,
    )
    _explain_racks(out, ex, racks)
    pue_used = _explain_cooling(
        out, ex, rack_kw=racks.rack_kw, platform_liquid=platform_liquid, pue=pue
    )
    _explain_facility_energy(out, ex, it_kw=it_kw, pue=pue_used)
    _explain_feeds(out, ex, rack_kw=racks.rack_kw)
    ex.put(
        out,
        SECTION,
        "tflops_per_kw",
        gpus * peak_tflops / it_kw if it_kw else 0.0,
        unit="TFLOPS/kW",
        formula="GPUs x dense peak of the precision / it_kw (system level)",
        source=SRC_POWER,
    )
    return out


def _explain_racks(out: dict, ex: Explainer, racks: _RackLayout) -> None:
    ex.put(
        out,
        SECTION,
        "nodes_per_rack",
        racks.nodes_per_rack,
        unit="nodes",
        formula="floor(rack limit / node_kw), >= 1",
        inputs={"rack_limit_kw": racks.limit_kw},
        source=SRC_POWER,
    )
    ex.put(
        out,
        SECTION,
        "racks",
        racks.racks,
        unit="racks",
        formula="ceil(nodes / nodes_per_rack)",
        source=SRC_POWER,
    )
    ex.put(
        out,
        SECTION,
        "rack_kw",
        racks.rack_kw,
        unit="kW",
        formula="nodes_per_rack x node_kw",
        source=SRC_POWER,
    )


def _explain_cooling(
    out: dict,
    ex: Explainer,
    *,
    rack_kw: float,
    platform_liquid: bool,
    pue: float | None,
) -> float:
    """Air or liquid by rack density; the PUE is the buyer's, else the cooling's."""
    cooling = "liquid" if (rack_kw > AIR_MAX_RACK_KW or platform_liquid) else "air"
    ex.put(
        out,
        SECTION,
        "cooling",
        cooling,
        unit="",
        formula=f"liquid when a rack exceeds {AIR_MAX_RACK_KW:g} kW (air ceiling) or "
        "the platform is liquid-cooled",
        inputs={"rack_kw": rack_kw},
        source="hardware-facts.md section 4",
    )
    return ex.put(
        out,
        SECTION,
        "pue",
        pue or (PUE_LIQUID if cooling == "liquid" else PUE_AIR),
        unit="ratio",
        formula="buyer's PUE, else 1.2 liquid / 1.4 air",
        source=SRC_POWER,
    )


def _explain_facility_energy(
    out: dict, ex: Explainer, *, it_kw: float, pue: float
) -> None:
    facility_kw = ex.put(
        out,
        SECTION,
        "facility_kw",
        it_kw * pue,
        unit="kW",
        formula="it_kw x PUE",
        inputs={"pue": pue},
        source=SRC_POWER,
    )
    ex.put(
        out,
        SECTION,
        "annual_mwh",
        facility_kw * AVERAGE_LOAD_SHARE * 8760.0 / 1000.0,
        unit="MWh",
        formula="facility_kw x 0.75 average load x 8760 h / 1000",
        source="Epoch server_TDP_fraction 0.75 (cost-figures.md)",
    )


def _explain_feeds(out: dict, ex: Explainer, *, rack_kw: float) -> None:
    """2N power: A and B sides, each with enough 3-phase feeds for the whole rack."""
    ex.put(
        out,
        SECTION,
        "feeds_per_rack",
        2 * math.ceil(rack_kw / FEED_KW) if rack_kw else 0,
        unit="feeds",
        formula="2N (A+B sides) x ceil(rack_kw / 22 kW per 3-phase 32 A feed)",
        inputs={"rack_kw": rack_kw},
        source="hardware-facts.md section 5 (PSU redundancy 4+2 / 5+1 per server)",
    )
    ex.put(
        out,
        SECTION,
        "redundant_feeds",
        True,
        unit="bool",
        formula="A and B feeds per rack",
        source="hardware-facts.md section 5",
    )
