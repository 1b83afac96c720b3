from decimal import Decimal

import pytest

from tco.engine import TcoInputError, convert_money


def test_usd_to_cny_and_back_at_the_given_rate():
    assert (
        convert_money(100.0, from_currency="USD", to_currency="CNY", fx_usd_cny=7.0)
        == 700.0
    )
    assert (
        convert_money(700.0, from_currency="CNY", to_currency="USD", fx_usd_cny=7.0)
        == 100.0
    )


def test_decimal_money_uses_the_default_rate_as_a_decimal():
    # 25,000 USD x 7.2 CNY/USD = 180,000 CNY, exact to the cent
    amount = convert_money(Decimal("25000"), from_currency="USD", to_currency="CNY")
    assert amount == Decimal("180000.0") and isinstance(amount, Decimal)


def test_same_currency_is_unchanged():
    assert convert_money(5.5, from_currency="CNY", to_currency="CNY") == 5.5


def test_an_unknown_currency_names_the_currency_field():
    with pytest.raises(TcoInputError) as err:
        convert_money(1.0, from_currency="EUR", to_currency="CNY")
    assert err.value.field == "currency"
