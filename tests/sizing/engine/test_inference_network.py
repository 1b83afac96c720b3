"""The inference network from its traffic (issue 21, item 5): a serving replica across
nodes gets RDMA at the bandwidth its own timing assumed, one figure for the bill of
materials and the timing; an Ascend cluster gets a switch for Ascend, never the
Gaudi 3 NIC-port row."""

import pytest

from sizing.engine import estimate
from sizing.engine.network import choose_fabric
from sizing.engine.platform import fabric_for, server_for
from sizing.engine.workload import constraints_from_dict

CN = {"region": "cn"}


def _serve(catalog, make, accelerator, preset, **extra):
    w = make(
        kind="inference",
        model={"preset": preset},
        context_tokens=4096,
        output_tokens=512,
        concurrent_requests=64,
        **extra,
    )
    return estimate(w, catalog, accelerator, constraints_from_dict(CN)).to_dict()


def test_an_moe_replica_over_two_ascend_nodes_gets_the_timings_rdma(catalog, make):
    r = _serve(catalog, make, "ascend910b-oam-64gb", "qwen3-235b-a22b")
    i = r["interconnect"]
    replica_gpus = r["gpu_count"] // r["inference"]["replicas"]
    assert replica_gpus > 8  # experts spread over two Atlas 800T A2 nodes
    acc = catalog.accelerators["ascend910b-oam-64gb"]
    fabric = fabric_for(acc, server_for(acc, catalog))
    # Atlas 800T A2: 8 x 200GE per 8 NPUs = 25 GB/s per NPU each way, the timing's
    # scale-out link; the bill of materials carries the same 8 x 200G on RoCE
    assert fabric.scaleout_gbs == pytest.approx(25.0)
    assert (i["fabric"], i["nics_per_node"], i["nic_gbps"]) == ("roce", 8, 200.0)
    assert i["scale_out_gbps_per_gpu"] == pytest.approx(fabric.scaleout_gbs * 8)
    assert i["switch"] == "roce-200g-huawei-ce"


def test_a_cross_node_moe_on_h20_gets_one_400g_nic_per_gpu(catalog, make):
    # 32 H20 for Qwen3-235B-A22B at 200 users (issue 21's case): the engine's
    # layout spans nodes; DeepEP / SGLang large-scale EP run RDMA, 1 x 400G per GPU
    w = make(
        kind="inference",
        model={"preset": "qwen3-235b-a22b"},
        context_tokens=32768,
        output_tokens=1024,
        concurrent_requests=200,
        gpu_count=32,
    )
    r = estimate(w, catalog, "h20-sxm-96gb", constraints_from_dict(CN)).to_dict()
    replica_gpus = r["gpu_count"] // r["inference"]["replicas"]
    i = r["interconnect"]
    if replica_gpus > 8:
        assert (i["fabric"], i["nics_per_node"], i["nic_gbps"]) == ("roce", 8, 400.0)
        assert i["scale_out_gbps_per_gpu"] == pytest.approx(400.0)
    else:  # replicas inside a node exchange little: front-end Ethernet
        assert i["fabric"] == "ethernet"
        assert i["scale_out_gbps_per_gpu"] == 0


def test_serving_replicas_inside_a_node_keep_plain_ethernet(catalog, make):
    r = _serve(catalog, make, "h100-sxm-80gb", "llama-3.1-8b", gpu_count=16)
    i = r["interconnect"]
    assert r["gpu_count"] == 16 and r["gpu_count"] // r["inference"]["replicas"] <= 8
    assert (i["fabric"], i["nics_per_node"], i["nic_gbps"]) == ("ethernet", 2, 200.0)


def test_an_ascend_cluster_never_gets_the_gaudi_nic_port_row(catalog):
    cann = choose_fabric("roce", 200.0, catalog, "cann")
    gaudi = choose_fabric("roce", 200.0, catalog, "synapseai")
    cuda = choose_fabric("roce", 200.0, catalog, "cuda")
    assert cann.key == "roce-200g-huawei-ce"
    assert gaudi.key == "eth-200g-gaudi3"
    assert cuda.key == "roce-400g-sn5400"  # neither vendor-specific row


def test_every_server_platform_says_where_its_nic_count_comes_from(catalog):
    for server in catalog.servers.values():
        assert server.nic_source, server.key
    assert "ASSUMED" in catalog.servers["hgx-h20"].nic_source
