"""CNY <-> USD in the TCO engine: `clusterbuy.engine.currency` (the one conversion and
its default rate, which sizing uses too), its error re-raised as the TCO engine's own
``TcoInputError("currency")`` so the TCO's forms and API name the field."""

from __future__ import annotations

from clusterbuy.engine.currency import Amount, CurrencyError
from clusterbuy.engine.currency import convert_money as _convert_money

from .errors import TcoInputError


def convert_money(
    amount: Amount,
    *,
    from_currency: str,
    to_currency: str,
    fx_usd_cny: Amount | None = None,
) -> Amount:
    """`clusterbuy.engine.currency.convert_money`; TcoInputError("currency") (a
    ValueError) for any other pair than CNY and USD."""
    try:
        return _convert_money(
            amount,
            from_currency=from_currency,
            to_currency=to_currency,
            fx_usd_cny=fx_usd_cny,
        )
    except CurrencyError as exc:
        raise TcoInputError(
            exc.field, exc.message, code=exc.code, params=exc.params
        ) from None
