"""``gpu_only``: the bid prices GPU servers and skimps on what makes them a cluster
(network, storage, software), or offers less than the sizing plan needs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from tco.engine.basis_words import basis_in
from tco.engine.bill_of_materials import ClusterScale, PriceBook
from vendors.engine.compliance import PlanNeeds
from vendors.engine.line_scope import line_scope

from .findings import FactCode, LineItemFacts, Pitfall, PitfallCode, fact, pitfall
from .plan_bom import FLOOR_SHARE, PlanBom, plan_bom
from .stack import offered_stack
from .text import format_figure

_SUPPORTING = {"network": "网络", "storage": "存储", "software": "软件"}
_DEPLOYING = ("installation", "support", "training")
_CODE = PitfallCode.GPU_ONLY
SCALE_OUT_MIN_GBPS = 200


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
    network_need_gbps_per_gpu: float | None = None,
    plan_scale: ClusterScale | None = None,
    price_book: PriceBook | None = None,
) -> list[Pitfall]:
    """Flag a bid that is a pile of GPU servers rather than a working cluster.

    Findings: a network, storage or software category with no priced line (a lump sum
    whose declared scope or description covers the category covers it,
    ``line_scope``); network or storage lines below half of what the plan's bill of
    materials at the plan's scale costs at the TCO's price book (``plan_bom``:
    switches and links by count, storage by TB at its tier - what a 12-node cluster
    needs, not a fixed share of the GPU cost; ``plan_scale`` is the plan's design,
    ``price_book`` the rows the caller read, without which this check is skipped);
    and offered
    network/storage below the plan's needs - the network per GPU the offered GPU
    needs (``network_need_gbps_per_gpu``, the caller's: the plan's figure scaled by the
    offered GPU's compute, since the traffic to hide behind compute grows with it; a
    910B at a third of an H200 is served by 200 Gb/s where the H200 plan asks 400).
    Without a plan, GPU servers above
    ``gpu_share_limit`` of the one-off hardware cost (a heuristic) stand in. A training cluster needs one 400 Gb/s NIC per GPU and
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
    if needs is not None and price_book is not None:
        scale = plan_scale or scale_of(needs)
        found.extend(_below_plan_bom(line_items, plan_bom(scale, price_book)))
    share = _gpu_share_of_hardware(line_items)
    if needs is None and not found and share > gpu_share_limit:
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
    if network_need_gbps_per_gpu is not None:
        needs = replace(needs, network_gbps_per_gpu=network_need_gbps_per_gpu)
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
    totals = _category_totals(line_items)
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


def _covers(item: LineItemFacts, category: str) -> bool:
    """A line of another category whose price also covers ``category``: its declared
    scope, else a description that states it ("服务包，含网络、存储及安装";
    ``line_scope``, the same rule the TCO reads)."""
    return category in line_scope(item.category, item.description, item.scope)


def _category_totals(line_items: Sequence[LineItemFacts]) -> dict[str, Decimal]:
    """Priced amount per category; a lump sum with a declared scope counts for each
    category it covers (so it is never missing), at its whole amount."""
    totals: dict[str, Decimal] = {}
    for item in line_items:
        totals[item.category] = totals.get(item.category, Decimal(0)) + item.amount_cny
        for category in line_scope(item.category, item.description, item.scope):
            totals[category] = totals.get(category, Decimal(0)) + item.amount_cny
    return totals


def scale_of(needs: PlanNeeds) -> ClusterScale:
    """The plan's design when the caller gives none: its GPUs in 8-GPU servers, one
    400 Gb/s NIC per GPU when the plan asks 200 Gb/s or more per GPU (rail-optimised,
    hardware-facts.md section 6, item 8), else no scale-out fabric; its storage."""
    return ClusterScale(
        gpu_count=needs.gpu_count,
        nics_per_node=None if needs.network_gbps_per_gpu >= SCALE_OUT_MIN_GBPS else 0,
        storage_tb=max(needs.storage_tb, 0.0) or None,
    )


def _below_plan_bom(line_items: Sequence[LineItemFacts], bom: PlanBom) -> list[Pitfall]:
    """One finding per network/storage category priced, but below half of what the
    plan's bill of materials costs (``plan_bom``); a missing category is the
    missing-line finding."""
    totals = _category_totals([i for i in line_items if not i.recurring])
    found = []
    for category, label_en, label_zh in (
        ("network", "network", "网络"),
        ("storage", "storage", "存储"),
    ):
        offered = totals.get(category, Decimal(0))
        cost = bom.cost(category)
        floor = (cost * FLOOR_SHARE).quantize(Decimal(1))
        if floor <= 0 or offered <= 0 or offered >= floor:
            continue
        found.append(
            pitfall(
                _CODE,
                f"The {label_en} lines total {offered:,.0f}, under half of the "
                f"{cost:,.0f} that what the plan needs ({bom.basis(category)}) costs "
                f"at the price book: at least {floor:,.0f}.",
                f"{label_zh}分项合计 {offered:,.0f}，不到方案所需（"
                f"{basis_in(bom.basis(category), 'zh')}）"
                f"按价格库计 {cost:,.0f} 的一半（{floor:,.0f}）。",
                facts=(
                    fact(
                        FactCode.PLAN_BOM,
                        category=category,
                        # plain numbers: facts are stored as JSON (a decision
                        # freezes the comparison)
                        offered_cny=float(offered),
                        cost_cny=float(cost),
                        floor_cny=float(floor),
                        basis=bom.basis(category),
                    ),
                ),
                reads_prices=True,
            )
        )
    return found


def _gpu_share_of_hardware(line_items: Sequence[LineItemFacts]) -> float:
    """One-off GPU server cost over one-off GPU + network + storage cost (0 if none)."""
    one_off = [item for item in line_items if not item.recurring]
    hardware = sum(
        (
            item.amount_cny
            for item in one_off
            if item.category in ("gpu_servers", "network", "storage")
            or _covers(item, "network")
            or _covers(item, "storage")
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
