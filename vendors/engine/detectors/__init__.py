"""Pitfall detectors for vendor bids: four common ways a GPU-cluster bid misleads a buyer.

Pure engine, no Django. Each detector is a function over plain values returning a list
of ``Pitfall`` (empty = nothing found); one Pitfall per finding, each with a sentence in
English and Chinese and the evidence (matched phrases, numbers) behind it.

* ``gpu_only``          - the bid prices GPU servers and skimps on what makes them a
  cluster (network, storage, software), or offers less than the sizing plan needs.
* ``over_promising``    - absolute promises without evidence, a training time shorter
  than physics allows, or a PUE below what the cooling type achieves.
* ``template_proposal`` - boilerplate that ignores this procurement, or a near-copy of
  another bid's text.
* ``closed_ecosystem``  - only proprietary cluster software, no Slurm/Kubernetes.

Every detector reads what the text asserts, not what it names: ``text`` finds the
sentence and clause around a match and whether a negator or a hedge governs it
("我方不作绝对保证", "does not support Slurm"); ``stack`` says which open cluster
software a bid offers, for ``gpu_only`` and ``closed_ecosystem`` alike.

One module per detector, named after its code; ``findings`` holds the facts a detector
reads and the ``Pitfall`` it returns, ``text`` the text helpers they share. A new
detector is a module here, a ``PitfallCode`` and a line in ``detect_all``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .closed_ecosystem import detect_closed_ecosystem
from .delivery import DeliveryFloor, below_floor, delivery_floor
from .findings import (
    EVIDENCE_KINDS,
    WORKLOAD_KINDS,
    BidFacts,
    Fact,
    FactCode,
    LineItemFacts,
    Pitfall,
    PitfallCode,
    ProcurementFacts,
    network_need_for,
)
from .gpu_only import detect_gpu_only
from .over_promising import detect_over_promising
from .template_proposal import detect_template_proposal
from .text import text_similarity

__all__ = [
    "BidFacts",
    "DeliveryFloor",
    "below_floor",
    "delivery_floor",
    "EVIDENCE_KINDS",
    "Fact",
    "FactCode",
    "LineItemFacts",
    "Pitfall",
    "PitfallCode",
    "ProcurementFacts",
    "WORKLOAD_KINDS",
    "detect_all",
    "network_need_for",
    "detect_closed_ecosystem",
    "detect_gpu_only",
    "detect_over_promising",
    "detect_template_proposal",
    "text_similarity",
]


def detect_all(
    bid: BidFacts, context: ProcurementFacts, others: Sequence[str]
) -> list[Pitfall]:
    """Run the four detectors; results in detector order."""
    return [
        *detect_gpu_only(
            bid.line_items,
            network_gbps_per_gpu=bid.network_gbps_per_gpu,
            storage_tb=bid.storage_tb,
            storage_read_gbs=bid.storage_read_gbs,
            needs=context.needs,
            scheduler=bid.scheduler,
            frameworks=bid.frameworks,
            proposal_text=bid.proposal_text,
            network_need_gbps_per_gpu=context.network_need_gbps_per_gpu,
            plan_scale=context.plan_scale,
            price_book=context.price_book,
        ),
        *detect_over_promising(
            bid.proposal_text,
            evidence_kinds=bid.evidence_kinds,
            promised_training_days=bid.promised_training_days,
            training_days_lower_bound=context.training_days_lower_bound,
            delivery_weeks=bid.delivery_weeks,
            gpu_count=bid.gpu_count,
            nodes=bid.nodes,
            availability_pct=bid.availability_pct,
            promised_tokens_per_s=bid.promised_tokens_per_s,
            engine_tokens_per_s=context.engine_tokens_per_s,
        ),
        *detect_template_proposal(
            bid.proposal_text,
            workload_kind=context.workload_kind,
            model_names=context.model_names,
            model_params_b=context.model_params_b,
            data_tb=context.data_tb,
            location=context.location,
            other_texts=others,
            rfp_text=context.rfp_text,
        ),
        *detect_closed_ecosystem(
            bid.scheduler,
            bid.frameworks,
            bid.proposal_text,
            root_access=bid.root_access,
            native_scheduler_access=bid.native_scheduler_access,
            job_submission=bid.job_submission,
            licence_fee=bid.licence_fee,
            expansion_terms=bid.expansion_terms,
        ),
    ]
