"""Issue 24, TCO defaults per accelerator: power from the catalogue for the offered
server and a claim only checked; Monte Carlo PUE never below its physical floor;
spot below reserved; hidden costs from the plan's bill of materials."""

import csv
from pathlib import Path

import numpy as np
import pytest

from tco.engine import DEFAULTS, inputs_from_dict, monte_carlo
from tco.engine.bid_power import catalogue_power_kw, power_for_tco
from tco.engine.bill_of_materials import ClusterScale, bill_of_materials
from tco.engine.uncertainty import PUE_FLOOR, resolve_ranges

REPO = Path(__file__).resolve().parents[3]
# HGX H20: no published server power; derived as the sizing engine does, 8 x 400 W
# TDP x 10.2 / 5.6 (DGX H100 max over its eight 700 W GPUs; sizing.engine.platform).
H20_NODE_KW = 8 * 0.4 * 10.2 / 5.6  # 5.828571... kW


def test_128_h20_are_costed_at_the_catalogue_power_not_the_h100_default():
    kw = catalogue_power_kw(gpu_count=128, gpus_per_node=8, node_max_kw=H20_NODE_KW)
    # 16 nodes x 5.8286 kW = 93.257 kW, not 128 x 10.2 / 8 = 163.2 kW.
    assert kw == pytest.approx(93.2571, abs=1e-4)
    power = power_for_tco(gpu_count=128, catalogue_kw=kw, claimed_kw=None)
    assert (power.used_kw, power.source) == (kw, "catalogue")


def test_identical_232_h20_hardware_is_costed_at_the_same_power_in_two_bids():
    kw = catalogue_power_kw(gpu_count=232, gpus_per_node=8, node_max_kw=H20_NODE_KW)
    # 29 nodes x 5.8286 = 169.03 kW, whatever each bid claims (296 and 168 kW).
    high = power_for_tco(gpu_count=232, catalogue_kw=kw, claimed_kw=296.0)
    low = power_for_tco(gpu_count=232, catalogue_kw=kw, claimed_kw=168.0)
    assert high.used_kw == low.used_kw == pytest.approx(169.0286, abs=1e-4)
    # 296 kW is 29 x 10.2, the H100 server: 75 % above the H20's, implausible.
    assert (high.claim_status, low.claim_status) == ("implausible", "plausible")


def test_an_implausible_claim_is_never_used():
    power = power_for_tco(gpu_count=64, catalogue_kw=81.6, claimed_kw=35.8)
    assert power.used_kw == 81.6 and power.claim_status == "implausible"


def test_a_claim_is_used_only_when_the_catalogue_knows_nothing():
    power = power_for_tco(gpu_count=16, catalogue_kw=None, claimed_kw=12.5)
    assert (power.used_kw, power.source, power.claim_status) == (
        12.5,
        "claim",
        "unchecked",
    )
    power = power_for_tco(gpu_count=16, catalogue_kw=None, claimed_kw=None)
    assert power.used_kw == pytest.approx(16 * 10.2 / 8)


def test_monte_carlo_pue_never_draws_below_its_physical_floor(hand_data):
    inputs = inputs_from_dict(hand_data | {"pue": 1.1})
    ranges = resolve_ranges(inputs, None)
    assert ranges["pue"]["low"] == PUE_FLOOR == 1.05
    result = monte_carlo(inputs, draws=2000, seed=3)
    assert result["ranges"]["pue"]["low"] >= 1.05


def test_monte_carlo_ranges_differ_per_input_and_cite_their_spread(hand_inputs):
    ranges = resolve_ranges(hand_inputs, None)
    # support 10 %: Sesterce 8-15 % a year; failures 5 % x 2.5/4 .. 6/4.
    assert (ranges["support_rate"]["low"], ranges["support_rate"]["high"]) == (
        pytest.approx(0.08),
        pytest.approx(0.15),
    )
    assert ranges["annual_failure_rate"]["low"] == pytest.approx(0.05 * 2.5 / 4)
    assert ranges["load_factor"]["low"] == pytest.approx(0.5 * 0.56 / 0.75)


def test_default_spot_price_is_below_the_reserved_price():
    spot = DEFAULTS["cloud_spot_per_gpu_hour"].value
    reserved = DEFAULTS["cloud_reserved_per_gpu_hour"].value
    # 6.88 USD x 0.3 x 7.2 = 14.86 < 6.88 x 0.36 x 7.2 = 17.83; with the 15 % spot
    # overhead still 17.09 < 17.83.
    assert spot == 14.86 < reserved == 17.83
    assert spot * (1 + DEFAULTS["spot_overhead"].value) < reserved


def test_every_cloud_price_row_is_sourced_and_spot_below_reserved():
    path = REPO / "tco" / "data" / "cloud_prices.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert {(r["accelerator"], r["region"]) for r in rows} >= {
        ("h20-sxm-96gb", "cn"),
        ("ascend910b-oam-64gb", "cn"),
    }
    for row in rows:
        spot = float(row["spot_per_gpu_hour"])
        reserved = float(row["reserved_per_gpu_hour"])
        assert spot < reserved < float(row["on_demand_per_gpu_hour"]), row
        assert row["source"].strip()


def test_every_price_book_row_has_a_source():
    path = REPO / "tco" / "data" / "price_book.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert rows and all(r["source"].strip() for r in rows)
    assert {r["currency"] for r in rows} <= {"CNY", "USD"}


def test_storage_and_nodes_of_the_bill_of_materials_follow_the_bid():
    bom = bill_of_materials(
        ClusterScale(gpu_count=232, storage_tb=1100.0, storage_tier="pfs-good")
    )
    # 232 / 8 = 29 nodes; the plan's 1.1 PB whatever the GPU count.
    assert (bom.nodes, bom.nics, bom.storage_tb) == (29, 232, 1100.0)
    assert np.isfinite(bom.links)
