"""Power and cooling: node and IT kW, racks, air vs liquid, facility kW, energy, feeds.

Server power is the vendor's maximum, not GPUs x TDP (DGX H100 10.2 kW vs 8 x 700 W).
"""

from __future__ import annotations

import math

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
    out: dict = {}
    s = "power"
    ex.put(
        out,
        s,
        "node_kw",
        node_kw,
        "kW",
        "vendor maximum system power per node",
        {},
        SRC_POWER,
    )
    it_kw = nodes * node_kw
    ex.put(
        out,
        s,
        "it_kw",
        it_kw,
        "kW",
        "nodes x node_kw (switches and storage excluded)",
        {"nodes": nodes},
        SRC_POWER,
    )
    cooling_cap = (
        LIQUID_MAX_RACK_KW if (liquid_ok or platform_liquid) else AIR_MAX_RACK_KW
    )
    rack_cap = min(cooling_cap, rack_limit_kw) if rack_limit_kw else cooling_cap
    per_rack = max(1, math.floor(rack_cap / node_kw)) if node_kw <= rack_cap else 1
    racks = math.ceil(nodes / per_rack) if nodes else 0
    rack_kw = per_rack * node_kw if nodes >= per_rack else nodes * node_kw
    ex.put(
        out,
        s,
        "nodes_per_rack",
        per_rack,
        "nodes",
        "floor(rack limit / node_kw), >= 1",
        {"rack_limit_kw": rack_cap},
        SRC_POWER,
    )
    ex.put(
        out, s, "racks", racks, "racks", "ceil(nodes / nodes_per_rack)", {}, SRC_POWER
    )
    ex.put(out, s, "rack_kw", rack_kw, "kW", "nodes_per_rack x node_kw", {}, SRC_POWER)
    cooling = "liquid" if (rack_kw > AIR_MAX_RACK_KW or platform_liquid) else "air"
    ex.put(
        out,
        s,
        "cooling",
        cooling,
        "",
        f"liquid when a rack exceeds {AIR_MAX_RACK_KW:g} kW (air ceiling) or the platform "
        "is liquid-cooled",
        {"rack_kw": rack_kw},
        "hardware-facts.md section 4",
    )
    pue_used = pue or (PUE_LIQUID if cooling == "liquid" else PUE_AIR)
    ex.put(
        out,
        s,
        "pue",
        pue_used,
        "ratio",
        "buyer's PUE, else 1.2 liquid / 1.4 air",
        {},
        SRC_POWER,
    )
    facility = it_kw * pue_used
    ex.put(
        out,
        s,
        "facility_kw",
        facility,
        "kW",
        "it_kw x PUE",
        {"pue": pue_used},
        SRC_POWER,
    )
    mwh = facility * AVERAGE_LOAD_SHARE * 8760.0 / 1000.0
    ex.put(
        out,
        s,
        "annual_mwh",
        mwh,
        "MWh",
        "facility_kw x 0.75 average load x 8760 h / 1000",
        {},
        "Epoch server_TDP_fraction 0.75 (cost-figures.md)",
    )
    feeds = 2 * math.ceil(rack_kw / FEED_KW) if rack_kw else 0
    ex.put(
        out,
        s,
        "feeds_per_rack",
        feeds,
        "feeds",
        "2N (A+B sides) x ceil(rack_kw / 22 kW per 3-phase 32 A feed)",
        {"rack_kw": rack_kw},
        "hardware-facts.md section 5 (PSU redundancy 4+2 / 5+1 per server)",
    )
    ex.put(
        out,
        s,
        "redundant_feeds",
        True,
        "bool",
        "A and B feeds per rack",
        {},
        "hardware-facts.md section 5",
    )
    tflops_per_kw = gpus * peak_tflops / it_kw if it_kw else 0.0
    ex.put(
        out,
        s,
        "tflops_per_kw",
        tflops_per_kw,
        "TFLOPS/kW",
        "GPUs x dense peak of the precision / it_kw (system level)",
        {},
        SRC_POWER,
    )
    return out
