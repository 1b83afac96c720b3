"""Statutory evaluation regimes: the rules an evaluation follows, each with its article.

Pure engine, no Django. One concept a module:

* ``articles``    - ``Article``: the quoted text a rule rests on.
* ``rules``       - the three regimes (commercial, 政府采购, 依法必须招标) and ``rules_for``.
* ``validation``  - ``RuleViolation`` and the method / price-weight / bond / viability checks.
* ``committee``   - the evaluation committee's size and experts' share.
* ``deductions``  - policy price deductions (SME, domestic products) -> evaluated prices.
* ``price``       - 低价优先法, the abnormally-low check, price per delivered capacity.
* ``mandatory``   - ★ requirements from the plan and the 符合性审查 of a bid.
* ``qualification`` - 资格审查: the supplier's statutory conditions and its failures.
* ``restriction`` - criteria that would restrict suppliers (实施条例 第二十条).
* ``collusion``   - collusion signals across bids, with evidence.
* ``typos``       - misspellings of technical terms (a shared one is a signal).
* ``ranking``     - the ranking per method with the regime's tie-break and candidates.
"""

from __future__ import annotations

from .articles import Article
from .collusion import (
    SIMILAR_TEXT_THRESHOLD,
    CollusionFacts,
    CollusionSignal,
    collusion_signals,
    distinctive_similarity,
)
from .committee import CommitteeSeat, required_committee_size, validate_committee
from .deductions import (
    Deduction,
    DeductionPolicy,
    EvaluatedPrice,
    PriceInput,
    evaluated_prices,
)
from .mandatory import (
    ConformityResult,
    InvalidReason,
    MandatoryItem,
    PlanFacts,
    mandatory_from_plan,
    review_conformity,
)
from .price import abnormally_low, capacity_price_scores, low_price_first_scores
from .qualification import (
    QualificationFailure,
    QualificationItem,
    qualification_articles,
    review_qualification,
    statutory_qualification,
)
from .ranking import RankedEntry, lowest_price_ranking, rank
from .restriction import CriterionText, restrictive_criteria
from .rules import (
    Method,
    PriceBasis,
    Regime,
    RegimeRules,
    ScoreChangeReason,
    Subject,
    TieBreak,
    TooFewBids,
    rules_for,
)
from .validation import (
    RegimeInputError,
    RuleViolation,
    check_viability,
    validate_bond,
    validate_method,
    validate_price_weight,
)

__all__ = [
    "SIMILAR_TEXT_THRESHOLD",
    "PriceBasis",
    "RegimeInputError",
    "ScoreChangeReason",
    "distinctive_similarity",
    "required_committee_size",
    "Article",
    "CollusionFacts",
    "CollusionSignal",
    "CommitteeSeat",
    "ConformityResult",
    "CriterionText",
    "Deduction",
    "DeductionPolicy",
    "EvaluatedPrice",
    "InvalidReason",
    "MandatoryItem",
    "Method",
    "PlanFacts",
    "PriceInput",
    "QualificationFailure",
    "QualificationItem",
    "RankedEntry",
    "Regime",
    "RegimeRules",
    "RuleViolation",
    "Subject",
    "TieBreak",
    "TooFewBids",
    "abnormally_low",
    "capacity_price_scores",
    "check_viability",
    "collusion_signals",
    "evaluated_prices",
    "low_price_first_scores",
    "lowest_price_ranking",
    "mandatory_from_plan",
    "qualification_articles",
    "rank",
    "restrictive_criteria",
    "review_conformity",
    "review_qualification",
    "rules_for",
    "statutory_qualification",
    "validate_bond",
    "validate_committee",
    "validate_method",
    "validate_price_weight",
]
