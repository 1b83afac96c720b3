"""The server an accelerator comes in, and the bandwidths the sizing uses.

When the catalogue has no server for an accelerator, a generic 8-GPU node is derived:
node power = GPU TDP sum x 10.2 / 5.6 (DGX H100 max power over its eight 700 W GPUs,
hardware-facts.md section 4: server power is not 8 x TDP), one 400G NIC per GPU.
"""

from __future__ import annotations

from functools import lru_cache

from .catalog import Accelerator, Catalog, ServerPlatform
from .parallelism import Fabric

NODE_POWER_PER_GPU_TDP = 10.2 / 5.6
DEFAULT_NIC_GBPS = 400.0


def server_for(acc: Accelerator, catalog: Catalog) -> ServerPlatform:
    return _server_for(acc, catalog)


@lru_cache(maxsize=256)
def _server_for(acc: Accelerator, catalog: Catalog) -> ServerPlatform:
    server = catalog.server_for(acc.key)
    if server is not None and server.node_max_kw:
        return server
    gpus = server.gpus_per_node if server else 8
    if acc.server_8gpu_max_kw and gpus == 8:
        node_kw = acc.server_8gpu_max_kw
    else:
        node_kw = gpus * (acc.tdp_w or 700.0) / 1000.0 * NODE_POWER_PER_GPU_TDP
    if server is not None:
        return ServerPlatform(
            **{
                **server.__dict__,
                "node_max_kw": node_kw,
                "source": server.source + "; node power derived",
            }
        )
    return ServerPlatform(
        key=f"generic-8x-{acc.key}",
        name=f"Generic 8x {acc.name} server",
        accelerator_key=acc.key,
        gpus_per_node=8,
        node_max_kw=node_kw,
        nic_count=8,
        nic_gbps=DEFAULT_NIC_GBPS,
        source="derived: 8 GPUs, node kW = TDP sum x 10.2/5.6 (DGX H100 ratio), 1x 400G NIC "
        "per GPU",
    )


def fabric_for(acc: Accelerator, server: ServerPlatform) -> Fabric:
    """Per-GPU, per-direction GB/s. Vendor scale-up figures are bidirectional: halve them."""
    pcie = acc.pcie_gbs_each_way
    scaleup = (
        acc.scaleup_gbs / 2.0
        if acc.scaleup_gbs and acc.scaleup_domain_gpus > 1
        else pcie
    )
    scaleout = server.nic_count * server.nic_gbps / 8.0 / server.gpus_per_node
    return Fabric(
        scaleup_gbs=scaleup,
        scaleup_domain=acc.scaleup_domain_gpus,
        pcie_gbs=pcie,
        scaleout_gbs=max(scaleout, 1e-3),
        gpus_per_node=server.gpus_per_node,
    )
