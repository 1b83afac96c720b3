"""The acceptance plan: the tests in order, each with its command and threshold.

Order (issue 26): per node (DCGM level 3, GPU stress, HBM bandwidth), NVLink / HCCS
collectives in each node, each NIC, cross-node all-reduce and all-to-all over the
rails, HPL per node, storage (fio read / write, mdtest metadata), the workload
benchmark, burn-in. Thresholds come from ``envelopes`` (published figures, cited)
scaled to the accelerator's datasheet figures passed in ``AcceptanceInputs``; the
bid's ``promised`` figures tighten a threshold, never loosen it.
"""

from __future__ import annotations

from dataclasses import replace

from . import envelopes as env
from .records import AcceptanceInputs, ClauseSpec

NCCL_SWEEP = "-b 1G -e 16G -f 2"
HCCL_SWEEP = "-b 1G -e 8G -f 2 -d fp32 -o sum"


def _clause(
    key: str,
    tool: str,
    metric: str,
    unit: str,
    comparison: str,
    required: float | None,
    scope: str,
    command: str,
    source: str,
    basis: str,
    **extra,
) -> ClauseSpec:
    return ClauseSpec(
        key=key,
        order=0,
        category="technical",
        tool=tool,
        metric=metric,
        unit=unit,
        comparison=comparison,
        required=None if required is None else round(required, 2),
        scope=scope,
        command=command,
        source=source,
        basis=basis,
        **extra,
    )


def _nvlink_node_busbw(inputs: AcceptanceInputs) -> tuple[float, str, str]:
    """Expected 8-GPU all-reduce busbw from the per-direction scale-up rate."""
    per_direction = inputs.scaleup_bw_gbs / 2.0
    nvls = any(
        tag in inputs.scaleup_link.replace(" ", "") for tag in ("NVLink4", "NVLink5")
    )
    if nvls:
        share, source = env.NVLS_BUSBW_PER_LINE_RATE, env.NVLS_SOURCE
        how = "NVLS 480/450"
    else:
        share, source = env.RING_BUSBW_PER_LINE_RATE, env.RING_SOURCE
        how = "ring 235/300"
    expected = share * per_direction
    basis = (
        f"{env.FRACTION} x {how} x {per_direction:g} GB/s per direction"
        f" ({inputs.scaleup_bw_gbs:g} GB/s bidirectional, datasheet)"
        f" = {env.FRACTION * expected:.2f} GB/s busbw"
    )
    return env.FRACTION * expected, source, basis


def _per_node(inputs: AcceptanceInputs, huawei: bool) -> list[ClauseSpec]:
    g = inputs.gpus_per_node
    if huawei:
        diag = _clause(
            "dcgm_diag_l3",
            "manual",
            "pass",
            "",
            "pass",
            None,
            "node",
            "ascend-dmi -dg -i  (Ascend DMI diagnostics, every NPU)",
            "Huawei Ascend DMI tool",
            "every diagnostic passes; none skipped",
            gpus=g,
        )
    else:
        diag = _clause(
            "dcgm_diag_l3",
            "dcgm",
            "pass",
            "",
            "pass",
            None,
            "node",
            "dcgmi diag -r 3 -j > dcgm_$(hostname).json",
            "NVIDIA DCGM diagnostics, run level 3",
            "every test Pass on every GPU; Skip, Warn or Fail fails",
            gpus=g,
        )
    stress = _clause(
        "gpu_stress",
        "manual",
        "pass",
        "",
        "pass",
        None,
        "node",
        "gpu_burn -d 3600  (wilicc/gpu-burn, all GPUs, 1 h)",
        "GPU stress: no errors, no throttling",
        "0 errors on every GPU",
    )
    triad = env.FRACTION * env.HBM_EFFICIENCY * inputs.hbm_bw_tbs
    hbm = _clause(
        "hbm_bandwidth",
        "manual",
        "triad_tbs",
        "TB/s",
        ">=",
        triad,
        "node",
        "BabelStream cuda-stream (Triad, 2^29 doubles) on each GPU",
        env.HBM_SOURCE,
        f"{env.FRACTION} x (2.97/3.35) x {inputs.hbm_bw_tbs:g} TB/s datasheet",
    )
    return [diag, stress, hbm]


def _collectives_nvidia(inputs: AcceptanceInputs) -> list[ClauseSpec]:
    g, n = inputs.gpus_per_node, inputs.nodes
    node_bw, source, basis = _nvlink_node_busbw(inputs)
    found = [
        _clause(
            "nccl_all_reduce_node",
            "nccl",
            "busbw_gbs",
            "GB/s",
            ">=",
            node_bw,
            "node",
            f"all_reduce_perf {NCCL_SWEEP} -g {g}",
            source,
            basis,
            gpus=g,
            operation="all_reduce",
        )
    ]
    line_gbs = inputs.nic_gbps / 8.0
    ib = env.FRACTION * env.IB_WRITE_BW_LINE_SHARE * line_gbs
    found.append(
        _clause(
            "ib_write_bw_nic",
            "ib_write_bw",
            "bw_gbs",
            "GB/s",
            ">=",
            ib,
            "nic",
            "ib_write_bw -d mlx5_<i> -s 65536 -F -D 10 --report_gbits <peer>",
            env.IB_SOURCE,
            f"{env.FRACTION} x 0.97 x {inputs.nic_gbps:g} Gb/s / 8 line rate",
        )
    )
    if n < 2:
        return found
    return found + _fabric_nvidia(inputs, node_bw)


def _fabric_nvidia(inputs: AcceptanceInputs, node_bw: float) -> list[ClauseSpec]:
    """Cross-node all-reduce and all-to-all over the rails."""
    g, n = inputs.gpus_per_node, inputs.nodes
    found: list[ClauseSpec] = []
    rails = inputs.nics_per_node * inputs.nic_gbps
    if n == 2:
        ref = env.TWO_NODE_8RAIL_GBS * rails / (8 * 400.0)
        how, src = (
            f"470 GB/s (2 nodes, 8x400G) x {rails:g}/3200 Gb/s",
            env.TWO_NODE_SOURCE,
        )
    else:
        ref = env.NCCL_GBS_PER_NIC_GBPS * rails
        how, src = f"0.12 GB/s per NIC Gb/s x {rails:g} Gb/s per node", env.NIC_SOURCE
    expected = min(ref, node_bw / env.FRACTION)
    total = inputs.gpu_count
    mpirun = f"mpirun -np {total} -N {g}"
    found.append(
        _clause(
            "nccl_all_reduce_fabric",
            "nccl",
            "busbw_gbs",
            "GB/s",
            ">=",
            env.FRACTION * expected,
            "cluster",
            f"{mpirun} all_reduce_perf {NCCL_SWEEP} -g 1",
            src,
            f"{env.FRACTION} x min({how}, node NVLink figure)",
            gpus=total,
            operation="all_reduce",
        )
    )
    a2a = env.FRACTION * env.ALL_TO_ALL_LINE_SHARE * rails / 8.0 / g
    found.append(
        _clause(
            "nccl_all_to_all_fabric",
            "nccl",
            "busbw_gbs",
            "GB/s",
            ">=",
            a2a,
            "cluster",
            f"{mpirun} alltoall_perf {NCCL_SWEEP} -g 1",
            env.NIC_SOURCE,
            f"{env.FRACTION} x 0.80 x {rails:g} Gb/s / 8 / {g} GPUs per node (assumed"
            " share: no published all-to-all figure found)",
            gpus=total,
            operation="all_to_all",
        )
    )
    return found


def _collectives_huawei(inputs: AcceptanceInputs) -> list[ClauseSpec]:
    g = inputs.gpus_per_node
    hccs = inputs.scaleup_bw_gbs or env.ASCEND_910B_HCCS_GBS
    busbw = env.RING_BUSBW_PER_LINE_RATE * hccs / 2.0
    algbw = busbw * g / (2.0 * (g - 1)) if g > 1 else busbw
    found = [
        _clause(
            "hccl_all_reduce_node",
            "hccl",
            "algbw_gbs",
            "GB/s",
            ">=",
            env.FRACTION * algbw,
            "node",
            f"mpirun -n {g} ./bin/all_reduce_test {HCCL_SWEEP} -p {g}",
            env.ASCEND_SOURCE,
            f"{env.FRACTION} x ring share 0.78 x {hccs:g}/2 GB/s, as algbw ="
            f" busbw x {g}/(2 x {g - 1})",
            gpus=g,
            operation="all_reduce",
        )
    ]
    if inputs.nodes >= 2:
        rails = inputs.nics_per_node * inputs.nic_gbps
        total = inputs.gpu_count
        bus = min(env.NCCL_GBS_PER_NIC_GBPS * rails, busbw)
        alg = bus * total / (2.0 * (total - 1))
        found.append(
            _clause(
                "hccl_all_reduce_fabric",
                "hccl",
                "algbw_gbs",
                "GB/s",
                ">=",
                env.FRACTION * alg,
                "cluster",
                f"mpirun -n {total} -hostfile hostfile ./bin/all_reduce_test {HCCL_SWEEP}"
                f" -p {g}",
                f"{env.ASCEND_SOURCE}; {env.NIC_SOURCE}",
                f"{env.FRACTION} x min(0.12 x {rails:g} Gb/s, HCCS ring) as algbw",
                gpus=total,
                operation="all_reduce",
            )
        )
        found.append(
            _clause(
                "hccl_all_to_all_fabric",
                "hccl",
                "algbw_gbs",
                "GB/s",
                ">=",
                env.FRACTION * env.ALL_TO_ALL_LINE_SHARE * rails / 8.0 / g,
                "cluster",
                f"mpirun -n {total} -hostfile hostfile ./bin/alltoall_test {HCCL_SWEEP}"
                f" -p {g}",
                env.ASCEND_SOURCE,
                "0.9 x 0.80 x line rate per NPU (assumed share; no Huawei figure)",
                gpus=total,
                operation="all_to_all",
            )
        )
    return found


def _hpl_and_storage(inputs: AcceptanceInputs) -> list[ClauseSpec]:
    found = []
    if inputs.fp64_tflops:
        peak = inputs.fp64_tflops * inputs.gpus_per_node
        found.append(
            _clause(
                "hpl_node",
                "hpl",
                "tflops",
                "TFLOPS",
                ">=",
                env.FRACTION * env.HPL_EFFICIENCY * peak,
                "node",
                f"mpirun -np {inputs.gpus_per_node} ./hpl.sh --dat HPL.dat"
                "  (NVIDIA HPC-Benchmarks container; residual must be PASSED)",
                "; ".join(x for x in (env.HPL_SOURCE, inputs.fp64_source) if x),
                f"{env.FRACTION} x (365.4/536) x {peak:g} TFLOPS FP64 peak per node"
                f" ({inputs.gpus_per_node} x {inputs.fp64_tflops:g})",
            )
        )
    fio = (
        "fio --name={0} --rw={0} --bs=1M --direct=1 --numjobs=16 --iodepth=32"
        " --size=16G --group_reporting --output-format=json"
    )
    for direction, target in (
        ("read", inputs.storage_read_gbs),
        ("write", inputs.storage_write_gbs),
    ):
        if target:
            found.append(
                _clause(
                    f"fio_{direction}",
                    "fio",
                    f"{direction}_gbs",
                    "GB/s",
                    ">=",
                    target,
                    "cluster",
                    fio.format(direction),
                    "the sizing plan's storage throughput",
                    f"1.0 x the plan's {direction} throughput {target:g} GB/s",
                )
            )
    found.append(
        _clause(
            "fio_metadata",
            "mdtest",
            "creates_per_s",
            "ops/s",
            ">=",
            None,
            "cluster",
            "mpirun -np 64 mdtest -F -C -T -r -n 10000 -u -d /mnt/<fs>/mdtest",
            "mdtest (hpc/ior), IO500 metadata tool",
            "no plan figure: recorded, or the bid's promised create rate",
        )
    )
    return found


def workload_comparison(unit: str | None, kind: str | None) -> tuple[str, str]:
    """(metric, comparison) of the workload clause, from its unit: a step time in
    seconds is a ceiling ("<="), a throughput (tokens/s, samples/s ...) a floor
    (">="); without a unit, training means step time and serving throughput
    (acceptance_changes.md, request 5)."""
    if unit is None:
        unit = "s" if kind == "training" else "tokens/s"
    if unit == "s":
        return "step_time_s", "<="
    return "tokens_per_s" if unit == "tokens/s" else "throughput", ">="


def _workload_and_burn_in(inputs: AcceptanceInputs) -> list[ClauseSpec]:
    found = []
    if inputs.workload_kind and inputs.workload_target:
        training = inputs.workload_kind == "training"
        unit = inputs.workload_unit or ("s" if training else "tokens/s")
        metric, comparison = workload_comparison(unit, inputs.workload_kind)
        if not training:
            command = "the plan's model: serving throughput at the SLO"
        elif comparison == "<=":
            command = (
                "the plan's model: training step time (median of 100 steps after"
                " warm-up)"
            )
        else:
            command = (
                "the plan's model: training throughput (tokens/s over 100 steps after"
                " warm-up, the cluster's sum)"
            )
        found.append(
            _clause(
                "workload",
                "workload",
                metric,
                unit,
                comparison,
                inputs.workload_target,
                "cluster",
                command,
                "the sizing plan's prediction",
                "1.0 x the plan's figure",
            )
        )
    found.append(
        _clause(
            "burn_in",
            "burn_in",
            "hours",
            "h",
            ">=",
            float(inputs.burn_in_hours),
            "cluster",
            f"full-load run for {inputs.burn_in_hours} h (training job or gpu_burn) with"
            " no XID, ECC or link error",
            env.BURN_IN_SOURCE,
            f"{inputs.burn_in_hours} h without a hardware error",
        )
    )
    return found


def _tighten(clause: ClauseSpec, promised: float | None) -> ClauseSpec:
    if promised is None or clause.comparison == "pass":
        return clause
    if clause.required is None:
        return replace(
            clause, required=promised, basis=f"the bid's promise {promised:g}"
        )
    better = max if clause.comparison == ">=" else min
    tight = better(clause.required, promised)
    if tight == clause.required:
        return clause
    return replace(
        clause,
        required=tight,
        basis=f"{clause.basis}; tightened to the bid's promise {promised:g}",
    )


def build_clauses(inputs: AcceptanceInputs) -> tuple[ClauseSpec, ...]:
    huawei = inputs.vendor_family == "huawei"
    clauses = _per_node(inputs, huawei)
    clauses += _collectives_huawei(inputs) if huawei else _collectives_nvidia(inputs)
    clauses += _hpl_and_storage(inputs)
    clauses += _workload_and_burn_in(inputs)
    promised = inputs.promised or {}
    return tuple(
        replace(_tighten(c, promised.get(c.key)), order=i + 1)
        for i, c in enumerate(clauses)
    )
