"""Clauses graded against parsed sample logs."""

from dataclasses import replace

import pytest

from vendors.engine.acceptance import (
    AcceptanceInputs,
    build_clauses,
    grade_clause,
    merge_logs,
    parse_log,
)

H100_2x8 = AcceptanceInputs(
    accelerator_key="h100-sxm-80gb",
    vendor_family="nvidia",
    gpu_count=16,
    nodes=2,
    gpus_per_node=8,
    scaleup_link="NVLink 4 (18 links) + NVSwitch gen3",
    scaleup_bw_gbs=900,
    hbm_bw_tbs=3.35,
    fp64_tflops=67,
    nics_per_node=8,
    nic_gbps=400,
    storage_read_gbs=40,
    storage_write_gbs=20,
    workload_kind="training",
    workload_target=1.5,
    workload_unit="s",
)


def clause(key, inputs=H100_2x8):
    return next(c for c in build_clauses(inputs) if c.key == key)


def test_fabric_all_reduce_two_oci_nodes_passes(sample):
    # 463.90 GB/s plateau >= 0.9 x 470 = 423 GB/s; 16 GPUs on 2 hosts as planned
    grade = grade_clause(
        clause("nccl_all_reduce_fabric"),
        parse_log(sample("nccl_all_reduce_2node_h100.json")),
        expected_hosts=2,
    )
    assert grade.passed
    (v,) = grade.verdicts
    assert (v.measured, v.required, v.unit) == (463.90, 423.0, "GB/s")


def test_wrong_gpu_count_fails_even_at_full_bandwidth(sample):
    log = parse_log(sample("nccl_all_reduce_2node_h100_oci.txt"))
    grade = grade_clause(clause("nccl_all_reduce_node"), log)  # needs 8 GPUs
    assert not grade.passed
    assert grade.verdicts[0].reason.startswith("log shows 16 GPUs, clause needs 8")


def test_wrong_host_count_fails(sample):
    log = parse_log(sample("nccl_all_reduce_2node_h100_oci.txt"))
    grade = grade_clause(clause("nccl_all_reduce_fabric"), log, expected_hosts=4)
    assert grade.verdicts[0].reason == "log shows 2 host(s), clause needs 4"


def test_wrong_elements_fail_a_clause_whose_bandwidth_is_met(sample):
    text = (
        sample("nccl_all_reduce_2node_h100_oci.txt")
        .decode()
        .replace("Out of bounds values : 0 OK", "Out of bounds values : 5 FAILED")
    )
    grade = grade_clause(clause("nccl_all_reduce_fabric"), parse_log(text.encode()))
    assert not grade.passed
    assert grade.verdicts[0].measured == 463.90
    assert "Out of bounds values : 5 FAILED" in grade.verdicts[0].reason


def test_all_to_all_clause_refuses_an_all_reduce_log(sample):
    grade = grade_clause(
        clause("nccl_all_to_all_fabric"),
        parse_log(sample("nccl_all_reduce_2node_h100.json")),
    )
    assert grade.verdicts[0].reason.startswith(
        "log is all_reduce, clause needs all_to_all"
    )


def _node_log(sample, host, scale):
    text = sample("nccl_all_reduce_2node_h100_oci.txt").decode()
    lines = [ln for ln in text.split("\n") if "yyyyy" not in ln]
    text = "\n".join(lines).replace("inst-xxxxx-h100-ol89", host)
    for value in ("461.83", "463.90", "464.57"):
        text = text.replace(value, f"{float(value) * scale:.2f}")
    return parse_log(text.encode())


def test_per_node_verdicts_and_a_straggler_named(sample):
    # node plateaus 463.90, 463.90, 463.90 x 0.85 = 394.315, written 394.31; median 463.90,
    # 0.9 x 463.90 = 417.51 > 394.32 -> node-c is a straggler (and below 432)
    logs = [
        _node_log(sample, "node-a", 1.0),
        _node_log(sample, "node-b", 1.0),
        _node_log(sample, "node-c", 0.85),
    ]
    grade = grade_clause(clause("nccl_all_reduce_node"), merge_logs(logs))
    assert [(v.node, v.measured, v.passed) for v in grade.verdicts] == [
        ("node-a", 463.90, True),
        ("node-b", 463.90, True),
        ("node-c", 394.31, False),
    ]
    assert grade.stragglers == ("node-c",)
    assert not grade.passed


def test_a_straggler_above_the_threshold_still_fails(sample):
    # 0.95 x 463.90 = 440.705, written 440.70 > 432 threshold, but 3 nodes at 463.90 x 1.06 = 491.73:
    # median 491.73, 0.9 x 491.73 = 442.56 > 440.70 -> straggler
    logs = [_node_log(sample, f"n{i}", 1.06) for i in range(3)]
    logs.append(_node_log(sample, "slow", 0.95))
    grade = grade_clause(clause("nccl_all_reduce_node"), merge_logs(logs))
    slow = grade.verdicts[-1]
    assert (slow.node, slow.measured) == ("slow", 440.70)
    assert slow.measured >= slow.required
    assert "straggler" in slow.reason and not slow.passed


def test_dcgm_skips_fail_the_diag_clause(sample):
    log = parse_log(sample("dcgm_3x_r3_skipped_t400.json"), node="gpu01")
    grade = grade_clause(replace(clause("dcgm_diag_l3"), gpus=1), log)
    assert not grade.passed
    assert grade.verdicts[0].node == "gpu01"
    assert "skipped: PCIe: GPU 0 skip" in grade.verdicts[0].reason


def test_dcgm_eight_gpus_clause_against_one_gpu_log(sample):
    grade = grade_clause(
        clause("dcgm_diag_l3"), parse_log(sample("dcgm_4.2.3_diag_gb10.json"))
    )
    assert "log shows 1 GPUs, clause needs 8" in grade.verdicts[0].reason


def test_hpl_cpu_run_far_below_the_node_figure(sample):
    grade = grade_clause(
        clause("hpl_node"), parse_log(sample("hpl_xhpl_2.3_stdout.txt"), node="n1")
    )
    (v,) = grade.verdicts
    assert (v.measured, v.required, v.passed) == (1.1155, 328.86, False)


def test_fio_write_against_the_plan(sample):
    grade = grade_clause(
        clause("fio_write"), parse_log(sample("fio_3.1_seqwrite.json"))
    )
    assert grade.verdicts[0].reason == "1.79555 GB/s >= 20 not met"
    missing = grade_clause(
        clause("fio_read"), parse_log(sample("fio_3.1_seqwrite.json"))
    )
    assert missing.verdicts[0].reason == "no read_gbs figure in the log"


def test_mdtest_without_threshold_is_recorded(sample):
    grade = grade_clause(
        clause("fio_metadata"), parse_log(sample("mdtest_3.4.0_daos.txt"))
    )
    assert grade.passed and grade.verdicts[0].reason == "no threshold set"


def test_ib_write_bw_100g_nic_against_a_400g_clause(sample):
    grade = grade_clause(
        clause("ib_write_bw_nic"),
        parse_log(sample("ib_write_bw_100g_sweep.txt"), node="gpu01"),
    )
    (v,) = grade.verdicts
    assert v.node == "gpu01/mlx5_0" and v.required == 43.65 and not v.passed


def test_a_log_of_another_tool_fails_the_clause(sample):
    grade = grade_clause(clause("hpl_node"), parse_log(sample("mdtest_3.4.0_daos.txt")))
    assert grade.verdicts[0].reason.startswith("log is from mdtest, clause needs hpl")


def test_merge_refuses_mixed_tools(sample):
    with pytest.raises(ValueError, match="several tools"):
        merge_logs(
            [
                parse_log(sample("mdtest_3.4.0_daos.txt")),
                parse_log(sample("hpl_xhpl_2.3_stdout.txt")),
            ]
        )
