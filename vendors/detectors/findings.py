"""What a detector reads and what it reports: the plain facts of a bid and its
procurement, and the ``Pitfall`` with its reason in English and Chinese."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from vendors.compliance import PlanNeeds

EVIDENCE_KINDS = ("measured_case_study", "site_visit", "demo")
WORKLOAD_KINDS = ("training", "inference", "fine_tuning")


class PitfallCode(StrEnum):
    GPU_ONLY = "gpu_only"
    OVER_PROMISING = "over_promising"
    TEMPLATE_PROPOSAL = "template_proposal"
    CLOSED_ECOSYSTEM = "closed_ecosystem"


@dataclass(frozen=True)
class Pitfall:
    """``reads_prices``: the finding is computed from the bid's prices (a cost share,
    a category with no priced line), so it is price material a sealed envelope hides
    from a technical evaluator until they submit (vendors.visibility)."""

    code: PitfallCode
    reason_en: str
    reason_zh: str
    evidence: tuple[str, ...] = ()
    reads_prices: bool = False

    def reason(self, lang: str = "en") -> str:
        """The reason in ``lang`` ("zh", "zh-hans", ... give Chinese; else English)."""
        return self.reason_zh if lang.lower().startswith("zh") else self.reason_en


@dataclass(frozen=True)
class LineItemFacts:
    category: str  # gpu_servers, network, storage, software, installation, ...
    amount_cny: Decimal
    recurring: bool = False


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


@dataclass(frozen=True)
class ProcurementFacts:
    workload_kind: str = ""  # one of WORKLOAD_KINDS, or "" if unknown
    model_names: tuple[str, ...] = ()
    model_params_b: float | None = None  # billions of parameters
    data_tb: float | None = None
    location: str = ""  # city or site name
    needs: PlanNeeds | None = None
    training_days_lower_bound: float | None = None  # from the sizing engine


def pitfall(
    code: PitfallCode, en: str, zh: str, *evidence: str, reads_prices: bool = False
) -> Pitfall:
    """One finding: its reason in English and Chinese, then the evidence lines."""
    return Pitfall(code, en, zh, tuple(evidence), reads_prices=reads_prices)
