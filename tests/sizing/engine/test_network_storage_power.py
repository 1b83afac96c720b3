import pytest

from sizing.engine import Constraints, estimate
from sizing.engine.explain import Explainer
from sizing.engine.fat_tree import fat_tree, scalable_unit
from sizing.engine.network import size_interconnect
from sizing.engine.platform import server_for
from sizing.engine.power import DEFAULT_PUE, SRC_PUE
from tco.engine import DEFAULTS


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
    # 8 DGX H100 x 10.2 kW = 81.6 kW IT (not 8 x 8 x 0.7 = 44.8 kW)
    assert p["it_kw"] == pytest.approx(81.6)
    assert p["facility_kw"] == pytest.approx(102.0)
    assert p["annual_mwh"] == pytest.approx(102.0 * 0.75 * 8760 / 1000)


def test_air_cooled_rack_holds_four_dgx_h100_as_in_nvidias_superpod(catalog, make):
    # NVIDIA DGX SuperPOD RA-11333-001: 4 x DGX H100 per air-cooled rack, 4 x 10.2 =
    # 40.8 kW. The 50 kW air ceiling (containment 30-50 kW, hardware-facts section 4)
    # admits it, so 8 nodes take 2 racks (not 3), and the rack stays air-cooled.
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=64
    )
    p = estimate(w, catalog, "h100-sxm-80gb").power
    assert (p["nodes_per_rack"], p["racks"]) == (4, 2)
    assert p["rack_kw"] == pytest.approx(40.8)
    assert p["cooling"] == "air" and p["cooling_ceiling_kw"] == 50.0


def test_air_only_chassis_is_never_labelled_liquid_even_when_the_site_allows_it(
    catalog, make
):
    # DGX B200 (14.3 kW, air-cooled): floor(50 / 14.3) = 3 per rack = 42.9 kW
    w = make(kind="training", model={"preset": "llama-3-8b"}, tokens_b=10, gpu_count=64)
    r = estimate(w, catalog, "b200-sxm-180gb", Constraints(liquid_cooling_ok=True))
    assert r.power["cooling"] == "air"
    assert (r.power["nodes_per_rack"], r.power["racks"]) == (3, 3)
    assert "liquid_cooling_required" not in {b.code for b in r.bottlenecks}


def test_site_rack_limit_caps_the_nodes_per_rack(catalog, make):
    # questionnaire rack limit 25 kW: floor(25 / 10.2) = 2 DGX H100 per rack
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=64
    )
    p = estimate(w, catalog, "h100-sxm-80gb", Constraints(rack_power_limit_kw=25)).power
    assert (p["rack_limit_kw"], p["nodes_per_rack"], p["racks"]) == (25, 2, 4)


def test_default_pue_is_the_tco_default_with_the_same_source(catalog, make):
    assert DEFAULT_PUE == DEFAULTS["pue"].value == 1.3
    assert DEFAULTS["pue"].source.split(";")[0] in SRC_PUE  # the MIIT plan
    w = make(kind="training", model={"preset": "llama-3-8b"}, tokens_b=10, gpu_count=8)
    assert estimate(w, catalog, "h100-sxm-80gb").power["pue"] == 1.3


def test_nvl72_rack_needs_liquid_cooling(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=72
    )
    r = estimate(w, catalog, "gb200-nvl-186gb")
    assert r.power["cooling"] == "liquid"
    assert "liquid_cooling_required" in {b.code for b in r.bottlenecks}


def test_small_cluster_gets_a_right_sized_fabric_and_the_growth_option_beside_it():
    # 9 DGX nodes x 8 rails = 72 endpoints on 64-port switches (k/2 = 32 down):
    # floor(32 / 9) = 3 whole rails per leaf -> ceil(8 / 3) = 3 leaves (27, 27, 18
    # ports); spines ceil(72 / 64) = 2; up links per leaf rounded to a multiple of
    # the 2 spines: 28 + 28 + 18 = 74 cables. The SuperPOD scalable unit would be
    # 8 leaves + 4 spines for up to 32 nodes: 7 more switches, shown as an option.
    tree = fat_tree(9, 8, 64, rail_optimized=True)
    assert (tree.tiers, tree.leaf, tree.spine, tree.leaf_spine_cables) == (2, 3, 2, 74)
    unit = scalable_unit(9, 8, 64)
    assert (unit.leaf, unit.spine, unit.max_nodes) == (8, 4, 32)


def test_interconnect_reports_the_growth_option_without_adding_it(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-3-8b"}, tokens_b=100, gpu_count=72
    )
    i = estimate(w, catalog, "h100-sxm-80gb").interconnect
    assert (i["leaf_switches"], i["spine_switches"]) == (3, 2)
    assert i["growth_option"] == {
        "max_nodes": 32,
        "leaf_switches": 8,
        "spine_switches": 4,
        "added_switches": 7,
        "added_cables": (72 + 8 * 32) - (72 + 74),  # full leaf up links
    }


def _interconnect(catalog, accelerator, need_gbps):
    acc = catalog.accelerators[accelerator]
    server = server_for(acc, catalog)
    return size_interconnect(
        nodes=64,  # InfiniBand above 32 nodes
        gpus=512,
        gpus_per_node=8,
        scaleup_domain=acc.scaleup_domain_gpus,
        tensor=1,
        need_gbps_per_gpu=need_gbps,
        server_nic_count=server.nic_count,
        server_nic_gbps=server.nic_gbps,
        training=True,
        ecosystem=acc.ecosystem,
        preferred_fabric=None,
        catalog=catalog,
        ex=Explainer(),
    )


def test_nics_never_exceed_the_platforms_count_and_top_speed(catalog):
    # 700 Gbit/s per GPU x 1.25 margin would pick 800G; DGX H100 ships 8 x ConnectX-7
    # 400G (hardware-facts 2a), so the fabric stays 400G NDR, never XDR
    h100 = _interconnect(catalog, "h100-sxm-80gb", 700.0)
    assert (h100["platform_nics"], h100["platform_nic_gbps"]) == (8, 400)
    assert (h100["nics_per_node"], h100["nic_gbps"]) == (8, 400)
    assert h100["switch"] == "ib-ndr-qm9700"
    # DGX B300 ships 8 x ConnectX-8 800G: the same need gets 800G XDR
    b300 = _interconnect(catalog, "b300-sxm-288gb", 700.0)
    assert b300["nic_gbps"] == 800 and b300["switch"] == "ib-xdr-q3400"
    # DGX A100 ships 8 x ConnectX-6 HDR 200G
    assert _interconnect(catalog, "a100-sxm-80gb", 700.0)["nic_gbps"] == 200
