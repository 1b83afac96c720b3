import pytest

from sizing.engine import Constraints, estimate
from sizing.engine.network import fat_tree


@pytest.mark.parametrize(
    ("nodes", "leaf", "spine", "leaf_spine_cables"),
    [
        # NVIDIA DGX SuperPOD RA-11333-001 V11, Table 4 (QM9700, radix 64, 8 rails)
        (31, 8, 4, 256),
        (63, 16, 8, 512),
        (127, 32, 16, 1024),
    ],
)
def test_rail_optimised_two_tier_fat_tree_matches_superpod_table(
    nodes, leaf, spine, leaf_spine_cables
):
    tree = fat_tree(nodes, 8, 64, rail_optimized=True)
    assert (tree.tiers, tree.leaf, tree.spine, tree.leaf_spine_cables) == (
        2,
        leaf,
        spine,
        leaf_spine_cables,
    )
    assert tree.node_leaf_cables == nodes * 8


def test_fat_tree_needs_a_third_tier_beyond_k_squared_over_two():
    # QM9700: two tiers up to 64^2 / 2 = 2,048 endpoints = 256 nodes of 8 GPUs
    assert fat_tree(256, 8, 64, True).tiers == 2
    tree = fat_tree(257, 8, 64, True)
    assert tree.tiers == 3 and tree.core > 0


def test_a_single_switch_serves_a_small_cluster():
    assert fat_tree(4, 8, 64, True).tiers == 1


def test_large_training_uses_infiniband_and_small_inference_ethernet(catalog, make):
    big = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=1024
    )
    assert (
        estimate(big, catalog, "h100-sxm-80gb").interconnect["fabric"] == "infiniband"
    )
    serve = make(
        kind="inference",
        model={"preset": "llama-3-8b"},
        tokens_per_second=200000,
        tpot_ms=50,
    )
    assert (
        estimate(serve, catalog, "h100-sxm-80gb").interconnect["fabric"] == "ethernet"
    )


def test_checkpoint_is_14_bytes_per_parameter_and_written_within_the_stall_share(
    catalog, make
):
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=64
    )
    s = estimate(w, catalog, "h100-sxm-80gb").storage
    # 14 x 68,976,648,192 = 965.67 GB; / (0.02 x 3600 s) = 13.41 GB/s
    assert s["checkpoint_gb"] == pytest.approx(965.673074688)
    assert s["checkpoint_write_gbs"] == pytest.approx(965.673074688 / 72)
    # default dataset: 2 T tokens x 4 B = 8 TB
    assert s["dataset_tb"] == pytest.approx(8.0)


def test_dataset_grows_over_the_planning_horizon(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=100,
        gpu_count=8,
        dataset_tb=10,
    )
    c = Constraints(data_growth_per_year=0.5, planning_years=2)
    assert estimate(w, catalog, "h100-sxm-80gb", c).storage[
        "dataset_tb"
    ] == pytest.approx(22.5)  # 10 x 1.5^2


def test_power_uses_server_maximum_not_gpu_tdp_and_applies_pue(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=64
    )
    p = estimate(w, catalog, "h100-sxm-80gb", Constraints(pue=1.25)).power
    # 8 DGX H100 x 10.2 kW = 81.6 kW IT (not 8 x 8 x 0.7 = 44.8); 3 per 40 kW air rack
    assert p["it_kw"] == pytest.approx(81.6)
    assert p["nodes_per_rack"] == 3 and p["racks"] == 3
    assert p["cooling"] == "air"
    assert p["facility_kw"] == pytest.approx(102.0)
    assert p["annual_mwh"] == pytest.approx(102.0 * 0.75 * 8760 / 1000)


def test_nvl72_rack_needs_liquid_cooling(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=72
    )
    r = estimate(w, catalog, "gb200-nvl-186gb")
    assert r.power["cooling"] == "liquid"
    assert "liquid_cooling_required" in {b.code for b in r.bottlenecks}
