"""What a detector reads and what it reports: the plain facts of a bid and its
procurement, and the ``Pitfall`` with its reason in English and Chinese."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import Any

from tco.engine.bill_of_materials import ClusterScale, PriceBook
from vendors.engine.compliance import PlanNeeds

EVIDENCE_KINDS = ("measured_case_study", "site_visit", "demo")
WORKLOAD_KINDS = ("training", "inference", "fine_tuning")


class PitfallCode(StrEnum):
    GPU_ONLY = "gpu_only"
    OVER_PROMISING = "over_promising"
    TEMPLATE_PROPOSAL = "template_proposal"
    CLOSED_ECOSYSTEM = "closed_ecosystem"


class FactCode(StrEnum):
    """What a computed evidence line states (its params in brackets)."""

    GPU_SHARE = "gpu_share"  # share: GPU servers / one-off hardware cost
    NO_PRICED_LINE = "no_priced_line"  # category: a line category with nothing priced
    SHORT_OF_PLAN = "short_of_plan"  # item, offered (None: not stated), needed, unit
    NOT_ADDRESSED = (
        "not_addressed"  # specific: workload, model_scale, data_volume, location
    )
    SIMILAR_TEXT = "similar_text"  # other_bid (1-based), similarity (Jaccard, 0-1)
    PROMISED_DAYS = "promised_days"  # days
    LOWER_BOUND_DAYS = "lower_bound_days"  # days
    SCHEDULER = "scheduler"  # name: the bid's (non-open) scheduler
    FRAMEWORKS = "frameworks"  # names: the bid's frameworks, none of them open
    # issue 24: figures held against their physical floor or ceiling
    DELIVERY_FLOOR = "delivery_floor"  # offered_days, floor_days, gpu_count, nodes
    MFU_CEILING = "mfu_ceiling"  # claimed (share), ceiling (share)
    THROUGHPUT_CEILING = "throughput_ceiling"  # promised, achievable (tokens/s)
    TRAINING_ESTIMATE = "training_estimate"  # promised_days, engine_days
    AVAILABILITY_CEILING = "availability_ceiling"  # claimed_pct, ceiling_pct, basis
    # issue 24: access and licence facts
    ACCESS = "access"  # field, value: a structured answer that locks the buyer out
    # issue 24: what the proposal copies and what it lacks
    RFP_ECHO = "rfp_echo"  # share: of the proposal's 4-grams found in the RFP
    NO_DESIGN = "no_design"  # covered: design topics addressed (of DESIGN_TOPICS)
    PLAN_BOM = "plan_bom"  # category, offered_cny, cost_cny, floor_cny, basis


@dataclass(frozen=True)
class Fact:
    """An evidence line the detector computed (not the bid's own words): a code and
    its params, which the app words in the reader's language
    (``vendors.comparison.pitfall_texts``); ``str()`` is the English for logs and tests."""

    code: FactCode
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        details = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.code}: {details}" if details else str(self.code)


@dataclass(frozen=True)
class Pitfall:
    """``reads_prices``: the finding is computed from the bid's prices (a cost share,
    a category with no priced line), so it is price material a sealed envelope hides
    from a technical evaluator until they submit (vendors.visibility).

    ``evidence``: snippets of the bid's own text (quoted as they are); ``facts``: the
    figures the detector computed, as codes and params (worded by the app)."""

    code: PitfallCode
    reason_en: str
    reason_zh: str
    evidence: tuple[str, ...] = ()
    reads_prices: bool = False
    facts: tuple[Fact, ...] = ()

    def reason(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("zh", "zh-hans", ... give Chinese; else English)."""
        return self.reason_zh if lang.lower().startswith("zh") else self.reason_en


@dataclass(frozen=True)
class LineItemFacts:
    category: str  # gpu_servers, network, storage, software, installation, ...
    amount_cny: Decimal
    recurring: bool = False
    description: str = ""
    #: The categories the line declares it also covers (BidLineItem.scope).
    scope: tuple[str, ...] = ()


@dataclass(frozen=True)
class BidFacts:
    line_items: tuple[LineItemFacts, ...] = ()
    network_gbps_per_gpu: float | None = None
    storage_tb: float | None = None
    storage_read_gbs: float | None = None
    proposal_text: str = ""
    evidence_kinds: frozenset[str] = frozenset()  # subset of EVIDENCE_KINDS
    promised_training_days: float | None = None
    scheduler: str = ""
    frameworks: tuple[str, ...] = ()
    # issue 24: the figures each checked against its physical floor or ceiling
    gpu_count: int | None = None
    nodes: int | None = None
    delivery_weeks: float | None = None
    availability_pct: float | None = None
    promised_tokens_per_s: float | None = None
    # issue 24: access and licence facts, as the RFP asks them ("" = not answered)
    root_access: str = ""  # yes / no / limited
    native_scheduler_access: str = ""  # open / wrapped / none
    job_submission: str = ""
    licence_fee: str = ""
    expansion_terms: str = ""


@dataclass(frozen=True)
class ProcurementFacts:
    workload_kind: str = ""  # one of WORKLOAD_KINDS, or "" if unknown
    model_names: tuple[str, ...] = ()
    model_params_b: float | None = None  # billions of parameters
    data_tb: float | None = None
    location: str = ""  # city or site name
    needs: PlanNeeds | None = None
    training_days_lower_bound: float | None = None  # from the sizing engine
    # issue 24, per bid: what the sizing engine says the bid's hardware achieves
    # (training days at the engine's calibrated MFU; serving output tokens/s)
    engine_training_days: float | None = None
    engine_tokens_per_s: float | None = None
    # the scale-out network per GPU the bid's accelerator needs: the plan's figure x
    # the offered GPU's dense peak / the plan GPU's (at most the plan's)
    network_need_gbps_per_gpu: float | None = None
    # issue 24: the buyer's own published RFP text (template_proposal compares it)
    rfp_text: str = ""
    # issue 24: the plan's design at its own GPU count and the TCO's price book rows
    # (gpu_only prices the plan's bill of materials with them; no price book, no check)
    plan_scale: ClusterScale | None = None
    price_book: PriceBook | None = None


def network_need_for(
    plan_gbps_per_gpu: float,
    plan_peak_tflops: float | None,
    offer_peak_tflops: float | None,
) -> float | None:
    """The plan's network per GPU scaled to the offered GPU's compute (at most the
    plan's own); None when either peak is unknown."""
    if not plan_peak_tflops or not offer_peak_tflops or plan_peak_tflops <= 0:
        return None
    return min(
        plan_gbps_per_gpu, plan_gbps_per_gpu * offer_peak_tflops / plan_peak_tflops
    )


def pitfall(
    code: PitfallCode,
    en: str,
    zh: str,
    *evidence: str,
    facts: tuple[Fact, ...] = (),
    reads_prices: bool = False,
) -> Pitfall:
    """One finding: its reason in English and Chinese, then the quoted snippets of
    the bid's text (``evidence``) and the computed ``facts``."""
    return Pitfall(
        code, en, zh, tuple(evidence), reads_prices=reads_prices, facts=tuple(facts)
    )


def fact(code: FactCode, **params: Any) -> Fact:
    return Fact(code, params)
