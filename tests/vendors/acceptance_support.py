"""Shared builders for the acceptance tests (no tests here): a decided bid for a
2-node, 16 x H100 cluster and the engine's real-format sample logs."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.vendors.test_support import at_decision_stage, make_bid, make_vendor
from vendors.services import decisions

SAMPLES = Path(__file__).parent / "engine" / "acceptance" / "samples"
#: 2 x BM.GPU.H100.8 (OCI), 16 ranks, all_reduce_perf -b 1G -e 16G -f 2: 463.90
#: GB/s busbw at 8 GiB, 464.57 at 16 GiB (the sample's README names the source).
NCCL_2NODE = "nccl_all_reduce_2node_h100_oci.txt"
#: 2 x 8 GPUs, alltoall_perf -b 1k -e 8G (nccl-tests 2.18.3, prints its program):
#: plateau (>= 2 GiB) 17.49, 24.97, 32.65 GB/s busbw -> 24.97.
ALLTOALL_2NODE = "nccl_alltoall_2node_16gpu.txt"
RATIONALE = "均衡方案，服务最好。Balanced design, best service."


def sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def wrong_elements(data: bytes) -> bytes:
    """The 2-node run with 3 wrong elements at 8 GiB (a faulty GPU corrupts data):
    the bandwidth still clears the threshold, the run fails."""
    row = b"34719  247.41  463.90      0"
    assert row in data
    return data.replace(row, b"34719  247.41  463.90      3")


def legacy_unchecked(data: bytes) -> bytes:
    """The log as an nccl-tests older than the program line prints it, run with
    validation off (-c 0): every #wrong "N/A", so the table cannot tell alltoall
    from all_gather."""
    lines = [
        line
        for line in data.splitlines(keepends=True)
        if b"Collective test" not in line and b"nccl-tests version" not in line
    ]
    return re.sub(rb"(?m)^(\s+(?:\S+\s+){8})0(?=\s)", rb"\1N/A", b"".join(lines))


def one_node_all_reduce(data: bytes, host: str, busbw_gbs: float) -> bytes:
    """The 2-node OCI all-reduce made one node's 8-GPU run: ranks 8-15 dropped, the
    host renamed, every row's busbw scaled so the 8 GiB row (the plateau's median)
    reads ``busbw_gbs``, and algbw = busbw x 8 / 14 (all-reduce on 8 ranks:
    busbw = algbw x 2(n-1)/n)."""
    factor = busbw_gbs / 463.90
    out = []
    for line in data.decode().splitlines():
        fields = line.split()
        if line.startswith("#  Rank") and int(fields[2]) >= 8:
            continue
        if len(fields) == 13 and fields[0].isdigit():
            for bus in (7, 11):
                value = round(float(fields[bus]) * factor, 2)
                fields[bus] = f"{value:.2f}"
                fields[bus - 1] = f"{value * 8 / 14:.2f}"
            line = "  ".join(fields)
        out.append(line.replace("inst-xxxxx-h100-ol89", host))
    return ("\n".join(out) + "\n").encode()


def load_catalog() -> None:
    call_command("load_catalog", stdout=open("/dev/null", "w"))


def decided_bid(procurement, org, manager, *, gpu_count=16, nodes=2, **values):
    """A bid for 16 x H100 SXM in 2 nodes (or as given) with an SLA, chosen by the
    manager."""
    load_catalog()
    bid = make_bid(
        procurement,
        make_vendor(org, "Balanced Systems"),
        gpu_count=gpu_count,
        nodes=nodes,
        delivery_weeks=6,
        response_hours={"sev1": 4},
        availability_pct=99.5,
        warranty_years=Decimal(3),
        **values,
    )
    at_decision_stage(procurement)
    decisions.record_decision(
        procurement=procurement,
        user=manager,
        bid=bid,
        rationale=RATIONALE,
        # 16 GPUs are a quarter of the plan's 64: the first phase, an override
        override_reason="第一期先交付 2 台。Phase one: 2 nodes first.",
    )
    return bid


@pytest.fixture
def decided(planned, org, procurement, manager):  # noqa: F811
    return decided_bid(procurement, org, manager)
