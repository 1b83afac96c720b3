"""CNY <-> USD: the one conversion every part of ClusterBuy uses.

Prices arrive in either currency (the sizing catalogue is in USD, bids and scenarios
in the procurement's currency). The rate is a scenario input (``fx_usd_cny``, CNY per
USD); without one, the documented default of the input table is used.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypeVar

from .errors import TcoInputError
from .input_table import INPUT_TABLE

Amount = TypeVar("Amount", float, Decimal)

#: The default rate (CNY per USD) of the input table.
DEFAULT_FX_USD_CNY: float = next(
    spec.default for spec in INPUT_TABLE if spec.name == "fx_usd_cny"
)
_PAIRS = (("USD", "CNY"), ("CNY", "USD"))


def convert_money(
    amount: Amount,
    *,
    from_currency: str,
    to_currency: str,
    fx_usd_cny: Amount | None = None,
) -> Amount:
    """``amount`` in ``from_currency`` expressed in ``to_currency``.

    ``fx_usd_cny`` defaults to the table's rate, as a Decimal when ``amount`` is one
    (so Decimal money stays exact to the cent). Raises TcoInputError("currency")
    (a ValueError) for any other pair than CNY and USD.
    """
    if from_currency == to_currency:
        return amount
    if (from_currency, to_currency) not in _PAIRS:
        raise TcoInputError(
            "currency",
            f"cannot convert {from_currency} to {to_currency}",
            code="cannot_convert",
            params={"from": from_currency, "to": to_currency},
        )
    if fx_usd_cny is None:
        fx_usd_cny = (
            Decimal(str(DEFAULT_FX_USD_CNY))
            if isinstance(amount, Decimal)
            else DEFAULT_FX_USD_CNY
        )
    if from_currency == "USD":
        return amount * fx_usd_cny
    return amount / fx_usd_cny
