"""build_clauses: order, thresholds hand-computed from the cited envelopes."""

from dataclasses import replace

from vendors.engine.acceptance import AcceptanceInputs, build_clauses

H200_2x8 = AcceptanceInputs(
    accelerator_key="h200-sxm-141gb",
    vendor_family="nvidia",
    gpu_count=16,
    nodes=2,
    gpus_per_node=8,
    scaleup_link="NVLink 4 (18 links) + NVSwitch gen3",
    scaleup_bw_gbs=900,
    hbm_bw_tbs=4.8,
    fp64_tflops=67,
    nics_per_node=8,
    nic_gbps=400,
    storage_read_gbs=40,
    storage_write_gbs=20,
    workload_kind="serving",
    workload_target=12000,
    workload_unit="tokens/s",
)


def by_key(inputs):
    return {c.key: c for c in build_clauses(inputs)}


def test_the_tests_come_in_the_issue_order():
    assert [c.key for c in build_clauses(H200_2x8)] == [
        "dcgm_diag_l3",
        "gpu_stress",
        "hbm_bandwidth",
        "nccl_all_reduce_node",
        "ib_write_bw_nic",
        "nccl_all_reduce_fabric",
        "nccl_all_to_all_fabric",
        "hpl_node",
        "fio_read",
        "fio_write",
        "fio_metadata",
        "workload",
        "burn_in",
    ]
    assert [c.order for c in build_clauses(H200_2x8)] == list(range(1, 14))


def test_thresholds_for_h200():
    c = by_key(H200_2x8)
    # 0.9 x 480/450 x 450 = 432; 0.9 x 2.97/3.35 x 4.8 = 3.83; 0.9 x 0.97 x 50 = 43.65
    assert c["nccl_all_reduce_node"].required == 432.0
    assert c["hbm_bandwidth"].required == 3.83
    assert c["ib_write_bw_nic"].required == 43.65
    # 2 nodes x 8 x 400G: 0.9 x 470 = 423; all-to-all 0.9 x 0.8 x 3200/8/8 = 36
    assert c["nccl_all_reduce_fabric"].required == 423.0
    assert c["nccl_all_to_all_fabric"].required == 36.0
    # HPL 0.9 x (365.4 / 536) x 8 x 67 = 0.9 x 365.4 = 328.86 TFLOPS (365.4: the
    # published single-node 8 x H100 run, envelopes.HPL_SOURCE)
    assert c["hpl_node"].required == 328.86
    assert "365.4 TFLOPS" in c["hpl_node"].source
    assert c["workload"].comparison == ">=" and c["workload"].required == 12000
    assert c["burn_in"].required == 72.0
    assert "nccl-tests#212" in c["nccl_all_reduce_node"].source
    assert c["nccl_all_reduce_node"].command == "all_reduce_perf -b 1G -e 16G -f 2 -g 8"
    assert c["nccl_all_reduce_fabric"].gpus == 16


def test_a100_without_nvls_uses_the_ring_share():
    a100 = replace(
        H200_2x8,
        accelerator_key="a100-sxm-80gb",
        scaleup_bw_gbs=600,
        scaleup_link="NVLink 3 (12 links) + NVSwitch gen2",
    )
    # 0.9 x 235/300 x 300 = 211.5
    assert by_key(a100)["nccl_all_reduce_node"].required == 211.5


def test_four_nodes_use_the_per_nic_figure():
    four = replace(H200_2x8, gpu_count=32, nodes=4)
    # min(0.12 x 3200 = 384, 480) x 0.9 = 345.6
    assert by_key(four)["nccl_all_reduce_fabric"].required == 345.6


def test_single_node_has_no_fabric_clauses_and_no_hpl_without_fp64():
    one = replace(H200_2x8, gpu_count=8, nodes=1, fp64_tflops=None)
    keys = by_key(one)
    assert "nccl_all_reduce_fabric" not in keys and "hpl_node" not in keys


def test_promises_tighten_never_loosen():
    promised = replace(
        H200_2x8,
        promised={
            "nccl_all_reduce_node": 470.0,
            "fio_read": 10.0,
            "fio_metadata": 50000.0,
        },
        burn_in_hours=168,
    )
    c = by_key(promised)
    assert c["nccl_all_reduce_node"].required == 470.0
    assert c["fio_read"].required == 40  # the promise 10 would loosen it
    assert c["fio_metadata"].required == 50000.0
    assert c["burn_in"].required == 168.0


def test_training_step_time_is_at_most():
    training = replace(
        H200_2x8,
        workload_kind="training",
        workload_target=1.5,
        workload_unit="s",
        promised={"workload": 1.2},
    )
    w = by_key(training)["workload"]
    assert (w.metric, w.comparison, w.required) == ("step_time_s", "<=", 1.2)


def test_training_throughput_is_at_least_and_a_slower_promise_does_not_loosen_it():
    # the app's training target: the cluster's tokens/s (tokens / predicted days)
    training = replace(
        H200_2x8,
        workload_kind="training",
        workload_target=34722.22,
        workload_unit="tokens/s",
        promised={"workload": 30000.0},
    )
    w = by_key(training)["workload"]
    assert (w.metric, w.unit, w.comparison, w.required) == (
        "tokens_per_s",
        "tokens/s",
        ">=",
        34722.22,
    )
    assert "training throughput" in w.command
    faster = by_key(replace(training, promised={"workload": 40000.0}))["workload"]
    assert faster.required == 40000.0


def test_ascend_gets_hccl_clauses():
    ascend = AcceptanceInputs(
        accelerator_key="ascend910b-oam-64gb",
        vendor_family="huawei",
        gpu_count=16,
        nodes=2,
        gpus_per_node=8,
        scaleup_link="HCCS",
        scaleup_bw_gbs=0,
        hbm_bw_tbs=1.2,
        fp64_tflops=None,
        nics_per_node=8,
        nic_gbps=200,
        storage_read_gbs=None,
        storage_write_gbs=None,
        workload_kind=None,
        workload_target=None,
        workload_unit=None,
    )
    c = by_key(ascend)
    node = c["hccl_all_reduce_node"]
    # ring 235/300 x 392/2 = 153.53 busbw; algbw = x 8/14 = 87.73; x 0.9 = 78.96
    assert (node.tool, node.metric, node.required) == ("hccl", "algbw_gbs", 78.96)
    assert "secondary source" in node.source
    assert c["dcgm_diag_l3"].tool == "manual"
    assert "nccl_all_reduce_node" not in c
