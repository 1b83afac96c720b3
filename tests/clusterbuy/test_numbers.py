"""The one home of number and money display (clusterbuy.engine.numbers): Decimal,
ROUND_HALF_UP, grouped in threes in both languages."""

from __future__ import annotations

from decimal import Decimal

import pytest

from clusterbuy.engine.numbers import figure, money, number, rounded


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (Decimal("3839269"), 0, "3,839,269"),
        (2.5, 0, "3"),  # half up; f"{2.5:.0f}" gives "2"
        (Decimal("0.125"), 2, "0.13"),  # half up; half-even gives 0.12
        (12.5, 2, "12.50"),
        (-0.4, 0, "0"),  # never "-0"
        ("1500000.00", 0, "1,500,000"),  # the snapshot's Decimal strings
        (None, 0, "—"),
    ],
)
def test_money_is_grouped_with_fixed_decimals_rounded_half_up(value, digits, shown):
    assert money(value, digits) == shown
    assert money(value, digits, lang="zh-hans") == shown


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (0.5, 2, "0.5"),
        (13.7249, 2, "13.72"),
        (400.0, 2, "400"),
        (Decimal("100.00"), 1, "100"),
        (3.5, 1, "3.5"),  # a 3.5 TB store is not "4 TB"
        (1234567, 2, "1234567"),
        (None, 2, "—"),
        ("air", 2, "air"),
    ],
)
def test_number_drops_trailing_zeros(value, digits, shown):
    assert number(value, digits) == shown


def test_number_groups_when_asked():
    assert number(1234567.891, 1, grouping=True) == "1,234,567.9"


@pytest.mark.parametrize(
    ("value", "shown"),
    [(1e6, "1,000,000"), (0.1, "0.1"), (1e13, "10,000,000,000,000"), (None, "")],
)
def test_a_figure_in_a_sentence_is_never_scientific(value, shown):
    assert figure(value) == shown


def test_rounding_is_half_up_on_the_decimal_of_a_float():
    # 1.005 is stored as 1.00499999999999989...; its repr "1.005" is what a person
    # typed and what is rounded.
    assert rounded(1.005, 2) == Decimal("1.01")
