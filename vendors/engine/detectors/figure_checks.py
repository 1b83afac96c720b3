"""The figures ``over_promising`` holds against a physical floor or ceiling (issue 24):
delivery and acceptance time, MFU, serving throughput and availability, each read from
the bid's field and from its text (the quoted sentence is the evidence).

A figure is judged whatever remedy comes with it: a 0.5 ‰-a-day penalty on a 7-day
delivery of 96 GPUs does not make the 7 days possible. A negated or hedged figure
("预计", "原则上", "we aim for") is not a promise and is not judged.
"""

from __future__ import annotations

import re

from .delivery import DeliveryFloor, delivery_floor
from .findings import FactCode, Pitfall, PitfallCode, fact, pitfall
from .text import (
    clause_after,
    clause_before,
    format_figure,
    is_negated,
    is_sentence_hedged,
    sentence_span,
    snippet,
)

_CODE = PitfallCode.OVER_PROMISING
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9, "十": 10, "半": 0.5}  # fmt: skip
_DURATION = re.compile(
    r"(?<![\d.×xX*/])(\d+(?:\.\d+)?|[一二两三四五六七八九十半]{1,3})\s*(?:个)?\s*"
    r"(自然日|日历日|工作日|天|日|周|星期|个月|月|business days?|working days?"
    r"|calendar days?|days?|weeks?|months?)(?![\s]*[×xX*]\s*24)",
    re.IGNORECASE,
)
_DELIVERY_WORDS = re.compile(
    r"交付|交货|供货|到货|发货|到场|验收|上线|投入使用|投产|部署完成|完成部署|安装调试"
    r"|deliver|shipment|ship\b|arriv|acceptance|handover|hand over|go[- ]live"
    r"|in production",
    re.IGNORECASE,
)
# The clause has the whole project in view (up to acceptance) ...
_ACCEPTANCE_WORDS = re.compile(
    r"验收|上线|投入使用|投产|交付使用|拷机|烤机|burn[- ]in|acceptance|handover"
    r"|hand over|go[- ]live|in production|production[- ]ready",
    re.IGNORECASE,
)
# ... or a step measured from an earlier one ("到货后 3 天完成安装") or a part of it
# (首批, a pilot), which the whole floor does not bound.
_RELATIVE = re.compile(
    r"(?:到货|到场|安装|上电|部署|签收|故障|报修|通知|arrival|installation|delivery"
    r"|notice|failure)\s*(?:后|之后|完成后|以后)|\bafter (?:the )?(?:arrival|delivery"
    r"|installation|notice|failure)\b|首批|第一批|部分|试点|先行|first batch|pilot"
    r"|partial|备件|spare|更换|replace|响应|response|到场|on[- ]site|培训|training"
    r"|质保|保修|warranty|维保|每周|每天|每月|per (?:week|day|month)",
    re.IGNORECASE,
)
_DAYS_PER_UNIT = {"周": 7, "星期": 7, "个月": 30, "月": 30}


def _number(text: str) -> float:
    if text[0].isdigit():
        return float(text)
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + _CN_DIGITS.get(text[1:], 0)
    if text.endswith("十"):
        return _CN_DIGITS.get(text[0], 0) * 10
    if "十" in text:
        tens, ones = text.split("十", 1)
        return _CN_DIGITS.get(tens, 0) * 10 + _CN_DIGITS.get(ones, 0)
    return float(_CN_DIGITS.get(text, 0))


def _days(value: float, unit: str) -> float:
    unit = unit.lower()
    if unit in _DAYS_PER_UNIT:
        return value * _DAYS_PER_UNIT[unit]
    if unit.startswith("week"):
        return value * 7
    if unit.startswith("month"):
        return value * 30
    if unit in ("工作日",) or unit.startswith(("business", "working")):
        return value * 7 / 5
    return value


def _quote(text: str, start: int, end: int) -> str:
    a, b = sentence_span(text, start)
    return " ".join(text[a:b].split()) or snippet(text, start, end)


def _delivery_claims(text: str, floor: DeliveryFloor) -> list[tuple[float, float, str]]:
    """(claimed days, the floor it is held to, the sentence) for each delivery time the
    text promises below its floor."""
    claims = []
    for match in _DURATION.finditer(text):
        before = clause_before(text, match.start())
        clause = before + match.group(0) + clause_after(text, match.end())
        if not _DELIVERY_WORDS.search(clause) or _RELATIVE.search(before):
            continue
        if _RELATIVE.search(clause) and not _ACCEPTANCE_WORDS.search(clause):
            continue
        if is_negated(text, match.start(), match.end()) or is_sentence_hedged(
            text, match.start()
        ):
            continue
        days = _days(_number(match.group(1)), match.group(2))
        whole = _ACCEPTANCE_WORDS.search(clause)
        bound = floor.total_days if whole else floor.arrival_days
        if 0 < days < bound:
            claims.append((days, bound, _quote(text, match.start(), match.end())))
    return claims


def delivery_below_floor(
    text: str,
    *,
    delivery_weeks: float | None,
    gpu_count: int | None,
    nodes: int | None,
) -> list[Pitfall]:
    """One finding when the delivery field or a delivery time in the text is below
    the floor for the offered GPU count (`delivery.delivery_floor`).

    The field (交货期, "delivery (weeks)") is held to the arrival floor: vendors fill
    it with the arrival of the servers and schedule acceptance after it (calibration:
    "交货期 3 周即指到货时间", acceptance in week 9). A time in the text is held to the
    floor of what it names: acceptance, burn-in or go-live the whole floor, arrival
    the supply time."""
    if not gpu_count:
        return []
    floor = delivery_floor(gpu_count, nodes=nodes)
    claims: list[tuple[float, float]] = []  # (offered days, the floor it is held to)
    evidence: list[str] = []
    if delivery_weeks is not None and 0 < delivery_weeks * 7 < floor.arrival_days:
        claims.append((delivery_weeks * 7, floor.arrival_days))
    for days, bound, sentence in _delivery_claims(text, floor):
        claims.append((days, bound))
        evidence.append(sentence)
    if not claims:
        return []
    shortest, floor_days = min(claims)
    return [
        pitfall(
            _CODE,
            f"Promises delivery in {format_figure(shortest)} days; supplying, "
            f"installing, burning in and accepting {gpu_count} GPUs in "
            f"{floor.nodes} servers takes at least {format_figure(floor_days)} days.",
            f"承诺 {format_figure(shortest)} 天交付；{gpu_count} 张 GPU（{floor.nodes}"
            f" 台服务器）的供货、安装、拷机与验收至少需要 {format_figure(floor_days)} 天。",
            *dict.fromkeys(evidence),
            facts=(
                fact(
                    FactCode.DELIVERY_FLOOR,
                    offered_days=round(shortest, 1),
                    floor_days=round(floor_days, 1),
                    gpu_count=gpu_count,
                    nodes=floor.nodes,
                ),
            ),
        )
    ]


def _asserted_figure(text: str, match: re.Match[str]) -> bool:
    return not is_negated(text, match.start(), match.end()) and not (
        is_sentence_hedged(text, match.start())
    )


def mfu_above_ceiling(
    text: str, ceiling: float, pattern: re.Pattern[str]
) -> list[Pitfall]:
    """One finding when the text asserts an MFU above ``ceiling``."""
    claims = []
    for match in pattern.finditer(text):
        value = float(match.group(1) or match.group(2)) / 100
        if value > ceiling and value <= 1 and _asserted_figure(text, match):
            claims.append((value, _quote(text, match.start(), match.end())))
    if not claims:
        return []
    claimed = max(value for value, _ in claims)
    return [
        pitfall(
            _CODE,
            f"Claims an MFU of {claimed:.0%}; the best published for dense training "
            f"at scale is {ceiling:.1%}.",
            f"声称 MFU 达到 {claimed:.0%}；已公开的大规模稠密模型训练最高约为 "
            f"{ceiling:.1%}。",
            *dict.fromkeys(sentence for _, sentence in claims),
            facts=(fact(FactCode.MFU_CEILING, claimed=claimed, ceiling=ceiling),),
        )
    ]


_TOKENS = re.compile(
    r"(\d[\d,，]*(?:\.\d+)?)\s*(万|k|K)?\s*(?:output\s+)?(?:tokens?|tok)\s*(?:/|每|per)\s*"
    r"(?:s|秒|sec|second)",
    re.IGNORECASE,
)
_PER_USER = re.compile(
    r"每(?:用户|路|请求|个请求|会话|并发)|单(?:用户|路|请求|卡|GPU)|per (?:user|request"
    r"|stream|session|GPU|card)|/user|each user",
    re.IGNORECASE,
)


def throughput_above_engine(
    text: str,
    *,
    promised_tokens_per_s: float | None,
    engine_tokens_per_s: float | None,
    margin: float,
) -> list[Pitfall]:
    """One finding when the promised serving throughput (the field, or an aggregate
    tokens/s figure in the text) is above ``margin`` x what the sizing engine says
    the offered hardware serves."""
    if not engine_tokens_per_s or engine_tokens_per_s <= 0:
        return []
    limit = engine_tokens_per_s * margin
    promised: list[float] = []
    evidence: list[str] = []
    if promised_tokens_per_s is not None and promised_tokens_per_s > limit:
        promised.append(promised_tokens_per_s)
    for match in _TOKENS.finditer(text):
        value = float(re.sub(r"[,，]", "", match.group(1)))
        value *= {"万": 10_000, "k": 1_000}.get((match.group(2) or "").lower(), 1)
        around = clause_before(text, match.start()) + clause_after(text, match.end())
        if (
            value > limit
            and not _PER_USER.search(around)
            and _asserted_figure(text, match)
        ):
            promised.append(value)
            evidence.append(_quote(text, match.start(), match.end()))
    if not promised:
        return []
    top = max(promised)
    return [
        pitfall(
            _CODE,
            f"Promises {format_figure(top)} tokens/s; the sizing engine gives "
            f"{format_figure(engine_tokens_per_s)} tokens/s for the offered hardware.",
            f"承诺 {format_figure(top)} tokens/s；按配置引擎测算，所投硬件约为 "
            f"{format_figure(engine_tokens_per_s)} tokens/s。",
            *dict.fromkeys(evidence),
            facts=(
                fact(
                    FactCode.THROUGHPUT_CEILING,
                    promised=top,
                    achievable=round(engine_tokens_per_s, 1),
                ),
            ),
        )
    ]


def availability_above_ceiling(
    text: str,
    *,
    availability_pct: float | None,
    ceiling_pct: float,
    pattern: re.Pattern[str],
) -> list[Pitfall]:
    """One finding when the availability field or an availability figure in the text
    is above what one site achieves (100 % is the absolute ``over_promising`` reads
    in the wording)."""
    claims: list[float] = []
    evidence: list[str] = []
    if availability_pct is not None and ceiling_pct < availability_pct:
        claims.append(availability_pct)
    for match in pattern.finditer(text):
        value = float(match.group(1) or match.group(2))
        if ceiling_pct < value < 100 and _asserted_figure(text, match):
            claims.append(value)
            evidence.append(_quote(text, match.start(), match.end()))
    if not claims:
        return []
    top = max(claims)
    return [
        pitfall(
            _CODE,
            f"Promises {format_figure(top)} % availability; a cluster in one site is "
            f"no more available than the site (about {format_figure(ceiling_pct)} % "
            "for a Tier III room).",
            f"承诺可用性 {format_figure(top)}%；单一机房内的集群不会高于机房本身"
            f"（Tier III 约 {format_figure(ceiling_pct)}%）。",
            *dict.fromkeys(evidence),
            facts=(
                fact(
                    FactCode.AVAILABILITY_CEILING,
                    claimed_pct=top,
                    ceiling_pct=ceiling_pct,
                ),
            ),
        )
    ]


_TRAINING_WORDS = re.compile(
    r"训练|预训练|微调|train|pre-?train|fine-?tun", re.IGNORECASE
)


def training_days_in_text(text: str, lower_bound_days: float | None) -> list[str]:
    """Each sentence that promises a training run in fewer days than the physical
    lower bound ("5 天完成 70B 训练")."""
    if not lower_bound_days:
        return []
    found = []
    for match in _DURATION.finditer(text):
        clause = (
            clause_before(text, match.start())
            + match.group(0)
            + clause_after(text, match.end())
        )
        start, end = sentence_span(text, match.start())
        if not (
            _TRAINING_WORDS.search(clause) or _TRAINING_WORDS.search(text, start, end)
        ):
            continue
        if _DELIVERY_WORDS.search(clause) or not _asserted_figure(text, match):
            continue
        days = _days(_number(match.group(1)), match.group(2))
        if 0 < days < lower_bound_days:
            found.append(_quote(text, match.start(), match.end()))
    return list(dict.fromkeys(found))
