"""``over_promising``: absolute promises without evidence, a training time shorter
than physics allows, or a PUE below what the cooling type achieves."""

from __future__ import annotations

import re

from .findings import EVIDENCE_KINDS, FactCode, Pitfall, PitfallCode, fact, pitfall
from .text import (
    clause_after,
    clause_before,
    is_asserted,
    is_negated,
    sentence_span,
    sentences,
    snippet,
)

_CODE = PitfallCode.OVER_PROMISING
# "guarantee"/保证: a promise, which a contractual commitment (a figure and a remedy)
# makes fair. Not a bank/bid/tender guarantee (a security), a 3-year guarantee (a
# warranty), 保证金 (a deposit), 质量保证 (quality assurance).
_GUARANTEE = re.compile(
    r"(?<!bank )(?<!bid )(?<!performance )(?<!tender )(?<!year )(?<!years )"
    r"\b(?:guarantee[sd]?|guaranteeing)\b(?!\s+(?:period|bond|deposit|letter))"
    r"|(?<!质量)保证(?![金期书函])",
    re.IGNORECASE,
)
# Claims nothing can back: no remedy makes "zero downtime" or 零故障 true.
_ABSOLUTE = re.compile(
    r"\b(?:zero[- ]downtime|no downtime|never (?:fails?|goes down|go down|crash(?:es)?)"
    r"|zero (?:failures?|faults?|risk|data loss)|risk[- ]free|no problem)\b"
    r"|没问题|包在我们身上|绝对(?!值)|零故障|零宕机|零停机|零风险|百分之百|万无一失",
    re.IGNORECASE,
)
# 100 % is absolute when it is an outcome (uptime, success, utilisation), not when
# it is a scope ("100 % burn-in of every node", "100% 国产化").
_HUNDRED = re.compile(r"(?<![\d.])100\s?%")
_OUTCOME = re.compile(
    r"uptime|availab|reliab|success|satisf|utili[sz]|efficien|scal|on[- ]time"
    r"|schedule|\bSLA\b|可用|在线|稳定|可靠|达标|成功|满足|兼容|线性|利用率|没问题|无故障"
    r"|正常运行|按期|按时|满意|效率",
    re.IGNORECASE,
)
_LINEAR = re.compile(
    r"(?<![-\w])linear(?:ly)?\s+scal\w*|\bscal\w* linearly|(?<![近准])线性(?:扩展|加速|提升)",
    re.IGNORECASE,
)
_REMEDY = re.compile(
    r"service credits?|\bcredits? of|penalt(?:y|ies)|liquidated damages|refund"
    r"|compensat|rebate|fee reduction|deduct|赔付|赔偿|违约金|抵扣|扣减|扣除|退还|退款"
    r"|罚则|罚金|补偿|减免",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"\d|[一二两三四五六七八九十半]\s*(?:个)?(?:小时|分钟|天|工作日)")
_PURPOSE = re.compile(
    r"(?:^\s*|\bin order |\bso as )to\s*$|(?:为了?|以|用以|以便|旨在)\s*$",
    re.IGNORECASE,
)
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

    Absolute wording ("guarantee", "100% uptime", 保证, 零故障...) is only flagged when
    the bid offers no evidence (a case study with a measured outcome, a site visit or a
    demo), and only where the text asserts it: negated or hedged wording ("我方不作绝对
    保证", "offered without guarantee", 力争零故障) says the opposite, and a guarantee
    with a figure and a remedy ("a 4-hour on-site response, with service credits",
    "4小时到场，未达标按合同赔付") is a contractual commitment, not a boast.
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
    """Each absolute phrase the text asserts (not negated or hedged), with the text
    around it, in text order. A guarantee that is a contractual commitment (a figure,
    a remedy, no impossible claim in its sentence) is not one."""
    found: list[tuple[int, str]] = []
    for match in _ABSOLUTE.finditer(text):
        if is_asserted(text, match.start(), match.end()):
            found.append((match.start(), _phrase(text, match)))
    for match in _HUNDRED.finditer(text):
        if _is_outcome(text, match) and is_asserted(text, match.start(), match.end()):
            found.append((match.start(), _phrase(text, match)))
    for match in _GUARANTEE.finditer(text):
        if (
            is_asserted(text, match.start(), match.end())
            and not _PURPOSE.search(clause_before(text, match.start()))
            and not _is_commitment(text, match)
        ):
            found.append((match.start(), _phrase(text, match)))
    return [phrase for _, phrase in sorted(found)]


def _phrase(text: str, match: re.Match[str]) -> str:
    return f"“{match.group(0)}”: {snippet(text, match.start(), match.end())}"


def _is_outcome(text: str, match: re.Match[str]) -> bool:
    around = clause_before(text, match.start()) + clause_after(text, match.end())
    return bool(_OUTCOME.search(around))


def _is_commitment(text: str, match: re.Match[str]) -> bool:
    """A guarantee with a figure in its sentence and a remedy (service credits, 赔付,
    违约金...) in it or the next: what a contract SLA looks like ("guarantees a 4-hour
    on-site response, with service credits"). Not when the sentence also asserts
    something no remedy makes true (100 %, linear scaling, zero downtime)."""
    start, end = sentence_span(text, match.start())
    sentence = text[start:end]
    following = sentences(text[end:])
    remedy_text = sentence + (text[end:][slice(*following[0])] if following else "")
    if not (_FIGURE.search(sentence) and _REMEDY.search(remedy_text)):
        return False
    impossible = (
        m
        for pattern in (_ABSOLUTE, _HUNDRED, _LINEAR)
        for m in pattern.finditer(text, start, end)
    )
    return not any(is_asserted(text, m.start(), m.end()) for m in impossible)


def _implausible_pue_claims(proposal_text: str) -> list[Pitfall]:
    """One finding per PUE figure (or "below" bound) under the 1.10 floor."""
    found: list[Pitfall] = []
    for match in _PUE.finditer(proposal_text):
        pue = float(match.group(2))
        if is_negated(proposal_text, match.start(), match.end()):
            continue
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
        facts=(
            fact(FactCode.PROMISED_DAYS, days=promised_training_days),
            fact(FactCode.LOWER_BOUND_DAYS, days=round(training_days_lower_bound, 2)),
        ),
    )
