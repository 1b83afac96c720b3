"""The records the acceptance engine takes and returns (the contract with the app:
/work/helpers/acceptance_contract.md). Frozen dataclasses over plain values; no Django.

A log becomes a ``ParsedLog`` (``parse_log``), a plan becomes ``ClauseSpec`` rows
(``build_clauses``), and a clause graded against a log becomes a ``ClauseGrade``
(``grade_clause``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TOOLS = ("nccl", "dcgm", "hpl", "fio", "ib_write_bw", "hccl", "mdtest")
# mdtest was added after the contract's first version: the metadata clause is graded
# with mdtest's rate table (IO500's metadata tool), fio having no create rate.


class LogFormatError(ValueError):
    """A log the engine cannot grade: unreadable (not text / not JSON), truncated
    (the tool's closing lines are missing) or foreign (no known tool wrote it). The
    message says which, in English, for the API's 400 answer."""


@dataclass(frozen=True)
class AcceptanceInputs:
    accelerator_key: (
        str  # sizing catalog key, e.g. "h200-sxm-141gb", "ascend910b-oam-64gb"
    )
    vendor_family: str  # "nvidia" | "huawei" | "other" (Ascend -> HCCL tests)
    gpu_count: int
    nodes: int
    gpus_per_node: int
    scaleup_link: str  # e.g. "NVLink4", "HCCS"
    scaleup_bw_gbs: float  # per-GPU scale-up bandwidth from the datasheet (catalog)
    hbm_bw_tbs: float  # per-GPU memory bandwidth from the datasheet
    fp64_tflops: float | None  # per GPU (HPL); None -> HPL clause omitted
    nics_per_node: int  # compute-fabric NICs per node
    nic_gbps: float  # per NIC line rate, e.g. 400
    storage_read_gbs: float | None
    storage_write_gbs: float | None
    workload_kind: str | None  # "training" | "serving" | None
    workload_target: float | None  # training step time s (<=) or serving tokens/s (>=)
    workload_unit: str | None
    burn_in_hours: int = 72
    # The bid's own promises, keyed by clause key (or metric), to tighten, never loosen.
    promised: Mapping[str, float] = field(default_factory=dict)
    # Where fp64_tflops comes from (the sizing catalog's fp64_source), cited by HPL.
    fp64_source: str = ""


@dataclass(frozen=True)
class ClauseSpec:
    key: str  # stable, e.g. "dcgm_diag_l3", "nccl_all_reduce_node", ...
    order: int
    category: str  # "technical" | "service" | "safety"
    tool: str  # one of TOOLS, or "workload" / "burn_in" / "manual"
    metric: str  # e.g. "busbw_gbs", "bw_gbs", "tflops", "read_gbs", "pass"
    unit: str  # "GB/s", "TFLOPS", "h", "" for pass/fail
    comparison: str  # ">=" | "<=" | "pass"
    required: float | None
    scope: str  # "node" | "nic" | "cluster"
    command: str  # the exact command line to run
    source: str  # citation of the threshold
    basis: str  # how the threshold was derived, English
    gpus: int | None = None  # GPUs the log must show (None: not checked)
    operation: str | None = None  # collective the log must be ("all_reduce", ...)


@dataclass(frozen=True)
class Measurement:
    metric: str
    value: float
    unit: str
    node: str | None = None  # hostname when the log shows it
    size_bytes: int | None = None  # message/transfer size (collectives, ib_write_bw)


@dataclass(frozen=True)
class ParsedLog:
    tool: str
    tool_version: str | None
    operation: str | None  # "all_reduce", "all_to_all", "read", "write", "diag", ...
    hosts: tuple[str, ...]
    gpu_count: int | None
    measurements: tuple[Measurement, ...]  # graded figures only
    failures: tuple[str, ...]  # e.g. "#wrong = 3 at 8589934592 B"
    skipped: tuple[str, ...]  # tests skipped (a skipped test is not a pass)


@dataclass(frozen=True)
class Verdict:
    clause: str
    node: str | None
    measured: float | None
    required: float | None
    unit: str
    passed: bool
    reason: str  # English, short, for logs; the app words it


@dataclass(frozen=True)
class ClauseGrade:
    clause: str
    passed: bool
    verdicts: tuple[Verdict, ...]  # one per node/NIC where scope says so, else one
    stragglers: tuple[str, ...]  # nodes well below the fleet median
