"""Switch and cable counts of a fat tree: right-sized, plus the scalable-unit option.

Radix k ports at NIC speed, E = nodes x NICs per node endpoints (hardware-facts.md 2b).
One switch while E <= k. Two tiers while E <= k^2/2; three tiers beyond, with pods of
k/2 leaves and k/2 aggregation switches and ceil(aggregation x (k/2) / k) core
switches (E <= k^3/4).

Right-sized two tiers: rail-optimised leaves take whole rails (NIC i of every node), as
many rails per leaf as k/2 down ports hold, so 9 nodes need 3 leaves, not 8; each leaf
has as many up links as down links (1:1), rounded up to a multiple of the spines so it
reaches every spine evenly; spines = ceil(E / k). For full scalable units this is NVIDIA
RA-11333-001 Table 4 (31 / 63 / 127 nodes: 8 / 16 / 32 leaves, 4 / 8 / 16 spines,
256 / 512 / 1,024 leaf-spine cables). The scalable-unit design (one leaf per rail per
k/2 nodes, full up links) is the growth option: it is reported beside the count, never
added to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .explain import Explainer

SRC_FATTREE = "hardware-facts.md 2b; NVIDIA DGX SuperPOD RA-11333-001 Table 4"
SECTION = "interconnect"


@dataclass(frozen=True)
class FatTree:
    tiers: int
    leaf: int
    spine: int
    core: int
    node_leaf_cables: int
    leaf_spine_cables: int
    spine_core_cables: int
    max_nodes: int  # nodes the leaves' down ports can take without a new leaf

    @property
    def switches(self) -> int:
        return self.leaf + self.spine + self.core

    @property
    def cables(self) -> int:
        return self.node_leaf_cables + self.leaf_spine_cables + self.spine_core_cables


NO_FAT_TREE = FatTree(0, 0, 0, 0, 0, 0, 0, 0)


def fat_tree(
    nodes: int, nics_per_node: int, radix: int, rail_optimized: bool
) -> FatTree:
    """The right-sized fat tree for ``nodes``."""
    endpoints = nodes * nics_per_node
    if endpoints <= 0 or nics_per_node <= 0:
        return NO_FAT_TREE
    if endpoints <= radix:
        return FatTree(1, 1, 0, 0, endpoints, 0, 0, radix // nics_per_node)
    if endpoints > radix * radix // 2:
        return _three_tiers(nodes, nics_per_node, radix, rail_optimized)
    half = radix // 2
    downlinks = _leaf_downlinks(nodes, nics_per_node, half, rail_optimized)
    spine = math.ceil(endpoints / radix)
    uplinks = sum(min(half, spine * math.ceil(d / spine)) for d in downlinks)
    return FatTree(
        2,
        len(downlinks),
        spine,
        0,
        endpoints,
        uplinks,
        0,
        _leaf_capacity_nodes(
            nodes, nics_per_node, half, len(downlinks), rail_optimized
        ),
    )


def _leaf_capacity_nodes(
    nodes: int, nics_per_node: int, half: int, leaves: int, rail_optimized: bool
) -> int:
    if not rail_optimized:
        return leaves * half // nics_per_node
    if nodes <= half:
        return half // (half // nodes)  # r whole rails per leaf: r x n <= k/2
    return math.ceil(nodes / half) * half


def scalable_unit(nodes: int, nics_per_node: int, radix: int) -> FatTree:
    """The rail-optimised scalable-unit design (DGX SuperPOD): one leaf per rail per
    k/2 nodes, every leaf fully cabled up; it takes up to leaves-per-rail x k/2 nodes."""
    half = radix // 2
    if nodes * nics_per_node <= radix or nodes * nics_per_node > radix * radix // 2:
        return fat_tree(nodes, nics_per_node, radix, True)
    per_rail = math.ceil(nodes / half)
    leaf = nics_per_node * per_rail
    spine = math.ceil(leaf * half / radix)
    return FatTree(
        2, leaf, spine, 0, nodes * nics_per_node, leaf * half, 0, per_rail * half
    )


def _leaf_downlinks(
    nodes: int, nics_per_node: int, half: int, rail_optimized: bool
) -> list[int]:
    """Down ports in use on each leaf."""
    endpoints = nodes * nics_per_node
    if not rail_optimized:
        full, rest = divmod(endpoints, half)
        return [half] * full + ([rest] if rest else [])
    if nodes <= half:  # several whole rails per leaf
        rails_per_leaf = half // nodes
        full, rest = divmod(nics_per_node, rails_per_leaf)
        return [rails_per_leaf * nodes] * full + ([rest * nodes] if rest else [])
    per_rail, rest = divmod(nodes, half)  # each rail spans several leaves
    leaves_per_rail = per_rail + (1 if rest else 0)
    base, extra = divmod(nodes, leaves_per_rail)
    rail = [base + 1] * extra + [base] * (leaves_per_rail - extra)
    return rail * nics_per_node


def _three_tiers(
    nodes: int, nics_per_node: int, radix: int, rail_optimized: bool
) -> FatTree:
    endpoints = nodes * nics_per_node
    half = radix // 2
    if rail_optimized:
        leaf = nics_per_node * math.ceil(nodes / half)
    else:
        leaf = math.ceil(endpoints / half)
    pods = math.ceil(leaf / half)
    aggregation = pods * half
    core = math.ceil(aggregation * half / radix)
    max_nodes = leaf * half // nics_per_node
    return FatTree(
        3,
        leaf,
        aggregation,
        core,
        endpoints,
        leaf * half,
        aggregation * half,
        max_nodes,
    )


# (result key, FatTree field, unit, formula) of the switch counts, in explained order.
_FAT_TREE_COUNTS = (
    ("fat_tree_tiers", "tiers", "tiers", "1 if E <= k, 2 if E <= k^2/2, else 3"),
    (
        "leaf_switches",
        "leaf",
        "switches",
        "right-sized: whole rails per leaf within k/2 down ports (rail-optimised), "
        "else ceil(E / (k/2)); three tiers: rails x ceil(nodes / (k/2))",
    ),
    (
        "spine_switches",
        "spine",
        "switches",
        "ceil(E / k) (two tiers, 1:1); pods x k/2 (three tiers)",
    ),
    ("core_switches", "core", "switches", "ceil(aggregation x (k/2) / k)"),
    (
        "fabric_max_nodes",
        "max_nodes",
        "nodes",
        "nodes the leaves' down ports take before another leaf is needed",
    ),
)


def explain_fat_tree(
    out: dict, ex: Explainer, *, nodes: int, nics_per_node: int, radix: int, rail: bool
) -> None:
    """Switch and cable counts of the right-sized fat tree (none for one node), and the
    scalable-unit design as a growth option."""
    sized = nodes > 1 and radix
    tree = fat_tree(nodes, nics_per_node, radix, rail) if sized else NO_FAT_TREE
    inputs = {"nodes": nodes, "nics_per_node": nics_per_node, "radix": radix}
    for key, attribute, unit, formula in _FAT_TREE_COUNTS:
        ex.put(
            out,
            SECTION,
            key,
            getattr(tree, attribute),
            unit=unit,
            formula=formula,
            inputs=inputs,
            source=SRC_FATTREE,
        )
    ex.put(
        out,
        SECTION,
        "cables",
        tree.cables,
        unit="cables",
        formula="E (node-leaf) + leaf up links (leaf-spine) + aggregation x k/2 "
        "(spine-core)",
        inputs=inputs,
        source=SRC_FATTREE,
    )
    unit_tree = scalable_unit(nodes, nics_per_node, radix) if sized else NO_FAT_TREE
    ex.put(
        out,
        SECTION,
        "growth_option",
        _growth_option(tree, unit_tree) if rail else None,
        unit="",
        formula="scalable-unit design (one leaf per rail per k/2 nodes, full up "
        "links): switches it adds and the nodes it then takes; an option, not in "
        "the count",
        inputs=inputs,
        source="NVIDIA DGX SuperPOD RA-11333-001 (scalable units of 32 nodes)",
    )


def _growth_option(tree: FatTree, unit_tree: FatTree) -> dict | None:
    if unit_tree.switches <= tree.switches and unit_tree.max_nodes <= tree.max_nodes:
        return None
    return {
        "max_nodes": unit_tree.max_nodes,
        "leaf_switches": unit_tree.leaf,
        "spine_switches": unit_tree.spine,
        "added_switches": unit_tree.switches - tree.switches,
        "added_cables": unit_tree.cables - tree.cables,
    }
