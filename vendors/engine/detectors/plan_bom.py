"""The network and storage a plan's cluster needs at its scale, priced at the floor
(issue 24): what ``gpu_only`` holds a bid's network and storage lines against, instead
of a fixed GPU share of the hardware cost.

Counts from the plan (``PlanNeeds``): one scale-out port per GPU when the plan asks
for 200 Gb/s or more per GPU (rail-optimised, one NIC per GPU; hardware-facts.md
section 6, item 8); 64-port leaf switches for those ports, no spine at this scale; one
cable per port; the plan's usable storage in TB. NICs are left out: HGX servers are
often quoted with their eight NICs inside the server price.

Floor unit prices (CNY, excluding VAT, the low end of what was quoted in 2024-25 - a
floor, not a price book; secondary sources, reseller list prices):

* a 64-port 400G NDR InfiniBand switch (NVIDIA QM9700 class), US$ 25,000-35,000 ->
  ``SWITCH_FLOOR_CNY`` = 150,000;
* one 400G link, a passive copper DAC at the cheapest (transceivers and fibre cost
  several times more), US$ 300-500 -> ``LINK_FLOOR_CNY`` = 2,000;
* usable parallel-file-system capacity, HDD-based with a flash tier at the cheapest,
  ``STORAGE_FLOOR_CNY_PER_TB`` = 500.

A bid's lines below ``FLOOR_SHARE`` (half) of this floor cannot buy the fabric or the
file system the plan needs, whatever the cluster's size: 12 nodes need one or two
switches, and one switch with its cables clears the bar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from vendors.engine.compliance import PlanNeeds

SWITCH_PORTS = 64
SWITCH_FLOOR_CNY = Decimal(150_000)
LINK_FLOOR_CNY = Decimal(2_000)
STORAGE_FLOOR_CNY_PER_TB = Decimal(500)
FLOOR_SHARE = Decimal("0.5")
SCALE_OUT_MIN_GBPS = 200


@dataclass(frozen=True)
class PlanBom:
    fabric_ports: int
    switches: int
    storage_tb: float

    @property
    def network_floor_cny(self) -> Decimal:
        return self.switches * SWITCH_FLOOR_CNY + self.fabric_ports * LINK_FLOOR_CNY

    @property
    def storage_floor_cny(self) -> Decimal:
        return (Decimal(str(self.storage_tb)) * STORAGE_FLOOR_CNY_PER_TB).quantize(
            Decimal(1)
        )

    def basis(self, category: str) -> str:
        if category == "network":
            return (
                f"{self.switches} x {SWITCH_PORTS}-port switch + "
                f"{self.fabric_ports} links"
            )
        return f"{self.storage_tb:g} TB usable"


def plan_bom(needs: PlanNeeds) -> PlanBom:
    ports = needs.gpu_count if needs.network_gbps_per_gpu >= SCALE_OUT_MIN_GBPS else 0
    return PlanBom(
        fabric_ports=ports,
        switches=math.ceil(ports / SWITCH_PORTS) if ports else 0,
        storage_tb=max(needs.storage_tb, 0.0),
    )
