"""The power a bid is costed at: the catalogue's for the offered server, the bid's
claim checked against it.

Identical hardware draws the same power, so every bid is costed at the catalogue's
server maximum for its accelerator (sizing/data/servers.csv, or GPU TDP x 10.2/5.6
where no server power is published: sizing.engine.platform). A claim is only a
check: within +/-25 % of the catalogue it is plausible; outside, it is flagged and
never used (issue 24: 232 x H20 costed at 296 kW in one bid and 168 kW in another).
The claim is used only when the catalogue knows nothing of the accelerator; then
GPU count x 10.2/8 kW when there is no claim either.
"""

from __future__ import annotations

from dataclasses import dataclass

from .inputs import IT_POWER_KW_PER_GPU

#: A claim within this share of the catalogue figure is plausible (server power
#: varies by OEM build and CPU, DGX H100 max 10.2 kW against 6.5-8.5 kW typical draw,
#: cost-figures.md); beyond it the figure is another product or a GPU-TDP sum.
PLAUSIBLE_SHARE = 0.25


@dataclass(frozen=True)
class BidPower:
    used_kw: float
    source: str  # catalogue | claim | default
    catalogue_kw: float | None
    claimed_kw: float | None
    claim_status: str  # plausible | implausible | not_stated | unchecked


def claim_status(claimed_kw: float | None, catalogue_kw: float | None) -> str:
    if claimed_kw is None or claimed_kw <= 0:
        return "not_stated"
    if not catalogue_kw:
        return "unchecked"
    share = abs(claimed_kw - catalogue_kw) / catalogue_kw
    return "plausible" if share <= PLAUSIBLE_SHARE + 1e-9 else "implausible"


def power_for_tco(
    *, gpu_count: int, catalogue_kw: float | None, claimed_kw: float | None
) -> BidPower:
    """The kW the TCO uses, where it comes from, and what the claim is worth."""
    status = claim_status(claimed_kw, catalogue_kw)
    if catalogue_kw:
        return BidPower(catalogue_kw, "catalogue", catalogue_kw, claimed_kw, status)
    if status == "unchecked":
        assert claimed_kw is not None
        return BidPower(claimed_kw, "claim", None, claimed_kw, status)
    return BidPower(
        max(1, gpu_count) * IT_POWER_KW_PER_GPU, "default", None, claimed_kw, status
    )


def catalogue_power_kw(
    *, gpu_count: int, gpus_per_node: int, node_max_kw: float | None
) -> float | None:
    """Nodes x the server's maximum power (a partial node counts whole)."""
    if not node_max_kw or gpus_per_node <= 0 or gpu_count <= 0:
        return None
    nodes = -(-gpu_count // gpus_per_node)
    return round(nodes * node_max_kw, 4)
