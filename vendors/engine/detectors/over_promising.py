"""``over_promising``: every stated figure held against its physical floor or ceiling
(delivery, training time, MFU, throughput, availability, PUE), and absolute promises
without evidence (issue 24)."""

from __future__ import annotations

import re

from . import figure_checks
from .findings import EVIDENCE_KINDS, FactCode, Pitfall, PitfallCode, fact, pitfall
from .text import (
    clause_after,
    clause_before,
    is_asserted,
    is_negated,
    is_sentence_hedged,
    paragraph_span,
    sentence_span,
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
    r"service[- ]credits?|\bcredits? of|penalt(?:y|ies)|liquidated damages|refund"
    r"|compensat|rebate|fee reduction|deduct|赔付|赔偿|违约金|抵扣|扣减|扣除|退还|退款"
    r"|罚则|罚金|补偿|减免|违约责任|索赔|扣罚|罚款|赔付",
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


# Tender boilerplate: the 投标函's warranty of genuine, new, lawful goods and of a
# bid that answers every clause promises nothing about performance (issue 24).
_BOILERPLATE = re.compile(
    r"原厂|全新|正品|未使用过|合法(?:来源|渠道)?|来源合法|真实(?:有效|性)|真实、|知识产权"
    r"|不侵犯|侵权|国家(?:标准|规定)|行业标准|质量标准|招标文件(?:的)?(?:要求|规定)"
    r"|响应(?:全部|所有|招标)|全部条款|所有条款|实质性响应|投标文件|如实|按时签订"
    r"|brand[- ]new|genuine|original (?:manufacturer|factory)|authentic|lawful"
    r"|comply with (?:all|the) (?:terms|tender|requirements)",
    re.IGNORECASE,
)
# The best MFU published for dense-model training at scale: 55.2 % (MegaScale, 175B
# on 12,288 GPUs; Jiang et al., NSDI 2024, table 2); Llama 3 405B ran at 38-43 % BF16
# MFU on H100 (Meta, The Llama 3 Herd of Models, 2024, table 4). A claim above it
# promises what nobody has measured, and a penalty does not change that.
MFU_CEILING = 0.552
_MFU = re.compile(
    r"\bMFU\b[^0-9%。；;\n]{0,16}?(\d{1,3}(?:\.\d+)?)\s*%"
    r"|(\d{1,3}(?:\.\d+)?)\s*%\s*(?:的\s*)?(?:\bMFU\b|算力利用率|模型算力利用率)",
    re.IGNORECASE,
)
# A cluster in one room is no more available than the room: an Uptime Institute Tier
# III site is designed for 99.982 % and Tier IV for 99.995 % (the figures commonly
# quoted for the tier standard; Uptime Institute, Tier Standard: Topology - a
# secondary reading). The buyer's room is one site, so 99.99 % and above for the
# cluster's service is beyond its architecture.
AVAILABILITY_CEILING_PCT = 99.982
_AVAILABILITY = re.compile(
    r"(?:可用性|可用率|在线率|SLA|availability|uptime)[^0-9。；;\n]{0,12}?"
    r"(\d{2,3}(?:\.\d+)?)\s*%"
    r"|(\d{2,3}(?:\.\d+)?)\s*%\s*(?:的\s*)?(?:可用性|可用率|在线率|availability|uptime)",
    re.IGNORECASE,
)
# A serving throughput more than twice the sizing engine's figure for the offered
# hardware (at the plan's concurrency and context) is beyond what its calibrated
# roofline model allows; within twice, batching and kernels a vendor tunes can
# account for the difference (1.5 flagged an honest 4,000 tokens/s against the
# engine's 2,642 on the calibration half).
THROUGHPUT_MARGIN = 2.0


def detect_over_promising(
    proposal_text: str,
    *,
    evidence_kinds: frozenset[str] = frozenset(),
    promised_training_days: float | None = None,
    training_days_lower_bound: float | None = None,
    delivery_weeks: float | None = None,
    gpu_count: int | None = None,
    nodes: int | None = None,
    availability_pct: float | None = None,
    promised_tokens_per_s: float | None = None,
    engine_tokens_per_s: float | None = None,
) -> list[Pitfall]:
    """Flag promises a vendor cannot back.

    Figures are held against their physical floor or ceiling, whatever remedy or
    evidence comes with them (a penalty does not make an impossible figure credible):
    delivery and acceptance time against ``delivery.delivery_floor`` for the GPU
    count; a training time below the sizing engine's physical lower bound; MFU above
    the best published (``MFU_CEILING``); a serving throughput beyond
    ``THROUGHPUT_MARGIN`` x the engine's figure; availability above what one site
    achieves (``AVAILABILITY_CEILING_PCT``); a PUE below what the cooling achieves.

    Wording: absolute claims (零故障, "100 % uptime", 绝对) and bare guarantees are
    flagged when the bid brings no evidence (a measured case study, a site visit or a
    demo) and the text asserts them: negated or hedged wording (我方不作绝对保证,
    原则上, 一般情况下, 视情况, 力争, "in principle") says the opposite; tender
    boilerplate (保证…原厂全新正品, 响应全部条款) promises nothing; and a guarantee
    with a figure and a remedy anywhere in its paragraph (service credits, 违约金,
    赔付) is a contractual commitment.
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
    found.extend(
        _training_checks(
            proposal_text, promised_training_days, training_days_lower_bound
        )
    )
    found.extend(
        figure_checks.delivery_below_floor(
            proposal_text,
            delivery_weeks=delivery_weeks,
            gpu_count=gpu_count,
            nodes=nodes,
        )
    )
    found.extend(figure_checks.mfu_above_ceiling(proposal_text, MFU_CEILING, _MFU))
    found.extend(
        figure_checks.throughput_above_engine(
            proposal_text,
            promised_tokens_per_s=promised_tokens_per_s,
            engine_tokens_per_s=engine_tokens_per_s,
            margin=THROUGHPUT_MARGIN,
        )
    )
    found.extend(
        figure_checks.availability_above_ceiling(
            proposal_text,
            availability_pct=availability_pct,
            ceiling_pct=AVAILABILITY_CEILING_PCT,
            pattern=_AVAILABILITY,
        )
    )
    return found


def _training_checks(
    proposal_text: str,
    promised_training_days: float | None,
    training_days_lower_bound: float | None,
) -> list[Pitfall]:
    """The promised training time (the field, else a sentence of the text) against
    the sizing engine's physical lower bound."""
    found: list[Pitfall] = []
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
    elif sentences_ := figure_checks.training_days_in_text(
        proposal_text, training_days_lower_bound
    ):
        found.append(
            pitfall(
                _CODE,
                "The text promises a training time below the physical lower bound "
                f"for this configuration ({training_days_lower_bound:.1f} days).",
                f"方案承诺的训练时长低于该配置的物理下限（{training_days_lower_bound:.1f}"
                " 天）。",
                *sentences_,
                facts=(
                    fact(
                        FactCode.LOWER_BOUND_DAYS,
                        days=round(training_days_lower_bound or 0, 2),
                    ),
                ),
            )
        )
    return found


def _absolute_promises(text: str) -> list[str]:
    """Each absolute phrase the text asserts (not negated or hedged), with the text
    around it, in text order. A guarantee that is a contractual commitment (a figure,
    a remedy, no impossible claim in its sentence) is not one."""
    found: list[tuple[int, str]] = []
    for match in _ABSOLUTE.finditer(text):
        if (
            is_asserted(text, match.start(), match.end())
            and not is_sentence_hedged(text, match.start())
            and not _is_boilerplate(text, match)
        ):
            found.append((match.start(), _phrase(text, match)))
    for match in _HUNDRED.finditer(text):
        if _is_outcome(text, match) and is_asserted(text, match.start(), match.end()):
            found.append((match.start(), _phrase(text, match)))
    for match in _GUARANTEE.finditer(text):
        if (
            is_asserted(text, match.start(), match.end())
            and not is_sentence_hedged(text, match.start())
            and not _PURPOSE.search(clause_before(text, match.start()))
            and not _is_boilerplate(text, match)
            and not _is_design_statement(text, match)
            and not _is_commitment(text, match)
        ):
            found.append((match.start(), _phrase(text, match)))
    return [phrase for _, phrase in sorted(found)]


def _phrase(text: str, match: re.Match[str]) -> str:
    return f"“{match.group(0)}”: {snippet(text, match.start(), match.end())}"


def _is_outcome(text: str, match: re.Match[str]) -> bool:
    around = clause_before(text, match.start()) + clause_after(text, match.end())
    return bool(_OUTCOME.search(around))


# 保证 with no vendor as its subject is a design statement ("以轨道优化方式接入，保证无阻塞
# 通信": the fabric ensures it), not the vendor's promise.
_VENDOR_SUBJECT = re.compile(
    r"我方|我司|我们|本公司|投标人|供应商|厂商|承诺|郑重|担保|\bwe\b|\bvendor\b"
    r"|\bour\b|\bsupplier\b",
    re.IGNORECASE,
)


def _is_design_statement(text: str, match: re.Match[str]) -> bool:
    """A Chinese 保证 after a description in its sentence that names no vendor as the
    one who promises."""
    if not match.group(0).startswith("保证"):
        return False
    start, _ = sentence_span(text, match.start())
    before = text[start : match.start()]
    # at the head of its sentence the vendor is the implied subject ("保证训练成功")
    return bool(before.strip()) and not _VENDOR_SUBJECT.search(before)


def _is_boilerplate(text: str, match: re.Match[str]) -> bool:
    """The tender letter's warranty (保证所供货物为原厂全新正品, "we guarantee all
    equipment is brand-new and genuine"): its sentence names what the goods are, not
    what the cluster will do."""
    start, end = sentence_span(text, match.start())
    return bool(_BOILERPLATE.search(text, start, end))


def _is_commitment(text: str, match: re.Match[str]) -> bool:
    """A guarantee with a figure in its sentence and a remedy (service credits, 赔付,
    违约金...) anywhere in its paragraph: what a contract SLA looks like ("guarantees
    a 4-hour on-site response ... Below that, service credits apply"). Not when the
    sentence also asserts something no remedy makes true (100 %, linear scaling,
    zero downtime)."""
    start, end = sentence_span(text, match.start())
    sentence = text[start:end]
    para_start, para_end = paragraph_span(text, match.start())
    if not (_FIGURE.search(sentence) and _REMEDY.search(text, para_start, para_end)):
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
