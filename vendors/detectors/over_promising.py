"""``over_promising``: absolute promises without evidence, a training time shorter
than physics allows, or a PUE below what the cooling type achieves."""

from __future__ import annotations

import re

from .findings import EVIDENCE_KINDS, Pitfall, PitfallCode, pitfall
from .text import snippet

_CODE = PitfallCode.OVER_PROMISING
_ABSOLUTE_EN = re.compile(
    r"(?<!bank )(?<!bid )(?<!performance )(?<!tender )"
    r"\b(?:guarantee[sd]?|guaranteeing|zero[- ]downtime|no downtime|never fails?"
    r"|zero (?:failures?|faults?|risk)|risk[- ]free|no problem)\b"
    r"|(?<![\d.])100\s?%",
    re.IGNORECASE,
)
_ABSOLUTE_ZH = re.compile(
    r"没问题|包在我们身上|(?<!质量)保证(?![金期])|绝对(?!值)|零故障|零宕机|零停机|零风险"
    r"|百分之百|万无一失"
)
_NEGATION_EN = re.compile(
    r"\b(?:not|no|never|cannot|can't|don't|doesn't|won't|unable to)\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_NEGATION_ZH = re.compile(r"(?:不|无法|不能|未|难以)$")
_PUE = re.compile(
    r"PUE\s*值?\s*(<|≤|<=|低于|小于|不高于|不超过|below|under|of|=|:|：|为|约)?\s*"
    r"(\d(?:\.\d+)?)",
    re.IGNORECASE,
)
_BELOW = ("<", "≤", "<=", "低于", "小于", "不高于", "不超过", "below", "under")
_PUE_FLOOR = 1.10


def detect_over_promising(
    proposal_text: str,
    *,
    evidence_kinds: frozenset[str] = frozenset(),
    promised_training_days: float | None = None,
    training_days_lower_bound: float | None = None,
) -> list[Pitfall]:
    """Flag promises a vendor cannot back.

    Absolute wording ("guarantee", "100%", 保证, 零故障...) is only flagged when the bid
    offers no evidence (a case study with a measured outcome, a site visit or a demo).
    A promised training time below the sizing engine's physical lower bound is flagged
    regardless: evidence cannot beat arithmetic. A PUE below 1.10 is flagged without
    evidence: cold-plate liquid cooling typically reaches 1.15-1.25 and only fully
    liquid/immersion sites approach 1.04 (hardware-facts.md section 5; Uptime Institute).
    """
    found: list[Pitfall] = []
    has_evidence = bool(set(evidence_kinds) & set(EVIDENCE_KINDS))
    if not has_evidence:
        phrases = _absolute_promises(proposal_text)
        if phrases:
            found.append(
                pitfall(
                    _CODE,
                    "Absolute promises without evidence (no measured case study, "
                    "site visit or demo).",
                    "使用了绝对化承诺，但没有提供实测案例、现场考察或演示等证据。",
                    *phrases,
                )
            )
        found.extend(_implausible_pue_claims(proposal_text))
    if (
        promised_training_days is not None
        and training_days_lower_bound is not None
        and promised_training_days < training_days_lower_bound
    ):
        found.append(
            _training_faster_than_physics(
                promised_training_days, training_days_lower_bound
            )
        )
    return found


def _absolute_promises(text: str) -> list[str]:
    """Each absolute phrase not preceded by a negation, with the text around it."""
    phrases: list[str] = []
    for pattern, negation in (
        (_ABSOLUTE_EN, _NEGATION_EN),
        (_ABSOLUTE_ZH, _NEGATION_ZH),
    ):
        for match in pattern.finditer(text):
            if negation.search(text[max(0, match.start() - 30) : match.start()]):
                continue
            phrases.append(
                f"“{match.group(0)}”: {snippet(text, match.start(), match.end())}"
            )
    return phrases


def _implausible_pue_claims(proposal_text: str) -> list[Pitfall]:
    """One finding per PUE figure (or "below" bound) under the 1.10 floor."""
    found: list[Pitfall] = []
    for match in _PUE.finditer(proposal_text):
        pue = float(match.group(2))
        below = (match.group(1) or "").lower() in _BELOW
        if 1.0 <= pue < _PUE_FLOOR or (below and 1.0 <= pue <= _PUE_FLOOR):
            claim = f"below {pue:g}" if below else f"{pue:g}"
            claim_zh = f"低于 {pue:g}" if below else f"{pue:g}"
            found.append(
                pitfall(
                    _CODE,
                    f"Claims PUE {claim}; cold-plate liquid cooling typically "
                    "achieves 1.15-1.25, and no measured evidence is given.",
                    f"声称 PUE {claim_zh}；冷板液冷通常为 1.15-1.25，且未提供实测证据。",
                    snippet(proposal_text, match.start(), match.end()),
                )
            )
    return found


def _training_faster_than_physics(
    promised_training_days: float, training_days_lower_bound: float
) -> Pitfall:
    return pitfall(
        _CODE,
        f"Promises training in {promised_training_days:g} days; the physical "
        f"lower bound for this configuration is {training_days_lower_bound:.1f} "
        "days.",
        f"承诺 {promised_training_days:g} 天完成训练；该配置的物理下限为 "
        f"{training_days_lower_bound:.1f} 天。",
        f"promised_training_days: {promised_training_days:g}",
        f"training_days_lower_bound: {training_days_lower_bound:.2f}",
    )
