"""A vendor's bid as a TCO (tco.services re-exports it for the vendors app): the
bid's lines normalised by the engine with the price book and the plan's design at
the bid's scale; the power a bid is costed at (engine.bid_power)."""

from __future__ import annotations

from decimal import Decimal

from .engine.bid_power import BidPower, catalogue_power_kw, power_for_tco
from .engine.bill_of_materials import ClusterScale
from .engine.currency import convert_money
from .engine.normalise import BidLine, TcoNormalisation, normalise_tco
from .price_book import price_book

__all__ = [
    "BidLine",
    "BidPower",
    "ClusterScale",
    "TcoNormalisation",
    "catalogue_power_kw",
    "normalise_bid_tco",
    "power_for_tco",
]


def normalise_bid_tco(
    *,
    lines: list[BidLine],
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
    on_prem: bool,
    plan_gpu_price: Decimal | None = None,
    plan_gpu_price_currency: str | None = None,
    scale: ClusterScale | None = None,
) -> TcoNormalisation:
    """The bid's TCO over the horizon with what it omits filled in (engine.normalise).

    ``plan_gpu_price`` is the sizing plan's price per GPU in ``plan_gpu_price_currency``
    (default ``currency``), converted at the default fx_usd_cny like `prefill_inputs`
    (a pair with no conversion keeps the price as it is); it prices the GPU servers of
    a bid that has none. TcoInputError goes through when the bid's figures are not
    valid TCO inputs. ``scale`` is the plan's design at the bid's GPU count (its
    network, storage and installation are priced from it, engine.bill_of_materials).
    """
    gpu_price = plan_gpu_price
    if plan_gpu_price is not None:
        source = plan_gpu_price_currency or currency
        try:
            gpu_price = convert_money(
                plan_gpu_price, from_currency=source, to_currency=currency
            )
        except ValueError:
            gpu_price = plan_gpu_price
    return normalise_tco(
        lines,
        horizon_years=horizon_years,
        currency=currency,
        gpu_count=gpu_count,
        it_power_kw=it_power_kw,
        warranty_years=warranty_years,
        on_prem=on_prem,
        gpu_price=gpu_price,
        price_book=price_book(),
        scale=scale,
    )
