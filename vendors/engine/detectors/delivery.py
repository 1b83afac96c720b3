"""The physical floor under a delivery promise: the fewest days in which a cluster of a
given size can be supplied, installed, burned in and accepted (issue 24).

A floor, not an estimate: every step is taken at its best case, so a bid below it
promises something no vendor can do, whatever penalty it attaches. Above it, a
shorter delivery is better (the comparison marks it so).

The model (days, best case):

* supply, ``SUPPLY_DAYS`` = 14: servers from a distributor's stock: order
  confirmation, the factory's configuration and test of each server, transport and,
  for imported systems, customs. Quoted lead times for HGX H100/H200 servers were
  months in 2024-25 ("plan procurement 3-6 months ahead", H1Cloud, GPU cluster
  deployment best practices, 2026; "procurement timelines stretched to months",
  CUDO Compute, AI hardware installation, 2025 - secondary sources); two weeks is
  what stock on hand still takes.
* installation, ``INSTALL_BASE_DAYS`` = 2 plus ``INSTALL_DAYS_PER_NODE`` = 0.25: site
  checks and rack positions, then mounting, power and fabric cabling of each 8-GPU
  server (about four servers a day for one crew; GPU rack assembly "is a multi-day
  process per rack", Leviathan Systems, GPU rack assembly process - a secondary
  source) and the fabric's link test.
* software bring-up, ``BRING_UP_DAYS`` = 2: OS, drivers, fabric manager, scheduler
  and file-system mounts on every node.
* burn-in, the RFP's 72 h (``burn_in_hours``): full-load stress of every GPU, HBM and
  link at once.
* acceptance, ``ACCEPTANCE_DAYS`` = 2: the acceptance benchmarks (NCCL all-reduce,
  HPL, storage IOR) and the signed record.

Installation grows with the node count; the rest does not (crews work in parallel).
12 x 8-GPU nodes: 14 + 2 + 3 + 2 + 3 + 2 = 26 days, 3.7 weeks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SUPPLY_DAYS = 14.0
INSTALL_BASE_DAYS = 2.0
INSTALL_DAYS_PER_NODE = 0.25
BRING_UP_DAYS = 2.0
BURN_IN_HOURS = 72.0
ACCEPTANCE_DAYS = 2.0
GPUS_PER_NODE = 8


@dataclass(frozen=True)
class DeliveryFloor:
    """The floor, step by step (days)."""

    supply_days: float
    installation_days: float
    bring_up_days: float
    burn_in_days: float
    acceptance_days: float
    nodes: int

    @property
    def arrival_days(self) -> float:
        """Servers on site: the floor under a promise of arrival (到货) only."""
        return self.supply_days

    @property
    def total_days(self) -> float:
        """Supplied, installed, burned in and accepted."""
        return (
            self.supply_days
            + self.installation_days
            + self.bring_up_days
            + self.burn_in_days
            + self.acceptance_days
        )

    @property
    def total_weeks(self) -> float:
        return self.total_days / 7


def delivery_floor(
    gpu_count: int,
    *,
    nodes: int | None = None,
    burn_in_hours: float = BURN_IN_HOURS,
) -> DeliveryFloor:
    """The floor for ``gpu_count`` GPUs in ``nodes`` servers (8 GPUs a server when
    the node count is not stated)."""
    if nodes is None or nodes <= 0:
        nodes = max(1, math.ceil(max(gpu_count, 1) / GPUS_PER_NODE))
    return DeliveryFloor(
        supply_days=SUPPLY_DAYS,
        installation_days=INSTALL_BASE_DAYS + INSTALL_DAYS_PER_NODE * nodes,
        bring_up_days=BRING_UP_DAYS,
        burn_in_days=burn_in_hours / 24,
        acceptance_days=ACCEPTANCE_DAYS,
        nodes=nodes,
    )


def below_floor(delivery_weeks: float | None, floor: DeliveryFloor) -> bool:
    """Whether a bid's delivery field (weeks; vendors fill it with the servers'
    arrival, 交货期) is under the arrival floor."""
    return delivery_weeks is not None and 0 < delivery_weeks * 7 < floor.arrival_days
