"""A bid's hardware claims checked against the datasheet of the accelerator it offers.

Vendors restate datasheet figures in their proposals and get them wrong often enough
to matter (shared/reference/hardware-facts.md section 5: "H100 96GB HBM3e", sparse
TFLOPS sold as dense, "8xH100 server 4.8 kW", NVLink of the wrong generation). This
module reads the bid's text fields and proposal (Chinese and English) for claims of
memory per GPU, HBM type, tensor TFLOPS per precision (dense or sparse), 8-GPU server
power, scale-up (NVLink) bandwidth and generation and NIC speed, and compares each
with the catalog row of the offered accelerator (`Accelerator`, built from
``sizing/data/accelerators.csv`` columns, each row with its ``source``).

A claim is attributed to the accelerator named nearest before it in its sentence; a
claim about another part ("unlike the A100 40GB") or another SKU of the same part
("H100 PCIe" in an SXM bid) is not this bid's and is left out, because a false flag on
an honest vendor is as harmful as a miss. A claim with no model named before it is
the offered accelerator's. Status: ``ok``, ``mismatch`` or ``unverifiable`` (the
catalog has no figure for it, or the claim does not say what it measures).

Tolerances (each is the widest honest variation found in the sources):

- Memory per GPU: within 7% of the catalog. Usable vs physical capacity (B200 180 GB
  usable, 192 GB physical: +6.7%; H100 NVL 94/96; H200 141/144) and GB vs GiB (80 GB =
  74.5 GiB: -6.9%) [hardware-facts.md 0 and 6.11]. H100 SXM 80 GB claimed as 96 GB is
  +20%: a mismatch.
- Memory type: the HBM generation must be the catalog's (HBM2e / HBM3 / HBM3e); an HBM
  claim on a GDDR part is a mismatch.
- TFLOPS: within 10% of the dense catalog figure, or of twice it when the claim says
  "with sparsity" / 稀疏 / 2:4 (NVIDIA prints sparse figures = 2 x dense, hardware-facts
  0). 10% covers clock-dependent peaks (Gaudi 3 1,835 at 1,750 MHz vs 1,677 at 1,600
  MHz, -8.6%; MI355X 2,300 vs 2,500 in ml-engineering's two tables). A sparse figure
  not labelled sparse, or labelled dense / 稠密, is a mismatch ("sparse sold as
  dense"). Per-server (8 GPUs) and cluster totals are divided by 8 / the GPU count
  when the sentence says so.
- Server power: an 8-GPU server claim is ok between 80% and 110% of the platform
  maximum (DGX H100/H200 10.2 kW, DGX B200 14.3 kW, DGX A100 6.5 kW: NVIDIA DGX user
  guides via hardware-facts 4); a claim labelled typical / 典型 / 平均 may go down to
  60% (6.5-8.5 kW typical for DGX H100 = 64-83% of 10.2 kW, supercluster.blog via
  hardware-facts 4). "8xH100 server 4.8 kW" is 47%: a mismatch. The bid's peak power
  field, spread over its 8-GPU servers, is flagged only below 80% (it may include the
  fabric and storage).
- Scale-up bandwidth: within 5% of the catalog's bidirectional per-GPU figure (NVLink
  3 600, NVLink 4 900, NVLink 5 1,800 GB/s; H800 400; MLE network README via
  hardware-facts 2a), or of half of it when labelled per direction / 单向. The NVLink
  generation must be the catalog's.
- NIC speed: a named InfiniBand generation or ConnectX NIC runs at most EDR 100, HDR
  200, NDR 400, XDR 800 Gb/s; ConnectX-6 200, ConnectX-7 400, ConnectX-8 800,
  BlueField-3 400 Gb/s (IBTA rates and NVIDIA NIC specs via stas00/ml-engineering
  network/README.md, hardware-facts 2a). A claim above its generation's rate is a
  mismatch; below it is ok (NDR200 split ports exist).
"""

from __future__ import annotations

from sizing.engine.catalog import Accelerator

from .compute import tflops_claims
from .facts import (
    BidSpec,
    ClaimKind,
    ClaimStatus,
    SpecClaim,
    datasheet_from_row,
)
from .links import bandwidth_claims, generation_claims, nic_claims
from .memory import memory_claims, memory_type_claims
from .power import peak_power_claims, server_power_claims
from .reading import sentences

__all__ = [
    "BidSpec",
    "ClaimKind",
    "ClaimStatus",
    "SpecClaim",
    "check_spec_claims",
    "datasheet_from_row",
]


def check_spec_claims(bid: BidSpec, sheet: Accelerator | None) -> list[SpecClaim]:
    """Every claim found in ``bid`` checked against ``sheet`` (None when the offered
    accelerator is not in the catalog: every claim is then unverifiable), in the
    order memory, memory type, compute, power, scale-up, NIC; a claim repeated word
    for word is listed once."""
    texts = sentences(bid)
    found = [
        *memory_claims(texts, sheet),
        *memory_type_claims(texts, sheet),
        *tflops_claims(texts, sheet, bid.gpu_count),
        *server_power_claims(texts, sheet),
        *peak_power_claims(bid, sheet),
        *generation_claims(texts, sheet),
        *bandwidth_claims(texts, sheet),
        *nic_claims(texts),
    ]
    seen: set[tuple] = set()
    claims = []
    for claim in found:
        key = (claim.kind, claim.claimed, claim.status)
        if key not in seen:
            seen.add(key)
            claims.append(claim)
    return claims
