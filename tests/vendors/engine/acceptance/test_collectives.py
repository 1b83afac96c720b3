"""Which collective an nccl-tests / hccl_test log is, and which clauses of a plan it
grades (``clauses_for_log``). Samples: samples/README.md; older logs (without the
"Collective test starting" line, nccl-tests before 2025-06) are derived here by
removing the program lines, so the table alone must tell."""

import re

import pytest

from vendors.engine.acceptance import (
    AcceptanceInputs,
    build_clauses,
    clauses_for_log,
    parse_log,
)
from vendors.engine.acceptance.nccl import operation_from_program

H100_2x8 = AcceptanceInputs(
    accelerator_key="h100-sxm-80gb",
    vendor_family="nvidia",
    gpu_count=16,
    nodes=2,
    gpus_per_node=8,
    scaleup_link="NVLink4",
    scaleup_bw_gbs=900,
    hbm_bw_tbs=3.35,
    fp64_tflops=67,
    nics_per_node=8,
    nic_gbps=400,
    storage_read_gbs=80,
    storage_write_gbs=40,
    workload_kind=None,
    workload_target=None,
    workload_unit=None,
)
PLAN = build_clauses(H100_2x8)


def without_program(data: bytes) -> bytes:
    """The log as nccl-tests printed it before the program line existed."""
    keep = [
        line
        for line in data.splitlines(keepends=True)
        if b"Collective test" not in line and b"nccl-tests version" not in line
    ]
    return b"".join(keep)


def keys(log):
    return [c.key for c in clauses_for_log(PLAN, log)]


@pytest.mark.parametrize(
    "name, operation",
    [
        ("nccl_alltoall_2node_16gpu.txt", "all_to_all"),
        ("nccl_all_gather_2node_gb10.txt", "all_gather"),
        ("nccl_all_reduce_2node_h100_oci.txt", "all_reduce"),
        ("nccl_all_reduce_2node_dgx_h100_sweep.txt", "all_reduce"),
    ],
)
def test_the_table_tells_the_collective_without_the_program_line(
    sample, name, operation
):
    assert parse_log(without_program(sample(name))).operation == operation


def test_the_program_line_names_the_collective(sample):
    log = parse_log(sample("nccl_alltoall_2node_16gpu.txt"))
    assert log.operation == "all_to_all"
    assert log.tool_version == "2.18.3"
    assert log.hosts == ("R6KD-CX8aaS-GPU-14", "R6KD-CX8aaS-GPU-15")
    assert log.gpu_count == 16
    # rows >= 2 GiB (a quarter of 8 GiB): 17.49, 24.97, 32.65 -> median 24.97
    assert [m.value for m in log.measurements] == [24.97]
    # alltoall never checks its in-place result: the "N/A" column is no failure
    assert log.failures == ()
    assert operation_from_program("all_gather_perf_mpi") == "all_gather"
    assert operation_from_program("/opt/nccl-tests/build/alltoall_perf") == "all_to_all"


def test_all_gather_reads_the_whole_buffer_in_its_size_column(sample):
    # size 1073741824 B = 134217728 floats x 4 B x 2 ranks; busbw = algbw x 1/2
    log = parse_log(without_program(sample("nccl_all_gather_2node_gb10.txt")))
    assert log.operation == "all_gather" and log.gpu_count == 2
    # rows >= 1 GiB: 19.73, 21.23, 22.14 -> 21.23
    assert [m.value for m in log.measurements] == [21.23]
    assert keys(log) == []  # the plan has no all-gather test


def test_reduce_scatter_is_told_apart_by_its_redop(sample):
    # 134217728 B = 16777216 floats x 4 B x 2 ranks, redop "sum": reduce_scatter.
    # The excerpt stops at 128 MiB and has no footer; one is added so it parses.
    data = sample("nccl_reduce_scatter_2rank_excerpt.txt") + (
        b"# Out of bounds values : 0 OK\n"
    )
    for variant in (data, without_program(data)):
        log = parse_log(variant)
        assert log.operation == "reduce_scatter"
        assert log.failures == (
            "largest message 134217728 B is below the 1 GiB plateau floor",
        )


def test_alltoall_with_validation_off_cannot_be_told_from_all_gather(sample):
    # -c 0: both #wrong columns "N/A" -> the table cannot tell; every collective
    # clause of the tool's scope remains and the caller asks which
    data = without_program(sample("nccl_alltoall_2node_16gpu.txt"))
    data = re.sub(rb"(?m)^(\s+(?:\S+\s+){8})0(?=\s)", rb"\1N/A", data)
    log = parse_log(data)
    assert log.operation is None
    assert "validation off (#wrong N/A) at 1024 B" in log.failures
    assert keys(log) == ["nccl_all_reduce_fabric", "nccl_all_to_all_fabric"]


def test_clauses_for_log_by_collective_and_hosts(sample):
    fabric = parse_log(sample("nccl_all_reduce_2node_h100_oci.txt"))
    assert keys(fabric) == ["nccl_all_reduce_fabric"]
    assert keys(parse_log(sample("nccl_alltoall_2node_16gpu.txt"))) == [
        "nccl_all_to_all_fabric"
    ]
    # one node's log (its ranks on one host) grades the in-node clause
    text = sample("nccl_all_reduce_2node_h100_oci.txt").replace(
        b"inst-yyyyy-h100-ol89", b"inst-xxxxx-h100-ol89"
    )
    assert keys(parse_log(text)) == ["nccl_all_reduce_node"]


@pytest.mark.parametrize(
    "name, node, expected",
    [
        ("dcgm_3.1.0_diag_8gpu.json", "gpu-01", ["dcgm_diag_l3"]),
        ("hpl_xhpl_2.3_stdout.txt", "gpu-01", ["hpl_node"]),
        ("fio_3.1_seqwrite.json", None, ["fio_write"]),
        ("fio_3.42_randwrite_json_and_normal.txt", None, ["fio_write"]),
        ("mdtest_3.4.0_daos.txt", None, ["fio_metadata"]),
        ("ib_write_bw_100g_sweep.txt", "gpu-01", ["ib_write_bw_nic"]),
    ],
)
def test_clauses_for_log_of_the_other_tools(sample, name, node, expected):
    assert keys(parse_log(sample(name), node=node)) == expected


def test_hccl_on_a_named_node_grades_the_node_clause(sample):
    ascend = build_clauses(
        AcceptanceInputs(
            **{
                **H100_2x8.__dict__,
                "accelerator_key": "ascend910b-oam-64gb",
                "vendor_family": "huawei",
                "scaleup_link": "HCCS",
                "scaleup_bw_gbs": 392,
            }
        )
    )
    # hccl_test prints neither the collective nor the hosts: with the node it ran
    # on named, the in-node clause; without, every HCCL collective (the caller asks)
    log = parse_log(sample("hccl_all_reduce_test_8npu.txt"), node="npu-01")
    assert log.operation is None
    assert [c.key for c in clauses_for_log(ascend, log)] == ["hccl_all_reduce_node"]
    anywhere = parse_log(sample("hccl_all_reduce_test_8npu.txt"))
    assert [c.key for c in clauses_for_log(ascend, anywhere)] == [
        "hccl_all_reduce_node",
        "hccl_all_reduce_fabric",
        "hccl_all_to_all_fabric",
    ]
