"""The blind corpus of issue 24 as the detectors read it (tests/vendors/blind_bids/).

The bids were written by someone who had not seen the detector code, given only the
procurement (PROCUREMENT.md) and the kind of bid; each carries the flags it should
raise (``expected``). Odd ids are the calibration half (the rules were tuned on them),
even ids the validation half (run once, after the rules were frozen).

The procurement fixture follows PROCUREMENT.md: 96 x H200 in 12 nodes, 8 x 400 Gb/s
per node, 1.1 PB usable at 40/20 GB/s, ~125 kW IT, air cooling; training of a dense
70B on 200 B tokens (BF16), LoRA of Qwen3-32B, serving Qwen3-235B-A22B to 200 users at
32k context (FP8); 200 TB of data; Shanghai. What a bid's hardware achieves is the
sizing engine's (``sizing.engine.estimate``) for the bid's accelerator and GPU count,
and the training lower bound is sizing's rule (6N + attention FLOPs per token at MFU
0.6, ``sizing.services.summary.training_lower_bound_days``), computed here from the
pure engine.
"""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal
from pathlib import Path

from sizing.engine import Constraints, SizingInputError, estimate, workload_from_dict
from sizing.engine.model import training_flops_per_token
from sizing.reference_data import load_catalog
from tco.engine.bill_of_materials import ClusterScale
from tco.price_book import price_book
from vendors.engine.compliance import PlanNeeds
from vendors.engine.detectors import (
    BidFacts,
    FactCode,
    LineItemFacts,
    Pitfall,
    PitfallCode,
    ProcurementFacts,
    detect_all,
    network_need_for,
)

CORPUS = Path(__file__).resolve().parent.parent / "blind_bids"
DETECTORS = (
    "gpu_only",
    "over_promising",
    "template_proposal",
    "closed_ecosystem",
    "delivery_below_floor",
)
MFU_CEILING = 0.6  # sizing.services.summary.MFU_CEILING
NEEDS = PlanNeeds(
    gpu_count=96,
    vram_gb_per_gpu=141,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1100,
    storage_read_gbs=40,
    storage_write_gbs=20,
    it_power_kw=125,
    cooling="air",
    ecosystem=None,
)
# The plan's design (PROCUREMENT.md): 12 HGX servers, 8 x 400 Gb/s NICs each on 64-port
# switches, rail-optimised; 1.1 PB usable at 40 GB/s read = 3.33 GB/s per node, above
# the 'Better' tier's 1.25 and within the 'Best' tier's 3.9 (sizing/data/storage.csv).
PLAN_SCALE = ClusterScale(
    gpu_count=96,
    gpus_per_node=8,
    nics_per_node=8,
    nic_gbps=400,
    switch_radix=64,
    rail_optimized=True,
    storage_tb=1100,
    storage_tier="pfs-best",
)
_ACCELERATORS = (
    (re.compile(r"H200", re.I), "h200-sxm-141gb"),
    (re.compile(r"H20(?!0)", re.I), "h20-sxm-96gb"),
    (re.compile(r"910\s*B|昇腾|Ascend", re.I), "ascend910b-oam-64gb"),
    (re.compile(r"L20(?!0)", re.I), "l20-pcie-48gb"),
    (re.compile(r"H100", re.I), "h100-sxm-80gb"),
    (re.compile(r"H800", re.I), "h800-sxm-80gb"),
)


@functools.lru_cache(maxsize=1)
def bids() -> tuple[dict, ...]:
    return tuple(
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(CORPUS.glob("bids/bid_*.json"))
    )


@functools.lru_cache(maxsize=1)
def rfp_text() -> str:
    path = CORPUS / "rfp_text.md"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def half(name: str) -> list[dict]:
    parity = 1 if name == "calibration" else 0
    return [b for b in bids() if int(b["id"]) % 2 == parity]


def accelerator_key(text: str) -> str | None:
    for pattern, key in _ACCELERATORS:
        if pattern.search(text or ""):
            return key
    return None


@functools.lru_cache(maxsize=32)
def engine_figures(key: str | None, gpu_count: int) -> tuple[float | None, ...]:
    """(training lower bound days, engine training days, engine serving tokens/s,
    dense BF16 peak TFLOPS per GPU)."""
    if key is None or gpu_count <= 0:
        return (None, None, None, None)
    catalog = load_catalog()
    acc = catalog.accelerators[key]
    training = workload_from_dict(
        {
            "kind": "training",
            "model": {"preset": "llama-3.1-70b"},
            "tokens_b": 200,
            "gpu_count": gpu_count,
            "precision": "bf16",
        },
        catalog,
    )
    per_token, _ = training_flops_per_token(
        training.model, training.seq_len, "none", None
    )
    peak = acc.peak_tflops("bf16") or 0
    bound = (
        per_token * 200e9 / (gpu_count * peak * 1e12 * MFU_CEILING) / 86400
        if peak
        else None
    )
    try:
        days = estimate(training, catalog, key, Constraints()).training.get("days")
    except SizingInputError:
        days = None
    serving = workload_from_dict(
        {
            "kind": "inference",
            "model": {"preset": "qwen3-235b-a22b"},
            "concurrent_requests": 200,
            "context_tokens": 32768,
            "precision": "fp8",
            "gpu_count": gpu_count,
        },
        catalog,
    )
    try:
        tokens = estimate(serving, catalog, key, Constraints()).inference.get(
            "tokens_per_second"
        )
    except SizingInputError:
        tokens = None
    return (bound, days, tokens, peak)


def _number(value):
    return None if value in (None, "") else float(value)


def bid_facts(bid: dict) -> BidFacts:
    return BidFacts(
        line_items=tuple(
            LineItemFacts(
                item["category"],
                Decimal(str(item["quantity"])) * Decimal(str(item["unit_price_cny"])),
                bool(item.get("recurring")),
                item.get("description", ""),
            )
            for item in bid.get("line_items", [])
        ),
        network_gbps_per_gpu=_number(bid.get("network_gbps_per_gpu")),
        storage_tb=_number(bid.get("storage_tb")),
        storage_read_gbs=_number(bid.get("storage_read_gbs")),
        proposal_text=bid.get("proposal_text", ""),
        promised_training_days=_number(bid.get("promised_training_days")),
        scheduler=bid.get("scheduler") or "",
        frameworks=tuple(bid.get("frameworks") or ()),
        gpu_count=bid.get("gpu_count"),
        nodes=bid.get("nodes"),
        delivery_weeks=_number(bid.get("delivery_weeks")),
        availability_pct=_number(bid.get("availability_pct")),
        promised_tokens_per_s=_number(bid.get("promised_tokens_per_s")),
        root_access=bid.get("root_access") or "",
        native_scheduler_access=bid.get("native_scheduler_access") or "",
        job_submission=bid.get("job_submission") or "",
        licence_fee=bid.get("licence_fee") or "",
        expansion_terms=bid.get("expansion_terms") or "",
    )


def procurement_facts(bid: dict) -> ProcurementFacts:
    bound, days, tokens, peak = engine_figures(
        accelerator_key(bid.get("accelerator", "")), int(bid.get("gpu_count") or 0)
    )
    plan_peak = load_catalog().accelerators["h200-sxm-141gb"].peak_tflops("bf16")
    return ProcurementFacts(
        workload_kind="training",
        model_names=("Llama-3.1-70B", "Qwen3-32B", "Qwen3-235B-A22B"),
        model_params_b=70,
        data_tb=200,
        location="上海 Shanghai",
        needs=NEEDS,
        training_days_lower_bound=bound,
        engine_training_days=days,
        engine_tokens_per_s=tokens,
        network_need_gbps_per_gpu=network_need_for(
            NEEDS.network_gbps_per_gpu, plan_peak, peak
        ),
        rfp_text=rfp_text(),
        plan_scale=PLAN_SCALE,
        price_book=price_book(),
    )


@functools.lru_cache(maxsize=128)
def _run(bid_id: int) -> tuple[Pitfall, ...]:
    bid = next(b for b in bids() if b["id"] == bid_id)
    others = [b.get("proposal_text", "") for b in bids() if b["id"] != bid_id]
    return tuple(detect_all(bid_facts(bid), procurement_facts(bid), others))


def run(bid: dict) -> list[Pitfall]:
    """The detectors on one bid, against every other bid of the corpus (a comparison
    sees all the bids of its procurement, whichever half they are in)."""
    return list(_run(bid["id"]))


def raised(pitfalls: list[Pitfall]) -> dict[str, bool]:
    """Which expected flag each finding is: the delivery floor is its own flag (an
    over_promising finding with a DELIVERY_FLOOR fact); ``over_promising`` counts
    every over_promising finding."""
    codes = {str(p.code) for p in pitfalls}
    delivery = any(
        f.code == FactCode.DELIVERY_FLOOR
        for p in pitfalls
        if p.code == PitfallCode.OVER_PROMISING
        for f in p.facts
    )
    flags = {name: name in codes for name in DETECTORS}
    flags["delivery_below_floor"] = delivery
    return flags


def score(name: str) -> dict[str, dict[str, list[int]]]:
    """Per detector: the ids missed and the ids falsely flagged in a half."""
    table = {d: {"missed": [], "false": []} for d in DETECTORS}
    for bid in half(name):
        got = raised(run(bid))
        for detector in DETECTORS:
            want = bool(bid["expected"].get(detector))
            if want and not got[detector]:
                table[detector]["missed"].append(bid["id"])
            elif got[detector] and not want:
                table[detector]["false"].append(bid["id"])
    return table
