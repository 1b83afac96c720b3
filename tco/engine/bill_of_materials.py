"""The plan's own bill of materials at a bid's scale, priced from the price book.

A bid that omits its network, storage or installation gets them filled in from what
the sizing plan says the cluster needs, counted for the bid's GPU count and server:
switches and links of the right-sized fat tree (``sizing.engine.fat_tree``, NVIDIA
RA-11333-001 Table 4), one compute NIC per rail port, the plan's storage capacity at
its tier's price per TB, installation per node. Never a fixed share of GPU capex
(issue 24: 19/81 of GPU capex was 2.5x the median network bid for 12 nodes; 5 % was
0.45x what the plan's 1.1 PB costs).

The price book (``tco/data/price_book.csv``, one sourced row per item) is read by the
caller and passed in: this module does no I/O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sizing.engine.fat_tree import fat_tree

from .currency import convert_money

#: The price-book rows the bill of materials reads.
PRICE_KEYS = (
    "switch_port_400g",
    "link_cable_optics",
    "nic_compute",
    "storage_capacity_tb",
    "storage_performance_tb",
    "installation_per_node",
    "facility_per_w",
)
#: Storage tiers of the sizing catalogue (sizing/data/storage.csv) and the price-book
#: row each is priced at; the local NVMe cache sits in the GPU servers.
STORAGE_TIER_PRICE = {
    "pfs-good": "storage_capacity_tb",
    "pfs-better": "storage_performance_tb",
    "pfs-best": "storage_performance_tb",
}
DEFAULT_SWITCH_RADIX = 64  # NVIDIA Quantum-2 QM9700 / Spectrum-4 SN5400 at 400 Gb/s
DEFAULT_NIC_GBPS = 400.0
FACILITY_LIFE_YEARS = 12  # reallm Constants.py: facility amortised over 12 years


class PriceBookError(ValueError):
    """A price-book row is missing or malformed."""


@dataclass(frozen=True)
class PriceRow:
    key: str
    item: str
    unit: str
    price: float
    currency: str  # CNY | USD
    date: str
    source: str


@dataclass(frozen=True)
class PriceBook:
    rows: tuple[PriceRow, ...]

    def row(self, key: str) -> PriceRow:
        for row in self.rows:
            if row.key == key:
                return row
        raise PriceBookError(f"price book has no row {key!r}")

    def price(self, key: str, currency: str) -> float:
        """The row's price in ``currency`` (at the default CNY/USD rate)."""
        row = self.row(key)
        return float(
            convert_money(row.price, from_currency=row.currency, to_currency=currency)
        )


def price_book_from_rows(rows: list[dict[str, str]]) -> PriceBook:
    """A PriceBook from CSV rows; every row needs a price, a currency and a source."""
    parsed = []
    for raw in rows:
        try:
            price = float(raw["price"])
        except (KeyError, TypeError, ValueError):
            raise PriceBookError(
                f"row {raw.get('key')!r}: price is no number"
            ) from None
        if not math.isfinite(price) or price < 0:
            raise PriceBookError(f"row {raw['key']!r}: price must be >= 0")
        if raw.get("currency") not in ("CNY", "USD"):
            raise PriceBookError(f"row {raw['key']!r}: currency must be CNY or USD")
        if not (raw.get("source") or "").strip():
            raise PriceBookError(f"row {raw['key']!r}: source is required")
        parsed.append(
            PriceRow(
                raw["key"],
                raw.get("item", ""),
                raw.get("unit", ""),
                price,
                raw["currency"],
                raw.get("date", ""),
                raw["source"],
            )
        )
    book = PriceBook(tuple(parsed))
    for key in PRICE_KEYS:
        book.row(key)
    return book


@dataclass(frozen=True)
class ClusterScale:
    """What the bill of materials is counted from: the bid's GPUs in the offered
    server, and the plan's fabric and storage (``None``: the plan does not say)."""

    gpu_count: int
    gpus_per_node: int = 8
    nics_per_node: int | None = None  # None: one per GPU
    nic_gbps: float = DEFAULT_NIC_GBPS
    switch_radix: int = DEFAULT_SWITCH_RADIX
    rail_optimized: bool = True
    storage_tb: float | None = None
    storage_tier: str | None = None  # a sizing storage tier key (pfs-good, ...)


@dataclass(frozen=True)
class BillOfMaterials:
    nodes: int
    nics: int
    switches: int
    switch_ports: int
    links: int
    storage_tb: float | None
    storage_tier: str | None


def bill_of_materials(scale: ClusterScale) -> BillOfMaterials:
    """Counts of the plan's design at the bid's scale. One node needs no fabric."""
    per_node = max(1, scale.gpus_per_node)
    nodes = math.ceil(max(0, scale.gpu_count) / per_node)
    nics_per_node = scale.nics_per_node if scale.nics_per_node is not None else per_node
    tree = (
        fat_tree(nodes, nics_per_node, scale.switch_radix, scale.rail_optimized)
        if nodes > 1 and nics_per_node > 0 and scale.switch_radix > 0
        else None
    )
    switches = tree.switches if tree else 0
    return BillOfMaterials(
        nodes=nodes,
        nics=nodes * nics_per_node if nodes > 1 else 0,
        switches=switches,
        switch_ports=switches * scale.switch_radix,
        links=tree.cables if tree else 0,
        storage_tb=scale.storage_tb,
        storage_tier=scale.storage_tier,
    )


@dataclass(frozen=True)
class PricedItem:
    amount: float
    basis: str


def _figure(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.2f}"


def network_cost(
    bom: BillOfMaterials, scale: ClusterScale, book: PriceBook, currency: str
) -> PricedItem:
    """Switches (priced per port at their speed), links (cable and optics), NICs."""
    port = book.price("switch_port_400g", currency) * scale.nic_gbps / 400.0
    link = book.price("link_cable_optics", currency)
    nic = book.price("nic_compute", currency)
    amount = bom.switch_ports * port + bom.links * link + bom.nics * nic
    basis = (
        f"{bom.nodes} nodes: {bom.switches} switches x {scale.switch_radix} ports x "
        f"{_figure(port)} + {bom.links} links x {_figure(link)} + {bom.nics} NICs x "
        f"{_figure(nic)}"
    )
    return PricedItem(amount, basis)


def storage_cost(
    bom: BillOfMaterials, book: PriceBook, currency: str
) -> PricedItem | None:
    """The plan's capacity at its tier's price; None when the plan gives no need."""
    if not bom.storage_tb:
        return None
    key = STORAGE_TIER_PRICE.get(bom.storage_tier or "", "storage_performance_tb")
    per_tb = book.price(key, currency)
    basis = f"{_figure(bom.storage_tb)} TB ({bom.storage_tier or 'plan'}) x {_figure(per_tb)}/TB"
    return PricedItem(bom.storage_tb * per_tb, basis)


def installation_cost(
    bom: BillOfMaterials, book: PriceBook, currency: str
) -> PricedItem:
    per_node = book.price("installation_per_node", currency)
    return PricedItem(
        bom.nodes * per_node, f"{bom.nodes} nodes x {_figure(per_node)}/node"
    )


def facility_cost(
    *, power_kw: float, book: PriceBook, currency: str, horizon_years: int
) -> PricedItem:
    """Facility capex for the horizon's share of its 12-year life."""
    per_w = book.price("facility_per_w", currency)
    years = min(horizon_years, FACILITY_LIFE_YEARS)
    amount = power_kw * 1000 * per_w * years / FACILITY_LIFE_YEARS
    basis = f"{power_kw:,.1f} kW x {_figure(per_w)}/W x {years}/{FACILITY_LIFE_YEARS}"
    return PricedItem(amount, basis)
