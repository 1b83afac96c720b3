"""A vendor's bid normalised to a TCO: the mapping of its lines and the categories
ClusterBuy fills in, each figure computed by hand from the rules' constants
(network 0.19 / 0.81 of GPU servers, storage 5 %, facility 10 USD/W over 12 years,
installation 2 % of hardware, support 10 %/yr after a 3-year warranty)."""

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tco.engine import TcoInputError, compute, inputs_from_dict
from tco.engine.normalise import BidLine, normalise_tco

REPO = Path(__file__).resolve().parents[3]


def one_off(category: str, amount: int) -> BidLine:
    return BidLine(category, Decimal(amount), False)


def yearly(category: str, amount: int) -> BidLine:
    return BidLine(category, Decimal(amount), True)


def normalise(lines, **overrides):
    arguments = {
        "horizon_years": 5,
        "currency": "CNY",
        "gpu_count": 64,
        "it_power_kw": 81.6,
        "warranty_years": None,
        "on_prem": True,
    }
    return normalise_tco(lines, **{**arguments, **overrides})


def test_gpu_only_bid_gets_every_missing_category_filled_in():
    result = normalise([one_off("gpu_servers", 15_200_000)])
    # network 15.2M x 0.19/0.81 = 3,565,432.0988; storage 15.2M x 5 % = 760,000;
    # facility 81.6 kW x 1000 x 10 USD/W x 7.2 CNY/USD x 5/12 = 2,448,000;
    # hardware 15.2M + 3,565,432.0988 + 760,000 = 19,525,432.0988, installation 2 %
    # of it = 390,508.64; support 10 % of hardware in years 4 and 5 = 3,905,086.42.
    assert result.hidden_costs == [
        {
            "category": "network",
            "amount": Decimal("3565432.10"),
            "basis": "15,200,000 x 0.19 / 0.81",
        },
        {
            "category": "storage",
            "amount": Decimal("760000.00"),
            "basis": "15,200,000 x 5 %",
        },
        {
            "category": "power_cooling",
            "amount": Decimal("2448000.00"),
            "basis": "81.6 kW x 10 USD/W x 7.2 CNY/USD x 5/12",
        },
        {
            "category": "installation",
            "amount": Decimal("390508.64"),
            "basis": "19,525,432 x 2 %",
        },
        {
            "category": "support",
            "amount": Decimal("3905086.42"),
            "basis": "19,525,432 x 10% x 2",
        },
    ]


def test_normalised_tco_is_the_engine_total_of_the_filled_in_inputs():
    result = normalise([one_off("gpu_servers", 15_200_000)])
    expected = compute(
        inputs_from_dict(
            {
                "horizon_years": 5,
                "currency": "CNY",
                "gpu_count": 64,
                "it_power_kw": 81.6,
                "software_per_year": 0,
                "capex": [
                    {"category": "gpu_servers", "amount": 15_200_000},
                    {"category": "network", "amount": 3_565_432.0988},
                    {"category": "storage", "amount": 760_000},
                    {"category": "facility", "amount": 2_448_000},
                    {"category": "installation", "amount": 390_508.6420},
                ],
            }
        )
    )
    assert float(result.normalized_tco) == pytest.approx(expected.total_cost, abs=0.01)
    assert result.tco["totals_by_category"]["support"] == pytest.approx(3_905_086.42)


def test_usd_facility_needs_no_exchange_rate_and_power_defaults_to_the_gpu_count():
    lines = [
        one_off("gpu_servers", 1_000_000),
        one_off("network", 100_000),
        one_off("storage", 50_000),
        one_off("installation", 10_000),
    ]
    result = normalise(
        lines, currency="USD", horizon_years=3, gpu_count=8, it_power_kw=None
    )
    # 8 GPUs x 10.2 kW / 8 = 10.2 kW; 10.2 x 1000 x 10 USD/W x 3/12 = 25,500 USD;
    # support: 10 % of 1,150,000 after the 3-year warranty = nothing in 3 years.
    assert result.hidden_costs == [
        {
            "category": "power_cooling",
            "amount": Decimal("25500.00"),
            "basis": "10.2 kW x 10 USD/W x 3/12",
        }
    ]


def test_cloud_site_gets_no_facility_and_the_plan_gpu_price_prices_the_servers():
    result = normalise(
        [one_off("network", 100_000)],
        gpu_count=8,
        gpu_price=Decimal("25000"),
        warranty_years=5.0,
        on_prem=False,
    )
    # GPU servers 25,000 x 8 = 200,000; storage 5 % of it = 10,000; installation
    # 2 % of 200,000 + 100,000 + 10,000 = 6,200; a 5-year warranty covers the horizon.
    assert [(h["category"], h["amount"], h["basis"]) for h in result.hidden_costs] == [
        ("gpu_servers", Decimal("200000.00"), "25,000 x 8"),
        ("storage", Decimal("10000.00"), "200,000 x 5 %"),
        ("installation", Decimal("6200.00"), "310,000 x 2 %"),
    ]


def test_yearly_support_within_hardware_capex_is_the_support_rate_from_year_one():
    lines = [
        one_off("gpu_servers", 800_000),
        one_off("network", 150_000),
        one_off("storage", 50_000),
        one_off("installation", 20_000),
        yearly("support", 50_000),
        yearly("software", 12_000),
    ]
    result = normalise(lines, horizon_years=4, on_prem=False)
    # 50,000 / 1,000,000 of hardware = 5 %/yr with no warranty: 4 x 50,000.
    assert result.hidden_costs == []
    totals = result.tco["totals_by_category"]
    assert totals["support"] == pytest.approx(200_000)
    assert totals["software"] == pytest.approx(48_000)


def test_support_above_hardware_capex_and_other_fees_count_as_nominal_totals():
    lines = [
        one_off("gpu_servers", 800_000),
        one_off("network", 150_000),
        one_off("storage", 50_000),
        one_off("installation", 20_000),
        yearly("support", 2_000_000),
        yearly("training", 10_000),
    ]
    result = normalise(lines, horizon_years=3, on_prem=False)
    totals = result.tco["totals_by_category"]
    # support 2,000,000 x 3 + training 10,000 x 3 as "other" capex; no support rate.
    assert totals["support"] == 0
    assert totals["other"] == pytest.approx(6_030_000)
    assert result.hidden_costs == []


def test_prepaid_support_line_means_no_support_is_added():
    lines = [
        one_off("gpu_servers", 800_000),
        one_off("network", 150_000),
        one_off("storage", 50_000),
        one_off("installation", 20_000),
        one_off("support", 30_000),
    ]
    result = normalise(lines, on_prem=False)
    totals = result.tco["totals_by_category"]
    assert totals["support"] == 0
    assert totals["other"] == pytest.approx(30_000)
    assert result.hidden_costs == []


def test_figures_the_tco_engine_rejects_raise_its_input_error():
    with pytest.raises(TcoInputError):
        normalise([one_off("gpu_servers", 1_000_000)], horizon_years=7)


def test_normalise_imports_without_django():
    code = (
        "import sys, tco.engine.normalise;"
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')];"
        "assert not loaded, loaded"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True)
