"""``gpu_only``: the bid prices GPU servers and skimps on what makes them a cluster
(network, storage, software), or offers less than the sizing plan needs."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from vendors.engine.compliance import PlanNeeds

from .findings import FactCode, LineItemFacts, Pitfall, PitfallCode, fact, pitfall
from .stack import offered_stack
from .text import format_figure

_SUPPORTING = {"network": "网络", "storage": "存储", "software": "软件"}
_DEPLOYING = ("installation", "support", "training")
_CODE = PitfallCode.GPU_ONLY


def detect_gpu_only(
    line_items: Sequence[LineItemFacts],
    *,
    network_gbps_per_gpu: float | None = None,
    storage_tb: float | None = None,
    storage_read_gbs: float | None = None,
    needs: PlanNeeds | None = None,
    gpu_share_limit: float = 0.90,
    scheduler: str = "",
    frameworks: Sequence[str] = (),
    proposal_text: str = "",
) -> list[Pitfall]:
    """Flag a bid that is a pile of GPU servers rather than a working cluster.

    Findings: a network, storage or software category with no priced line; otherwise
    GPU servers above ``gpu_share_limit`` of the one-off hardware cost (token network
    and storage lines; a heuristic, tune per market); and offered network/storage
    below the plan's needs. A training cluster needs one 400 Gb/s NIC per GPU and
    >= 1 GB/s per GPU storage read (hardware-facts.md section 6, items 8 and 10),
    which is why these lines matter. An open software stack (Slurm, Kubernetes,
    Prometheus...; ``stack``) is the bid's software without a paid licence line when
    the proposal text offers it, or when the scheduler/framework fields name it and a
    priced installation, support or training line deploys it: a scheduler picked from
    a list on a quote for bare servers is not a stack.
    """
    open_stack = _offers_open_stack(
        line_items, scheduler=scheduler, frameworks=frameworks, text=proposal_text
    )
    found = _missing_supporting_lines(line_items, open_stack=open_stack)
    share = _gpu_share_of_hardware(line_items)
    if not found and share > gpu_share_limit:
        found.append(
            pitfall(
                _CODE,
                f"GPU servers are {share:.0%} of the hardware cost; network and storage "
                "look under-provisioned for a cluster.",
                f"GPU 服务器占硬件成本的 {share:.0%}，网络和存储配置可能不足。",
                facts=(fact(FactCode.GPU_SHARE, share=round(share, 3)),),
                reads_prices=True,
            )
        )
    if needs is None:
        return found
    found.extend(
        _plan_shortfalls(
            needs,
            network_gbps_per_gpu=network_gbps_per_gpu,
            storage_tb=storage_tb,
            storage_read_gbs=storage_read_gbs,
        )
    )
    return found


def _offers_open_stack(
    line_items: Sequence[LineItemFacts],
    *,
    scheduler: str,
    frameworks: Sequence[str],
    text: str,
) -> bool:
    if offered_stack("", (), text).any_open:
        return True
    deployed = any(
        item.category in _DEPLOYING and item.amount_cny > 0 for item in line_items
    )
    return deployed and offered_stack(scheduler, frameworks, "").any_open


def _missing_supporting_lines(
    line_items: Sequence[LineItemFacts], *, open_stack: bool
) -> list[Pitfall]:
    """One finding per supporting category with no priced line, when GPUs are priced;
    software is covered by an open stack."""
    totals: dict[str, Decimal] = {}
    for item in line_items:
        totals[item.category] = totals.get(item.category, Decimal(0)) + item.amount_cny
    if totals.get("gpu_servers", Decimal(0)) <= 0:
        return []
    return [
        pitfall(
            _CODE,
            f"GPU servers are priced but there is no {category} line item.",
            f"报价包含 GPU 服务器，但没有{category_zh}分项。",
            facts=(fact(FactCode.NO_PRICED_LINE, category=category),),
            reads_prices=True,
        )
        for category, category_zh in _SUPPORTING.items()
        if totals.get(category, Decimal(0)) <= 0
        and not (category == "software" and open_stack)
    ]


def _gpu_share_of_hardware(line_items: Sequence[LineItemFacts]) -> float:
    """One-off GPU server cost over one-off GPU + network + storage cost (0 if none)."""
    one_off = [item for item in line_items if not item.recurring]
    hardware = sum(
        (
            item.amount_cny
            for item in one_off
            if item.category in ("gpu_servers", "network", "storage")
        ),
        Decimal(0),
    )
    gpu = sum(
        (item.amount_cny for item in one_off if item.category == "gpu_servers"),
        Decimal(0),
    )
    return float(gpu / hardware) if hardware > 0 else 0.0


def _plan_shortfalls(
    needs: PlanNeeds,
    *,
    network_gbps_per_gpu: float | None,
    storage_tb: float | None,
    storage_read_gbs: float | None,
) -> list[Pitfall]:
    """One finding per network/storage figure below (or missing against) the plan."""
    shortfalls = (
        ("network_gbps_per_gpu", "network per GPU", "每 GPU 网络带宽", "Gb/s",
         network_gbps_per_gpu, needs.network_gbps_per_gpu),
        ("storage_tb", "storage capacity", "存储容量", "TB",
         storage_tb, needs.storage_tb),
        ("storage_read_gbs", "storage read throughput", "存储读带宽", "GB/s",
         storage_read_gbs, needs.storage_read_gbs),
    )  # fmt: skip
    found: list[Pitfall] = []
    for name, label_en, label_zh, unit, offered, needed in shortfalls:
        if needed > 0 and (offered is None or offered < needed):
            needed_text = f"{format_figure(needed)} {unit}"
            if offered is None:
                en = f"Does not state its {label_en}; the sizing plan needs {needed_text}."
                zh = f"未说明{label_zh}；方案需要 {needed_text}。"
            else:
                shown = f"{format_figure(offered)} {unit}"
                en = f"Offers {shown} {label_en}; the sizing plan needs {needed_text}."
                zh = f"{label_zh}报价 {shown}，方案需要 {needed_text}。"
            found.append(
                pitfall(
                    _CODE,
                    en,
                    zh,
                    facts=(
                        fact(
                            FactCode.SHORT_OF_PLAN,
                            item=name,
                            offered=offered,
                            needed=needed,
                            unit=unit,
                        ),
                    ),
                )
            )
    return found
