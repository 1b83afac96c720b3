"""Power and cooling: node and IT kW, racks, air vs liquid, facility kW, energy, feeds.

Server power is the vendor's maximum, not GPUs x TDP (DGX H100 10.2 kW vs 8 x 700 W).
The cooling follows the platform: an air-cooled chassis stays air-cooled and its racks
are filled up to the air ceiling; a liquid-cooled platform (GB200 NVL72) needs liquid.
The site's rack limit (the questionnaire's ``rack_power_limit_kw``) caps both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .explain import Explainer

# Air with hot/cold-aisle containment removes ~30-50 kW per rack (hardware-facts.md
# section 4). The upper end is the default ceiling: it admits NVIDIA's air-cooled H100
# SuperPOD rack of 4 x DGX H100 = 4 x 10.2 = 40.8 kW ("exceeds 40 kW", DGX SuperPOD
# reference architecture RA-11333-001 V11) and 3 x DGX B200 = 42.9 kW.
AIR_MAX_RACK_KW = 50.0
SRC_AIR_CEILING = (
    "containment air ceiling 30-50 kW (hardware-facts.md section 4); NVIDIA DGX "
    "SuperPOD RA-11333-001: 4 x DGX H100 (40.8 kW) per air-cooled rack"
)
# Direct-to-chip liquid ~60-80 kW, to ~130 kW two-phase; NVL72 racks run 120-132 kW.
LIQUID_MAX_RACK_KW = 132.0
# One PUE default for sizing and TCO (tco.engine DEFAULTS["pue"], same source): China
# requires new large and hyperscale data centres to reach PUE <= 1.3.
DEFAULT_PUE = 1.3
SRC_PUE = (
    "MIIT 新型数据中心发展三年行动计划(2021-2023), 2021-07: new large and hyperscale "
    "data centres PUE <= 1.3; Uptime Institute Global Data Center Survey 2024 "
    "(industry average 1.56); the TCO default is the same"
)
AVERAGE_LOAD_SHARE = 0.75  # Epoch server_TDP_fraction: average draw during training
FEED_KW = (
    22.0  # 3-phase 400 V x 32 A ~ 22 kVA per PDU feed (arithmetic, hardware-facts 5)
)
SRC_POWER = "hardware-facts.md section 4; cost-figures.md"
SECTION = "power"


@dataclass(frozen=True)
class _RackLayout:
    """How the nodes fill racks under the cooling ceiling and the site's rack limit."""

    cooling: str  # air | liquid: the platform's, never the density's
    ceiling_kw: float  # what the cooling removes per rack
    limit_kw: float  # the ceiling, capped by the site's rack limit
    nodes_per_rack: int
    racks: int
    rack_kw: float


def _rack_layout(
    *, nodes: int, node_kw: float, rack_limit_kw: float | None, platform_liquid: bool
) -> _RackLayout:
    """As many nodes per rack as the limit allows, never fewer than one (an over-limit
    node still takes a rack of its own). An air-cooled chassis is never relabelled
    liquid: a denser rack is not an option for it, so its racks stop at the air
    ceiling."""
    cooling = "liquid" if platform_liquid else "air"
    ceiling_kw = LIQUID_MAX_RACK_KW if platform_liquid else AIR_MAX_RACK_KW
    limit_kw = min(ceiling_kw, rack_limit_kw) if rack_limit_kw else ceiling_kw
    per_rack = max(1, math.floor(limit_kw / node_kw)) if node_kw <= limit_kw else 1
    racks = math.ceil(nodes / per_rack) if nodes else 0
    rack_kw = per_rack * node_kw if nodes >= per_rack else nodes * node_kw
    return _RackLayout(cooling, ceiling_kw, limit_kw, per_rack, racks, rack_kw)


def size_power(
    *,
    nodes: int,
    node_kw: float,
    gpus: int,
    peak_tflops: float,
    rack_limit_kw: float | None,
    platform_liquid: bool,
    pue: float | None,
    ex: Explainer,
) -> dict:
    """The power section; every quantity is also explained in ``ex``."""
    out: dict = {}
    it_kw = _explain_it_power(out, ex, nodes=nodes, node_kw=node_kw)
    racks = _rack_layout(
        nodes=nodes,
        node_kw=node_kw,
        rack_limit_kw=rack_limit_kw,
        platform_liquid=platform_liquid,
    )
    _explain_cooling(out, ex, racks, rack_limit_kw=rack_limit_kw)
    _explain_racks(out, ex, racks)
    pue_used = ex.put(
        out,
        SECTION,
        "pue",
        pue or DEFAULT_PUE,
        unit="ratio",
        formula="buyer's PUE, else the default 1.3 (liquid-cooled sites often reach "
        "1.15-1.25: enter the site's figure)",
        inputs={"given": pue},
        source=SRC_PUE,
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


def _explain_it_power(out: dict, ex: Explainer, *, nodes: int, node_kw: float) -> float:
    ex.put(
        out,
        SECTION,
        "node_kw",
        node_kw,
        unit="kW",
        formula="vendor maximum system power per node",
        source=SRC_POWER,
    )
    return ex.put(
        out,
        SECTION,
        "it_kw",
        nodes * node_kw,
        unit="kW",
        formula="nodes x node_kw (switches and storage excluded)",
        inputs={"nodes": nodes},
        source=SRC_POWER,
    )


def _explain_cooling(
    out: dict, ex: Explainer, racks: _RackLayout, *, rack_limit_kw: float | None
) -> None:
    """The platform's cooling and the rack power it allows, capped by the site."""
    ex.put(
        out,
        SECTION,
        "cooling",
        racks.cooling,
        unit="",
        formula="the platform's cooling: liquid for liquid-cooled platforms, else air",
        inputs={"platform_liquid": racks.cooling == "liquid"},
        source="servers.csv liquid_cooled",
    )
    ex.put(
        out,
        SECTION,
        "cooling_ceiling_kw",
        racks.ceiling_kw,
        unit="kW",
        formula="air: 50 kW per rack (containment); liquid: 132 kW (NVL72 power "
        "shelves)",
        inputs={"cooling": racks.cooling},
        source=SRC_AIR_CEILING if racks.cooling == "air" else SRC_POWER,
    )
    ex.put(
        out,
        SECTION,
        "rack_limit_kw",
        racks.limit_kw,
        unit="kW",
        formula="min(cooling ceiling, site rack limit)",
        inputs={"site_rack_limit_kw": rack_limit_kw},
        source="questionnaire rack power limit; " + SRC_AIR_CEILING,
    )


def _explain_racks(out: dict, ex: Explainer, racks: _RackLayout) -> None:
    ex.put(
        out,
        SECTION,
        "nodes_per_rack",
        racks.nodes_per_rack,
        unit="nodes",
        formula="floor(rack_limit_kw / node_kw), >= 1",
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
