"""The TCO price book: tco/data/price_book.csv, one sourced price a row (switch ports,
fabric links, NICs, storage per TB by tier, installation per node, facility per W),
in CNY or USD. Read once per process and handed to the engine, which does no I/O."""

from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

from .engine.bill_of_materials import PriceBook, price_book_from_rows

PRICE_BOOK_PATH = Path(__file__).resolve().parent / "data" / "price_book.csv"


@lru_cache(maxsize=1)
def price_book() -> PriceBook:
    with PRICE_BOOK_PATH.open(encoding="utf-8", newline="") as handle:
        return price_book_from_rows(list(csv.DictReader(handle)))


CLOUD_PRICES_PATH = Path(__file__).resolve().parent / "data" / "cloud_prices.csv"
CLOUD_FIELDS = {
    "cloud_on_demand_per_gpu_hour": "on_demand_per_gpu_hour",
    "cloud_reserved_per_gpu_hour": "reserved_per_gpu_hour",
    "cloud_spot_per_gpu_hour": "spot_per_gpu_hour",
}


@lru_cache(maxsize=1)
def cloud_price_rows() -> tuple[dict[str, str], ...]:
    """tco/data/cloud_prices.csv: per accelerator and region, with a source each;
    spot below reserved below on-demand in every row (a test checks it)."""
    with CLOUD_PRICES_PATH.open(encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle))


def cloud_prices_for(
    *, accelerator: str, region: str, currency: str
) -> dict[str, float] | None:
    """The cloud price inputs of a scenario for ``accelerator`` bought in ``region``
    ("cn" | "global"), in ``currency``; None where no price is published or
    estimated (the engine's defaults, an H100 rate, then apply and say so)."""
    from .engine.currency import convert_money

    for row in cloud_price_rows():
        if row["accelerator"] == accelerator and row["region"] == region:
            return {
                name: round(
                    float(
                        convert_money(
                            float(row[column]),
                            from_currency=row["currency"],
                            to_currency=currency,
                        )
                    ),
                    4,
                )
                for name, column in CLOUD_FIELDS.items()
            }
    return None
