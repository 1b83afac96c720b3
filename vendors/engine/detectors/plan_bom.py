"""What the network and storage of the plan's cluster cost at the plan's scale (issue
24): what ``gpu_only`` holds a bid's network and storage lines against, instead of a
fixed GPU share of the hardware cost.

One fact, one home: the counts are the TCO's bill of materials
(``tco.engine.bill_of_materials``: the right-sized fat tree of
``sizing.engine.fat_tree``, one compute NIC per rail port, the plan's usable storage at
its tier) and the prices are the TCO's sourced price book (``tco/data/price_book.csv``,
read by the caller and passed in - this module does no I/O). The TCO fills in exactly
this cost for a bid that omits the category; the detector flags a bid whose own lines
are far below it.

The bar is ``FLOOR_SHARE`` (half) of that cost: the price book holds typical prices
(an FS.com 64-port NDR switch at 36,000 USD where NVIDIA's own QM9700 lists near
50,000; links at optics prices where passive copper costs several times less), and a
design may fairly save on it (no spine where the RFP allows leaves only, copper inside
a rack), so a line at half of it can still be honest; below half, it cannot buy the
switches, links or file system the plan counts. The share itself is ClusterBuy's
margin, no published figure (det24's rule "half the floor cost", restated from the
price book).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from tco.engine.bill_of_materials import (
    ClusterScale,
    PriceBook,
    bill_of_materials,
    network_cost,
    storage_cost,
)

FLOOR_SHARE = Decimal("0.5")
FLOOR_STORAGE_TIER = "pfs-good"  # priced at the capacity tier (price book)
CURRENCY = "CNY"  # the detectors read line items in CNY (LineItemFacts.amount_cny)


@dataclass(frozen=True)
class PlanBom:
    network_cny: Decimal
    storage_cny: Decimal
    network_basis: str
    storage_basis: str

    def cost(self, category: str) -> Decimal:
        return self.network_cny if category == "network" else self.storage_cny

    def basis(self, category: str) -> str:
        return self.network_basis if category == "network" else self.storage_basis


def _cny(amount: float) -> Decimal:
    return Decimal(str(amount)).quantize(Decimal(1))


def plan_bom(scale: ClusterScale, book: PriceBook) -> PlanBom:
    """The plan's network and storage at ``scale`` (the plan's own GPU count and
    design), priced from ``book`` in CNY. A plan that names no storage tier is
    priced at the capacity tier: the bar is a floor, and the least the plan's TB
    can be bought at must not assume the dearer design (the TCO's fill-in, an
    estimate, prices an unknown tier at the performance tier)."""
    if scale.storage_tier is None:
        scale = replace(scale, storage_tier=FLOOR_STORAGE_TIER)
    bom = bill_of_materials(scale)
    network = network_cost(bom, scale, book, CURRENCY)
    storage = storage_cost(bom, book, CURRENCY)
    return PlanBom(
        network_cny=_cny(network.amount),
        storage_cny=_cny(storage.amount) if storage else Decimal(0),
        network_basis=network.basis,
        storage_basis=storage.basis if storage else "",
    )
