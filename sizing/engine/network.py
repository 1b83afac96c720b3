"""Scale-out fabric: bandwidth per GPU, NICs, fabric kind and the fat tree.

NICs never exceed the server platform's: its compute NIC count and top speed (DGX H100:
8 x ConnectX-7 400G, so never 800G or XDR; DGX B300: 8 x ConnectX-8 800G). The switch
count is right-sized for the nodes (``fat_tree``); the scalable-unit design with room to
grow is reported beside it as an option.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import Catalog, NetworkOption
from .explain import Explainer
from .fat_tree import explain_fat_tree

NIC_SPEEDS_GBPS = (200.0, 400.0, 800.0)
# InfiniBand above this many nodes for training; RoCE below (heuristic, documented).
IB_MIN_NODES = 32
NIC_MARGIN = 1.25  # headroom over the computed need before picking a NIC speed
SRC_NICS = (
    "servers.csv nic_count, nic_gbps (DGX H100/H200/B200: 8 x ConnectX-7 400G; "
    "DGX B300: 8 x ConnectX-8 800G; hardware-facts.md 2a)"
)
SECTION = "interconnect"


def choose_fabric(
    kind_needed: str, nic_gbps: float, catalog: Catalog, ecosystem: str = ""
) -> NetworkOption | None:
    """The catalogue switch of the fabric kind at the NIC speed. A row made for one
    ecosystem (Gaudi 3's on-die ports, Huawei's switches for Ascend) is offered only
    to accelerators of that ecosystem: a 910B cluster never gets Gaudi NIC ports."""
    usable = [
        n
        for n in catalog.networks.values()
        if not n.ecosystem or n.ecosystem == ecosystem
    ]
    own = [n for n in usable if n.kind == kind_needed and n.ecosystem == ecosystem]
    options = own if ecosystem and own else []
    if not options:
        options = [n for n in usable if n.kind == kind_needed]
    if not options:
        options = usable
    if not options:
        return None
    at_speed = [n for n in options if n.port_gbps >= nic_gbps]
    pool = at_speed or options
    return (
        min(pool, key=lambda n: (n.port_gbps, -n.switch_radix))
        if at_speed
        else max(pool, key=lambda n: n.port_gbps)
    )


def size_interconnect(
    *,
    nodes: int,
    gpus: int,
    gpus_per_node: int,
    scaleup_domain: int,
    tensor: int,
    need_gbps_per_gpu: float,
    server_nic_count: int,
    server_nic_gbps: float,
    training: bool,
    ecosystem: str,
    preferred_fabric: str | None,
    catalog: Catalog,
    ex: Explainer,
    cross_node_replica: bool = False,
) -> dict:
    """The interconnect section; every quantity is also explained in ``ex``.

    ``cross_node_replica``: a serving replica spans nodes (expert, tensor or pipeline
    parallelism over the NICs). Its timing assumed the platform's NICs at full speed
    (``platform.fabric_for``), so the bill of materials carries those NICs on an RDMA
    fabric: published cross-node MoE serving (DeepEP, SGLang large-scale EP, Kimi K2
    deployment guide) runs RDMA with one 400G NIC per GPU."""
    rdma = training or cross_node_replica
    out: dict = {}
    _explain_scale_up(
        out,
        ex,
        scaleup_domain=scaleup_domain,
        tensor=tensor,
        need_gbps_per_gpu=need_gbps_per_gpu,
    )
    multi_node = nodes > 1
    nics = _explain_nics(
        out,
        ex,
        multi_node=multi_node,
        training=training,
        need_gbps_per_gpu=need_gbps_per_gpu,
        platform=_PlatformNics(gpus_per_node, server_nic_count, server_nic_gbps),
        cross_node_replica=cross_node_replica,
    )
    fabric = _explain_fabric_kind(
        out,
        ex,
        nodes=nodes,
        training=rdma,
        ecosystem=ecosystem,
        preferred_fabric=preferred_fabric,
    )
    option = (
        choose_fabric(fabric, nics.nic_gbps, catalog, ecosystem) if multi_node else None
    )
    rail = bool(
        multi_node and rdma and nics.per_node == gpus_per_node and gpus_per_node > 1
    )
    radix = _explain_switch(out, ex, option=option, rail_optimized=rail)
    explain_fat_tree(
        out, ex, nodes=nodes, nics_per_node=nics.per_node, radix=radix, rail=rail
    )
    return out


def _explain_scale_up(
    out: dict,
    ex: Explainer,
    *,
    scaleup_domain: int,
    tensor: int,
    need_gbps_per_gpu: float,
) -> None:
    """The scale-up domain, whether tensor parallelism stays in it, and the scale-out
    bandwidth each GPU needs beyond it."""
    ex.put(
        out,
        SECTION,
        "scaleup_domain_gpus",
        scaleup_domain,
        unit="GPUs",
        formula="accelerator's NVLink/xGMI/HCCS/UB domain size",
        source="accelerators.csv scaleup_domain_gpus",
    )
    ex.put(
        out,
        SECTION,
        "tensor_parallel_in_domain",
        tensor <= scaleup_domain,
        unit="bool",
        formula="tensor <= scaleup_domain_gpus",
        inputs={"tensor": tensor, "domain": scaleup_domain},
        source="Narayanan et al. 2021: keep TP inside the NVLink domain",
    )
    ex.put(
        out,
        SECTION,
        "scale_out_gbps_per_gpu",
        need_gbps_per_gpu,
        unit="Gbit/s",
        formula="(DP ring all-reduce bytes + PP activation bytes per step) x 8 "
        "/ (2/3 x step time) / 0.8 collective efficiency",
        source="ring all-reduce 2(N-1)/N x bytes (sizing-formulas section 8); "
        "NCCL ~80 % of link rate (hardware-facts 2c)",
    )


@dataclass(frozen=True)
class _PlatformNics:
    """What the server ships with: GPUs per node, compute NICs and their top speed."""

    gpus_per_node: int
    nic_count: int
    nic_gbps: float


@dataclass(frozen=True)
class _NicPlan:
    per_node: int
    nic_gbps: float
    formula: str


def _nic_plan(
    *,
    multi_node: bool,
    training: bool,
    need_gbps_per_gpu: float,
    platform: _PlatformNics,
    cross_node_replica: bool = False,
) -> _NicPlan:
    """Rail-optimised training: one NIC per GPU; a serving replica across nodes: the
    platform's NICs at their speed, the figure its timing used; other inference and
    one node need little. Never more NICs, nor faster ones, than the platform has."""
    count_cap = platform.nic_count or platform.gpus_per_node
    top_gbps = platform.nic_gbps or NIC_SPEEDS_GBPS[1]
    if multi_node and cross_node_replica and not training:
        return _NicPlan(
            count_cap,
            top_gbps,
            "a serving replica spans nodes (expert/tensor/pipeline parallel over the "
            "NICs): the platform's compute NICs at their top speed, the bandwidth the "
            "serving timing assumed (one figure), on RDMA",
        )
    if multi_node and training:
        wanted_gbps = need_gbps_per_gpu * NIC_MARGIN
        speed_gbps = next(
            (v for v in NIC_SPEEDS_GBPS if v >= wanted_gbps), NIC_SPEEDS_GBPS[-1]
        )
        return _NicPlan(
            min(platform.gpus_per_node, count_cap),
            min(max(speed_gbps, min(top_gbps, 400.0)), top_gbps),
            "one NIC per GPU (rail-optimised) up to the platform's NIC count; speed "
            "the smallest of 200/400/800G >= 1.25 x need, at least the platform's "
            "NIC up to 400G, never above the platform's top NIC speed",
        )
    if multi_node:
        return _NicPlan(
            min(max(1, math.ceil(platform.gpus_per_node / 4)), count_cap),
            min(200.0, top_gbps),
            "inference replicas exchange little: 1 x 200G NIC per 4 GPUs",
        )
    return _NicPlan(
        0, 0.0, "single node: no scale-out fabric needed (front-end Ethernet only)"
    )


def _explain_nics(
    out: dict,
    ex: Explainer,
    *,
    multi_node: bool,
    training: bool,
    need_gbps_per_gpu: float,
    platform: _PlatformNics,
    cross_node_replica: bool = False,
) -> _NicPlan:
    ex.put(
        out,
        SECTION,
        "platform_nics",
        platform.nic_count,
        unit="NICs",
        formula="compute NICs the server platform ships with",
        inputs={"top_nic_gbps": platform.nic_gbps},
        source=SRC_NICS,
    )
    ex.put(
        out,
        SECTION,
        "platform_nic_gbps",
        platform.nic_gbps,
        unit="Gbit/s",
        formula="top speed of the platform's compute NICs (the fabric's cap)",
        source=SRC_NICS,
    )
    nics = _nic_plan(
        multi_node=multi_node,
        training=training,
        need_gbps_per_gpu=need_gbps_per_gpu,
        platform=platform,
        cross_node_replica=cross_node_replica,
    )
    ex.put(
        out,
        SECTION,
        "nics_per_node",
        nics.per_node,
        unit="NICs",
        formula=nics.formula,
        inputs={"need_gbps_per_gpu": need_gbps_per_gpu},
        source=SRC_NICS,
    )
    ex.put(
        out,
        SECTION,
        "nic_gbps",
        nics.nic_gbps,
        unit="Gbit/s",
        formula=nics.formula,
        source=SRC_NICS,
    )
    return nics


def _fabric_kind(
    *,
    nodes: int,
    training: bool,
    ecosystem: str,
    preferred_fabric: str | None,
) -> tuple[str, str]:
    """The fabric kind and why (engine heuristic, docs/methodology.md)."""
    if nodes <= 1:
        return "none", "single node"
    if preferred_fabric:
        return preferred_fabric, "buyer's preference"
    if not training:
        return "ethernet", "inference replicas within a node each: plain Ethernet"
    if ecosystem in ("cann", "synapseai"):
        return "roce", "Ascend and Gaudi scale out over RoCE"
    if nodes > IB_MIN_NODES:
        return "infiniband", f"training beyond {IB_MIN_NODES} nodes: InfiniBand"
    return "roce", f"training up to {IB_MIN_NODES} nodes: RoCE"


def _explain_fabric_kind(
    out: dict,
    ex: Explainer,
    *,
    nodes: int,
    training: bool,
    ecosystem: str,
    preferred_fabric: str | None,
) -> str:
    fabric, why = _fabric_kind(
        nodes=nodes,
        training=training,
        ecosystem=ecosystem,
        preferred_fabric=preferred_fabric,
    )
    return ex.put(
        out,
        SECTION,
        "fabric",
        fabric,
        unit="",
        formula=why,
        inputs={"nodes": nodes, "training": training},
        source="engine heuristic (docs/methodology.md)",
    )


def _explain_switch(
    out: dict, ex: Explainer, *, option: NetworkOption | None, rail_optimized: bool
) -> int:
    """Rail layout and the catalogue switch; returns its radix (0 when none)."""
    ex.put(
        out,
        SECTION,
        "rail_optimized",
        rail_optimized,
        unit="bool",
        formula="training, one NIC per GPU: NIC i of every node on rail-i leaves",
        source="NVIDIA DGX SuperPOD reference architecture",
    )
    source = option.source if option else ""
    ex.put(
        out,
        SECTION,
        "switch",
        option.key if option else None,
        unit="",
        formula="fabric kind at the NIC speed from network.csv",
        source=source,
    )
    return ex.put(
        out,
        SECTION,
        "switch_radix",
        option.switch_radix if option else 0,
        unit="ports",
        formula="switch ports at NIC speed",
        source=source,
    )
