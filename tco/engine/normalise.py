"""A vendor's bid as a TCO: map its priced lines to TCO inputs, fill in what a complete
purchase needs but the bid omits, and run the TCO engine.

`normalized_tco` is the engine's nominal total cost over the procurement's horizon
(residual value subtracted). Every bid gets the same horizon, currency and operating
defaults (energy price, staff, failure rate), so the totals of different bids compare.
The categories ClusterBuy adds are listed in `hidden_costs` as codes, amounts and the
arithmetic behind them; the sentences citing each rule's source are translated texts
and live with the caller (docs/methodology.md, Part C.3).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from typing import Any

from .bill_of_materials import (
    BillOfMaterials,
    ClusterScale,
    PriceBook,
    bill_of_materials,
    facility_cost,
    installation_cost,
    network_cost,
    storage_cost,
)
from .breakdown import CostItem, breakdown_total, money, operating_items
from .cashflow import TcoResult, compute
from .inputs import DEFAULTS, IT_POWER_KW_PER_GPU, TcoInputs, inputs_from_dict

# One-off line category -> TCO capex category.
ONE_OFF_CAPEX = {
    "gpu_servers": "gpu_servers",
    "network": "network",
    "storage": "storage",
    "power_cooling": "facility",
    "installation": "installation",
    "software": "software_once",
    "support": "other",  # prepaid support
    "training": "other",
    "other": "other",
}

# What ClusterBuy adds when a bid omits a category a complete purchase needs: the
# plan's own bill of materials at the bid's scale, priced from the sourced price book
# (bill_of_materials.py, tco/data/price_book.csv); support and failures from the TCO
# engine's DEFAULTS, after what the warranty and the bid's support cover.

#: The categories that can be filled in, in the order they are added.
FILL_IN_CATEGORIES = (
    "gpu_servers",
    "network",
    "storage",
    "power_cooling",
    "installation",
    "support",
)
#: Categories a line's scope may say it covers (a 服务包 "incl. network, storage and
#: installation"; "installation included in the node price").
SCOPE_CATEGORIES = frozenset(ONE_OFF_CAPEX) - {"other"}


@dataclass(frozen=True)
class BidLine:
    category: str  # a bid line category (gpu_servers, network, ..., other)
    amount: Decimal  # qty x unit price (per year when recurring)
    recurring: bool
    #: Other categories this line's price covers (a lump sum with a declared scope).
    scope: tuple[str, ...] = ()
    #: The contract years the line covers (1 = the first year), inclusive; None:
    #: from year 1 / to the end of the horizon.
    year_from: int | None = None
    year_to: int | None = None

    @property
    def has_term(self) -> bool:
        return self.year_from is not None or self.year_to is not None

    def years(self, horizon_years: int) -> range:
        """The horizon years (1-based) the line covers."""
        start = max(1, self.year_from or 1)
        end = min(horizon_years, self.year_to or horizon_years)
        return range(start, end + 1)

    def term_text(self, horizon_years: int) -> str:
        years = self.years(horizon_years)
        if not years:
            return "outside the horizon"
        return f"years {years.start}-{years.stop - 1}"


@dataclass
class TcoNormalisation:
    normalized_tco: Decimal  # the sum of ``breakdown``, to the cent
    hidden_costs: list[dict]  # [{category, amount, basis}] in FILL_IN_CATEGORIES order
    tco: dict  # TcoResult.to_dict()
    #: Every item of the normalised TCO (breakdown.CostItem), summing to it exactly.
    breakdown: list[CostItem] = field(default_factory=list)
    #: The TCO engine's inputs the bid was mapped to: a scenario with exactly this
    #: TCO (``tco.sources``: a scenario started from the bid).
    inputs: dict[str, Any] = field(default_factory=dict)
    #: The bill of materials the hidden costs were counted from.
    bill_of_materials: dict[str, Any] = field(default_factory=dict)
    #: The years from year 1 that the warranty and the bid's support cover: no
    #: support is added and no failure is charged in them.
    covered_years: float = 0.0
    #: How the power was chosen (bid_power.BidPower), set by the caller.
    power: Any = None


@dataclass(frozen=True)
class _CapexPiece:
    """One capex line of the normalised bid and where it comes from (a breakdown
    item): a quoted one-off category, a quoted recurring fee over the years it covers,
    or a category ClusterBuy added."""

    capex_category: str
    amount: float
    code: str  # quoted_one_off | quoted_recurring | added
    category: str  # the bid line category (or fill-in category)
    basis: str


@dataclass
class _BidCosts:
    """The bid's own prices as TCO capex pieces, its yearly software fees, the years
    its support lines cover, and what ClusterBuy filled in (in the order added)."""

    pieces: list[_CapexPiece] = field(default_factory=list)
    software_per_year: float = 0.0
    support_years: set[int] = field(default_factory=set)
    hidden: list[dict] = field(default_factory=list)

    def total(self, capex_category: str) -> float:
        return sum(
            (p.amount for p in self.pieces if p.capex_category == capex_category), 0.0
        )

    def quoted(self, category: str) -> float:
        return sum(
            (
                p.amount
                for p in self.pieces
                if p.category == category and p.code != "added"
            ),
            0.0,
        )

    @property
    def hardware(self) -> float:
        return self.total("gpu_servers") + self.total("network") + self.total("storage")

    def fill_in(
        self, category: str, capex_category: str, amount: float, basis: str
    ) -> None:
        # Under half a cent is nothing to add: the breakdown shows cents, and a 0.00
        # hidden cost would be listed without an item of its own.
        if money(amount) > 0:
            self.pieces.append(
                _CapexPiece(capex_category, amount, "added", category, basis)
            )
            self.hidden.append(
                {"category": category, "amount": money(amount), "basis": basis}
            )


def _covers_support(line: BidLine) -> bool:
    return line.category == "support" or "support" in line.scope


def _recurring_piece(line: BidLine, horizon_years: int) -> _CapexPiece:
    """A yearly fee over the years it covers (its term, else the whole horizon)."""
    amount = float(line.amount)
    years = len(line.years(horizon_years))
    basis = f"{amount:,.2f}/y x {years} y"
    if line.has_term:
        basis += f" ({line.term_text(horizon_years)})"
    return _CapexPiece(
        "other", amount * years, "quoted_recurring", line.category, basis
    )


def _bid_costs(lines: list[BidLine], horizon_years: int) -> _BidCosts:
    """One capex piece per quoted one-off category, one per yearly fee (software
    without a term is the engine's yearly software cost), and the support years."""
    costs = _BidCosts()
    one_off: defaultdict[str, float] = defaultdict(float)
    counts: defaultdict[str, int] = defaultdict(int)
    for line in lines:
        if _covers_support(line):
            costs.support_years.update(line.years(horizon_years))
        if not line.recurring:
            one_off[line.category] += float(line.amount)
            counts[line.category] += 1
        elif line.category == "software" and not line.has_term:
            costs.software_per_year += float(line.amount)
        else:
            costs.pieces.append(_recurring_piece(line, horizon_years))
    for category, amount in one_off.items():
        costs.pieces.insert(
            len([p for p in costs.pieces if p.code == "quoted_one_off"]),
            _CapexPiece(
                ONE_OFF_CAPEX[category],
                amount,
                "quoted_one_off",
                category,
                f"{counts[category]} line(s)",
            ),
        )
    return costs


def covered_years(
    warranty_years: float, support_years: set[int], horizon_years: int
) -> float:
    """Years from year 1 without a gap that the warranty or the bid's support cover."""
    covered = max(0.0, warranty_years)
    for year in range(1, horizon_years + 1):
        if year in support_years and year - 1 <= covered:
            covered = max(covered, float(year))
    return min(float(horizon_years), covered)


@dataclass(frozen=True)
class _Basis:
    """What the filled-in categories are counted and priced from."""

    scale: ClusterScale
    book: PriceBook
    power_kw: float
    currency: str
    horizon_years: int
    on_prem: bool


def _fill_in_capex(
    costs: _BidCosts,
    covered: set[str],
    scoped: set[str],
    basis: _Basis,
    gpu_price: Decimal | None,
) -> BillOfMaterials:
    """Add the one-off categories the bid omits, from the plan's bill of materials."""
    bom = bill_of_materials(basis.scale)
    gpu_count = basis.scale.gpu_count
    if "gpu_servers" not in covered and gpu_price:
        amount = float(gpu_price) * gpu_count
        costs.fill_in(
            "gpu_servers", "gpu_servers", amount, f"{gpu_price:,.0f} x {gpu_count}"
        )
    currency = basis.currency
    if "network" not in covered:
        item = network_cost(bom, basis.scale, basis.book, currency)
        costs.fill_in("network", "network", item.amount, item.basis)
    storage = storage_cost(bom, basis.book, currency)
    if "storage" not in covered and storage is not None:
        costs.fill_in("storage", "storage", storage.amount, storage.basis)
    # One facility for every on-prem bid: a quoted power and cooling line counts
    # towards it; only a lump sum whose scope names it covers it whole.
    if "power_cooling" not in scoped and basis.on_prem:
        item = facility_cost(
            power_kw=basis.power_kw,
            book=basis.book,
            currency=currency,
            horizon_years=basis.horizon_years,
        )
        quoted = costs.quoted("power_cooling")
        text = item.basis + (f" - {quoted:,.2f} quoted" if quoted else "")
        costs.fill_in("power_cooling", "facility", item.amount - quoted, text)
    if "installation" not in covered:
        item = installation_cost(bom, basis.book, currency)
        costs.fill_in("installation", "installation", item.amount, item.basis)
    return bom


def _engine_inputs(
    costs: _BidCosts,
    *,
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float,
    covered: float,
) -> dict[str, Any]:
    """The TCO engine's input dict for the bid. The bid's support is in its capex
    pieces (the years each line covers); the engine adds its default support, and
    charges failures, only after the years the warranty and that support cover."""
    data: dict[str, Any] = {
        "horizon_years": horizon_years,
        "currency": currency,
        "gpu_count": max(1, gpu_count),
        "software_per_year": costs.software_per_year,
        "it_power_kw": it_power_kw,
        "warranty_years": covered,
        # The engine charges failures every year; a bid's warranty and support
        # replace failed parts, so only the uncovered years carry them: the default
        # rate x (horizon - covered) / horizon gives that nominal total.
        "annual_failure_rate": failure_rate(covered, horizon_years),
    }
    data["capex"] = [
        {
            "category": piece.capex_category,
            "description": f"{piece.code}:{piece.category}",
            "amount": piece.amount,
        }
        for piece in costs.pieces
        if piece.amount > 0
    ]
    return data


def failure_rate(covered: float, horizon_years: int) -> float:
    """The engine's failure rate spread over the horizon so that failures are
    charged for the uncovered years only (0 inside a 5-year warranty)."""
    uncovered = max(0.0, horizon_years - covered)
    return float(DEFAULTS["annual_failure_rate"].value) * uncovered / horizon_years


def _support_basis(costs: _BidCosts, covered: float, horizon_years: int) -> str:
    years_paid = max(0.0, horizon_years - covered)
    return (
        f"{costs.hardware:,.0f} x {DEFAULTS['support_rate'].value:.0%} x {years_paid:g}"
    )


def _breakdown(
    costs: _BidCosts, inputs: TcoInputs, result: TcoResult
) -> list[CostItem]:
    """The bid's items: its capex pieces, then the engine's operating costs and the
    residual; the engine's support is ClusterBuy's, its software the bid's."""
    items = [
        CostItem(
            piece.code,
            piece.category,
            money(piece.amount),
            "clusterbuy" if piece.code == "added" else "bid",
            piece.basis,
        )
        for piece in costs.pieces
        if piece.amount > 0 and money(piece.amount) != 0
    ]
    horizon = inputs.horizon_years
    for item in operating_items(inputs, result):
        if item.code == "support":
            hidden = next(h for h in costs.hidden if h["category"] == "support")
            item = replace(
                item, code="added", source="clusterbuy", basis=hidden["basis"]
            )
        elif item.code == "software":
            basis = f"{costs.software_per_year:,.2f}/y x {horizon} y"
            item = replace(item, code="quoted_recurring", source="bid", basis=basis)
        else:
            item = replace(item, source="default")
        items.append(item)
    return items


def scoped_categories(lines: list[BidLine]) -> set[str]:
    """The categories a line's declared scope names (not its own category)."""
    return {c for line in lines for c in line.scope if c in SCOPE_CATEGORIES}


def covered_categories(lines: list[BidLine]) -> set[str]:
    """The categories the bid prices: its lines' own and those their scope names
    (a 服务包 incl. network, storage, installation; installation in the node price)."""
    covered = {line.category for line in lines}
    for line in lines:
        covered.update(c for c in line.scope if c in SCOPE_CATEGORIES)
    return covered


def normalise_tco(
    lines: list[BidLine],
    *,
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
    on_prem: bool,
    price_book: PriceBook,
    scale: ClusterScale | None = None,
    gpu_price: Decimal | None = None,
) -> TcoNormalisation:
    """Map a bid to TCO inputs, fill what it omits, and run the TCO engine.

    ``it_power_kw`` is the power the bid is costed at (`bid_power.power_for_tco`:
    the catalogue's for the offered server); None: the GPU count x 10.2/8 kW.
    ``scale`` is the plan's design at the bid's GPU count (None: 8 GPUs and 8 x 400G
    NICs a node, 64-port switches, no storage need known). ``gpu_price`` (per GPU, in
    ``currency``) prices GPU servers for a bid that has none. Raises TcoInputError
    when the bid's figures are not valid TCO inputs. The normalised TCO is the sum
    of the breakdown's items (each to the cent).
    """
    costs = _bid_costs(lines, horizon_years)
    power_kw = it_power_kw or max(1, gpu_count) * IT_POWER_KW_PER_GPU
    basis = _Basis(
        scale or ClusterScale(gpu_count=gpu_count),
        price_book,
        power_kw,
        currency,
        horizon_years,
        on_prem,
    )
    bom = _fill_in_capex(
        costs, covered_categories(lines), scoped_categories(lines), basis, gpu_price
    )
    warranty = (
        float(warranty_years)
        if warranty_years is not None
        else float(DEFAULTS["warranty_years"].value)
    )
    covered = covered_years(warranty, costs.support_years, horizon_years)
    data = _engine_inputs(
        costs,
        horizon_years=horizon_years,
        currency=currency,
        gpu_count=gpu_count,
        it_power_kw=power_kw,
        covered=covered,
    )
    inputs = inputs_from_dict(data)
    result = compute(inputs)
    support_total = result.totals_by_category["support"]
    if money(support_total) != 0:
        costs.hidden.append(
            {
                "category": "support",
                "amount": money(support_total),
                "basis": _support_basis(costs, covered, horizon_years),
            }
        )
    items = _breakdown(costs, inputs, result)
    return TcoNormalisation(
        breakdown_total(items),
        costs.hidden,
        result.to_dict(),
        items,
        data,
        asdict(bom),
        covered,
    )
