"""Scale-out fabric: bandwidth per GPU, NICs, fabric kind and the fat tree.

Fat tree (hardware-facts.md 2b, checked against NVIDIA RA-11333-001 Table 4): radix k,
endpoints E; two tiers while E <= k^2/2: leaves ceil(E / (k/2)) (per rail when
rail-optimised), spines ceil(leaves x (k/2) / k); three tiers beyond, with pods of k/2
leaves and k/2 spines and ceil(aggregation / 2) core switches (E <= k^3/4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import Catalog, NetworkOption
from .explain import Explainer

NIC_SPEEDS_GBPS = (200.0, 400.0, 800.0)
# InfiniBand above this many nodes for training; RoCE below (heuristic, documented).
IB_MIN_NODES = 32
NIC_MARGIN = 1.25  # headroom over the computed need before picking a NIC speed
SRC_FATTREE = "hardware-facts.md 2b; NVIDIA DGX SuperPOD RA-11333-001 Table 4"


@dataclass(frozen=True)
class FatTree:
    tiers: int
    leaf: int
    spine: int
    core: int
    node_leaf_cables: int
    leaf_spine_cables: int
    spine_core_cables: int


def fat_tree(
    nodes: int, nics_per_node: int, radix: int, rail_optimized: bool
) -> FatTree:
    endpoints = nodes * nics_per_node
    half = radix // 2
    if endpoints <= 0:
        return FatTree(0, 0, 0, 0, 0, 0, 0)
    if endpoints <= radix:
        return FatTree(1, 1, 0, 0, endpoints, 0, 0)
    if rail_optimized:
        leaf = nics_per_node * math.ceil(nodes / half)
    else:
        leaf = math.ceil(endpoints / half)
    if endpoints <= radix * radix // 2:
        spine = math.ceil(leaf * half / radix)
        return FatTree(2, leaf, spine, 0, endpoints, leaf * half, 0)
    pods = math.ceil(leaf / half)
    aggregation = pods * half
    core = math.ceil(aggregation * half / radix)
    return FatTree(
        3, leaf, aggregation, core, endpoints, leaf * half, aggregation * half
    )


def choose_fabric(
    kind_needed: str, nic_gbps: float, catalog: Catalog
) -> NetworkOption | None:
    options = [n for n in catalog.networks.values() if n.kind == kind_needed]
    if not options:
        options = list(catalog.networks.values())
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
) -> dict:
    out: dict = {}
    s = "interconnect"
    ex.put(
        out,
        s,
        "scaleup_domain_gpus",
        scaleup_domain,
        "GPUs",
        "accelerator's NVLink/xGMI/HCCS/UB domain size",
        {},
        "accelerators.csv scaleup_domain_gpus",
    )
    ex.put(
        out,
        s,
        "tensor_parallel_in_domain",
        tensor <= scaleup_domain,
        "bool",
        "tensor <= scaleup_domain_gpus",
        {"tensor": tensor, "domain": scaleup_domain},
        "Narayanan et al. 2021: keep TP inside the NVLink domain",
    )
    ex.put(
        out,
        s,
        "scale_out_gbps_per_gpu",
        need_gbps_per_gpu,
        "Gbit/s",
        "(DP ring all-reduce bytes + PP activation bytes per step) x 8 / (2/3 x step "
        "time) / 0.8 collective efficiency",
        {},
        "ring all-reduce 2(N-1)/N x bytes (sizing-formulas section 8); NCCL ~80 % of "
        "link rate (hardware-facts 2c)",
    )
    multi_node = nodes > 1
    if multi_node and training:
        wanted = need_gbps_per_gpu * NIC_MARGIN
        speed = next((v for v in NIC_SPEEDS_GBPS if v >= wanted), NIC_SPEEDS_GBPS[-1])
        speed = max(speed, min(server_nic_gbps, 400.0))
        nics = gpus_per_node
        formula = (
            "one NIC per GPU (rail-optimised), smallest of 200/400/800G >= 1.25 x "
            "need, at least the platform's standard NIC up to 400G"
        )
    elif multi_node:
        speed, nics = 200.0, max(1, math.ceil(gpus_per_node / 4))
        formula = "inference replicas exchange little: 1 x 200G NIC per 4 GPUs"
    else:
        speed, nics = 0.0, 0
        formula = "single node: no scale-out fabric needed (front-end Ethernet only)"
    ex.put(
        out,
        s,
        "nics_per_node",
        nics,
        "NICs",
        formula,
        {"need_gbps_per_gpu": need_gbps_per_gpu},
        "hardware-facts 2a: DGX one 400G NIC per GPU",
    )
    ex.put(out, s, "nic_gbps", speed, "Gbit/s", formula, {}, "hardware-facts 2a")
    if not multi_node:
        fabric = "none"
        why = "single node"
    elif preferred_fabric:
        fabric, why = preferred_fabric, "buyer's preference"
    elif not training:
        fabric, why = "ethernet", "inference replicas: plain Ethernet suffices"
    elif ecosystem in ("cann", "synapseai"):
        fabric, why = "roce", "Ascend and Gaudi scale out over RoCE"
    elif nodes > IB_MIN_NODES:
        fabric, why = "infiniband", f"training beyond {IB_MIN_NODES} nodes: InfiniBand"
    else:
        fabric, why = "roce", f"training up to {IB_MIN_NODES} nodes: RoCE"
    ex.put(
        out,
        s,
        "fabric",
        fabric,
        "",
        why,
        {"nodes": nodes, "training": training},
        "engine heuristic (docs/methodology.md)",
    )
    option = choose_fabric(fabric, speed, catalog) if multi_node else None
    rail = bool(multi_node and training and nics == gpus_per_node and gpus_per_node > 1)
    ex.put(
        out,
        s,
        "rail_optimized",
        rail,
        "bool",
        "training, one NIC per GPU: NIC i of every node on rail-i leaves",
        {},
        "NVIDIA DGX SuperPOD reference architecture",
    )
    radix = option.switch_radix if option else 0
    ex.put(
        out,
        s,
        "switch",
        option.key if option else None,
        "",
        "fabric kind at the NIC speed from network.csv",
        {},
        option.source if option else "",
    )
    ex.put(
        out,
        s,
        "switch_radix",
        radix,
        "ports",
        "switch ports at NIC speed",
        {},
        option.source if option else "",
    )
    tree = (
        fat_tree(nodes, nics, radix, rail)
        if multi_node and radix
        else FatTree(0, 0, 0, 0, 0, 0, 0)
    )
    inputs = {"nodes": nodes, "nics_per_node": nics, "radix": radix}
    ex.put(
        out,
        s,
        "fat_tree_tiers",
        tree.tiers,
        "tiers",
        "1 if E <= k, 2 if E <= k^2/2, else 3",
        inputs,
        SRC_FATTREE,
    )
    ex.put(
        out,
        s,
        "leaf_switches",
        tree.leaf,
        "switches",
        "rails x ceil(nodes / (k/2)) rail-optimised, else ceil(E / (k/2))",
        inputs,
        SRC_FATTREE,
    )
    ex.put(
        out,
        s,
        "spine_switches",
        tree.spine,
        "switches",
        "ceil(leaf x (k/2) / k) (two tiers); pods x k/2 (three tiers)",
        inputs,
        SRC_FATTREE,
    )
    ex.put(
        out,
        s,
        "core_switches",
        tree.core,
        "switches",
        "ceil(aggregation x (k/2) / k)",
        inputs,
        SRC_FATTREE,
    )
    cables = tree.node_leaf_cables + tree.leaf_spine_cables + tree.spine_core_cables
    ex.put(
        out,
        s,
        "cables",
        cables,
        "cables",
        "E (node-leaf) + leaf x k/2 (leaf-spine) + aggregation x k/2 (spine-core)",
        inputs,
        SRC_FATTREE,
    )
    return out
