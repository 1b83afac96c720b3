"""A vendor's bid normalised to a TCO: the mapping of its lines and the categories
ClusterBuy fills in, each figure computed by hand from the price book
(tco/data/price_book.csv: switch port 562.5 USD, link 810 USD, installation 20,000
CNY a node, storage 200/400 USD per TB, facility 10 USD/W over 12 years; 7.2 CNY/USD)
and the TCO defaults (support 10 %/yr after a 3-year warranty)."""

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tco.engine import TcoInputError, compute, inputs_from_dict
from tco.engine.bill_of_materials import ClusterScale
from tco.engine.normalise import BidLine, normalise_tco
from tco.price_book import price_book

REPO = Path(__file__).resolve().parents[3]


def one_off(category: str, amount: int, **extra) -> BidLine:
    return BidLine(category, Decimal(amount), False, **extra)


def yearly(category: str, amount: int, **extra) -> BidLine:
    return BidLine(category, Decimal(amount), True, **extra)


def normalise(lines, **overrides):
    arguments = {
        "horizon_years": 5,
        "currency": "CNY",
        "gpu_count": 64,
        "it_power_kw": 81.6,
        "warranty_years": None,
        "on_prem": True,
        "price_book": price_book(),
    }
    return normalise_tco(lines, **{**arguments, **overrides})


def hidden(result) -> dict:
    return {h["category"]: (h["amount"], h["basis"]) for h in result.hidden_costs}


def test_gpu_only_bid_gets_every_missing_category_filled_in_from_the_price_book():
    result = normalise([one_off("gpu_servers", 15_200_000)])
    # 64 GPUs = 8 nodes x 8 NICs = 64 ports: one 64-port switch. Port 562.5 USD x 7.2
    # = 4,050; link 810 x 7.2 = 5,832: 64 x 4,050 + 64 x 5,832 = 632,448. No plan:
    # storage need unknown, not added. Facility 81.6 kW x 1000 x 72 CNY/W x 5/12 =
    # 2,448,000; installation 8 x 20,000; support 10 % of 15,832,448 in years 4-5.
    assert result.hidden_costs == [
        {
            "category": "network",
            "amount": Decimal("632448.00"),
            "basis": "8 nodes: 1 switches x 64 ports x 4,050 + 64 links x 5,832 + "
            "64 NICs x 0",
        },
        {
            "category": "power_cooling",
            "amount": Decimal("2448000.00"),
            "basis": "81.6 kW x 72/W x 5/12",
        },
        {
            "category": "installation",
            "amount": Decimal("160000.00"),
            "basis": "8 nodes x 20,000/node",
        },
        {
            "category": "support",
            "amount": Decimal("3166489.60"),
            "basis": "15,832,448 x 10% x 2",
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
                "warranty_years": 3,
                "annual_failure_rate": 0.04 * 2 / 5,  # failures in years 4-5 only
                "capex": [
                    {"category": "gpu_servers", "amount": 15_200_000},
                    {"category": "network", "amount": 632_448},
                    {"category": "facility", "amount": 2_448_000},
                    {"category": "installation", "amount": 160_000},
                ],
            }
        )
    )
    assert float(result.normalized_tco) == pytest.approx(expected.total_cost, abs=0.01)
    assert result.tco["totals_by_category"]["support"] == pytest.approx(3_166_489.60)


def test_twelve_node_network_is_priced_from_the_plans_fat_tree():
    scale = ClusterScale(gpu_count=96, gpus_per_node=8, nics_per_node=8)
    result = normalise([one_off("gpu_servers", 30_000_000)], gpu_count=96, scale=scale)
    # 12 nodes x 8 rails = 96 ports > 64: two tiers. 2 rails a leaf (32 // 12) -> 4
    # leaves of 24; spines ceil(96 / 64) = 2; up links 4 x 24 = 96. 6 switches x 64
    # ports x 4,050 = 1,555,200; (96 + 96) links x 5,832 = 1,119,744.
    assert hidden(result)["network"][0] == Decimal("2674944.00")
    assert result.bill_of_materials["switches"] == 6
    assert result.bill_of_materials["links"] == 192


def test_storage_is_the_plans_capacity_at_its_tiers_price():
    scale = ClusterScale(gpu_count=64, storage_tb=1100.0, storage_tier="pfs-better")
    result = normalise([one_off("gpu_servers", 15_200_000)], scale=scale)
    # 1,100 TB x 400 USD x 7.2 = 3,168,000 CNY (performance tier).
    assert hidden(result)["storage"] == (
        Decimal("3168000.00"),
        "1,100 TB (pfs-better) x 2,880/TB",
    )


def test_a_service_package_with_a_declared_scope_is_not_double_counted():
    lines = [
        one_off("gpu_servers", 24_000_000),
        one_off(
            "other", 12_000_000, scope=("network", "storage", "installation")
        ),  # 服务包（含网络、存储、安装实施）
    ]
    scale = ClusterScale(gpu_count=64, storage_tb=1100.0, storage_tier="pfs-good")
    result = normalise(lines, scale=scale)
    assert set(hidden(result)) == {"power_cooling", "support"}


def test_installation_included_in_the_node_price_is_honoured():
    lines = [one_off("gpu_servers", 15_200_000, scope=("installation",))]
    assert "installation" not in hidden(normalise(lines))


def test_no_failure_cost_and_no_support_inside_a_five_year_warranty():
    result = normalise([one_off("gpu_servers", 15_200_000)], warranty_years=5.0)
    totals = result.tco["totals_by_category"]
    assert totals["failures"] == 0
    assert totals["support"] == 0
    assert result.covered_years == 5.0


def test_support_for_years_four_and_five_is_counted_two_years():
    lines = [
        one_off("gpu_servers", 15_200_000),
        yearly("support", 300_000, year_from=4, year_to=5),
    ]
    result = normalise(lines, warranty_years=3.0)
    item = next(i for i in result.breakdown if i.category == "support")
    assert (item.code, item.amount) == ("quoted_recurring", Decimal("600000.00"))
    assert item.basis == "300,000.00/y x 2 y (years 4-5)"
    # Warranty 1-3 and support 4-5 cover the horizon: nothing added, no failures.
    assert "support" not in hidden(result)
    assert result.tco["totals_by_category"]["failures"] == 0


def test_a_quoted_power_and_cooling_line_counts_towards_the_one_facility():
    lines = [one_off("gpu_servers", 15_200_000), one_off("power_cooling", 500_000)]
    # Every on-prem bid carries the same facility: 2,448,000 - 500,000 quoted.
    assert hidden(normalise(lines))["power_cooling"] == (
        Decimal("1948000.00"),
        "81.6 kW x 72/W x 5/12 - 500,000.00 quoted",
    )


def test_usd_facility_and_power_defaults_to_the_gpu_count():
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
            "basis": "10.2 kW x 10/W x 3/12",
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
    # GPU servers 25,000 x 8 = 200,000; one node: installation 20,000; a 5-year
    # warranty covers the horizon.
    assert [(h["category"], h["amount"], h["basis"]) for h in result.hidden_costs] == [
        ("gpu_servers", Decimal("200000.00"), "25,000 x 8"),
        ("installation", Decimal("20000.00"), "1 nodes x 20,000/node"),
    ]


def test_yearly_support_is_the_bids_price_for_every_year_and_covers_failures():
    lines = [
        one_off("gpu_servers", 800_000),
        one_off("network", 150_000),
        one_off("storage", 50_000),
        one_off("installation", 20_000),
        yearly("support", 50_000),
        yearly("software", 12_000),
    ]
    result = normalise(lines, horizon_years=4, on_prem=False)
    assert result.hidden_costs == []
    totals = result.tco["totals_by_category"]
    assert totals["other"] == pytest.approx(200_000)  # 4 x 50,000
    assert totals["software"] == pytest.approx(48_000)
    assert totals["support"] == 0 and totals["failures"] == 0


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
