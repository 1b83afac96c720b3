"""The one CNY <-> USD conversion and its one default rate (clusterbuy.engine.currency),
as the sizing constraints and the TCO scenario both use it."""

from decimal import Decimal

import pytest

from clusterbuy.engine.currency import (
    DEFAULT_FX_CNY_PER_USD,
    CurrencyError,
    convert_money,
)
from sizing.engine import Constraints, constraints_from_dict
from tco.engine import DEFAULTS, TcoInputError
from tco.engine import convert_money as tco_convert_money


def test_sizing_and_tco_default_to_the_same_rate():
    assert DEFAULT_FX_CNY_PER_USD == 7.2  # PBOC/CFETS central parity 2024-2025
    assert Constraints().fx_cny_per_usd == DEFAULT_FX_CNY_PER_USD
    assert constraints_from_dict({}).fx_cny_per_usd == DEFAULT_FX_CNY_PER_USD
    assert DEFAULTS["fx_usd_cny"].value == DEFAULT_FX_CNY_PER_USD


def test_a_cny_price_reaches_usd_at_the_given_rate():
    # 144,000 CNY / 7.2 = 20,000 USD; 20,000 USD x 7.2 = 144,000 CNY, exact in Decimal
    assert convert_money(144_000.0, from_currency="CNY", to_currency="USD") == 20_000.0
    assert convert_money(
        Decimal("20000"), from_currency="USD", to_currency="CNY"
    ) == Decimal("144000.0")


def test_another_currency_is_a_currency_error_and_a_tco_input_error_in_tco():
    with pytest.raises(CurrencyError) as err:
        convert_money(1.0, from_currency="EUR", to_currency="USD")
    assert (err.value.field, err.value.code) == ("currency", "cannot_convert")
    assert err.value.params == {"from": "EUR", "to": "USD"}
    with pytest.raises(TcoInputError) as tco_err:
        tco_convert_money(1.0, from_currency="EUR", to_currency="USD")
    assert tco_err.value.code == "cannot_convert"
