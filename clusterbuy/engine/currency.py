"""CNY <-> USD: the one conversion every part of ClusterBuy uses, and its one default
rate.

Prices arrive in either currency (the sizing catalogue is in USD, bids and scenarios
in the procurement's currency). The rate is an input (the TCO scenario's
``fx_usd_cny``, the sizing constraints' ``fx_cny_per_usd``, both CNY per USD); without
one, `DEFAULT_FX_CNY_PER_USD` is used.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, TypeVar

Amount = TypeVar("Amount", float, Decimal)

#: CNY per USD. The USD/CNY central parity traded around 7.1-7.3 through 2024-2025
#: (PBOC/CFETS central parity, 2024-2025 range, indicative, 2025-06).
DEFAULT_FX_CNY_PER_USD: float = 7.2
CURRENCIES = ("CNY", "USD")
_PAIRS = (("USD", "CNY"), ("CNY", "USD"))


class CurrencyError(ValueError):
    """A pair other than CNY and USD. ``field``, ``code`` and ``params`` have the shape
    of the engines' input errors, so an engine re-raises it as its own."""

    field = "currency"
    code = "cannot_convert"

    def __init__(self, from_currency: str, to_currency: str) -> None:
        self.message = f"cannot convert {from_currency} to {to_currency}"
        self.params: dict[str, Any] = {"from": from_currency, "to": to_currency}
        super().__init__(f"{self.field}: {self.message}")


def convert_money(
    amount: Amount,
    *,
    from_currency: str,
    to_currency: str,
    fx_usd_cny: Amount | None = None,
) -> Amount:
    """``amount`` in ``from_currency`` expressed in ``to_currency``.

    ``fx_usd_cny`` (CNY per USD) defaults to `DEFAULT_FX_CNY_PER_USD`, as a Decimal
    when ``amount`` is one (so Decimal money stays exact to the cent). Raises
    CurrencyError (a ValueError) for any other pair than CNY and USD.
    """
    if from_currency == to_currency:
        return amount
    if (from_currency, to_currency) not in _PAIRS:
        raise CurrencyError(from_currency, to_currency)
    if fx_usd_cny is None:
        fx_usd_cny = (
            Decimal(str(DEFAULT_FX_CNY_PER_USD))
            if isinstance(amount, Decimal)
            else DEFAULT_FX_CNY_PER_USD
        )
    if from_currency == "USD":
        return amount * fx_usd_cny
    return amount / fx_usd_cny
