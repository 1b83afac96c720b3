"""``template_proposal``: boilerplate that ignores this procurement, the buyer's own RFP
copied back, a near-copy of another bid's text, or a proposal with no design work of
the vendor's own (issue 24)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from . import originality
from .findings import FactCode, Pitfall, PitfallCode, fact, pitfall
from .text import shingles, text_similarity

_CODE = PitfallCode.TEMPLATE_PROPOSAL
_KIND_WORDS = {
    "training": re.compile(r"\b(?:pre-?)?train|训练", re.IGNORECASE),
    "inference": re.compile(r"inferenc|\bserv(?:e|es|ing)\b|推理", re.IGNORECASE),
    "fine_tuning": re.compile(
        r"fine[- ]?tun|\bSFT\b|LoRA|\bRLHF\b|\bDPO\b|post-?train|instruction[- ]tun"
        r"|微调|后训练|对齐训练",
        re.IGNORECASE,
    ),
}
_PARAMS = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*"
    r"(?:(b|billion)(?![A-Za-z/])|(t|trillion)(?![A-Za-z])|(万亿)|(亿)(?!元|人民币))",
    re.IGNORECASE,
)
# A volume, not a rate: "500 TB", "0.5 PB", "800 GB", never "64 GB/s".
_DATA = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)\s*(GB|GiB|TB|PB|TiB|PiB)(?![A-Za-z])"
    r"(?!\s*/\s*s)",
    re.IGNORECASE,
)
_PLACE_PARTS = re.compile(r"[\s,，/、()（）]+")
_NAME_NOISE = re.compile(r"[\W_]+")
_ON_PREM = re.compile(r"on[- ]prem|本地|机房|本地化部署|私有化部署", re.IGNORECASE)
_SHINGLE_CHARS = 4

# (what the procurement states: its code, in English and Chinese; whether the text
# addresses it)
Check = tuple[str, str, str, bool]


def detect_template_proposal(
    proposal_text: str,
    *,
    workload_kind: str = "",
    model_names: Sequence[str] = (),
    model_params_b: float | None = None,
    data_tb: float | None = None,
    location: str = "",
    other_texts: Sequence[str] = (),
    min_addressed_share: float = 0.5,
    similarity_limit: float = 0.7,
    min_shingles: int = 30,
    rfp_text: str = "",
) -> list[Pitfall]:
    """Flag boilerplate: fewer than ``min_addressed_share`` of this procurement's
    specifics mentioned (workload kind, model, data volume, location) by a text that
    works out no design topic either (``originality.design_topics``: a hardware
    section that designs the fabric for 12 nodes is not boilerplate because it does
    not name the city); most of the text the buyer's own RFP (``originality.rfp_echo``);
    character 4-gram Jaccard similarity above ``similarity_limit`` with another bid's
    text, or a large share of text two bids share with no one else
    (``originality.shared_own_text``); or a full proposal with no design work of its
    own (``originality.no_design_work``).

    A specific the procurement does not state is not held against the bid. Model scale
    counts as addressed when a model name (punctuation aside: Llama-3-70B = Llama 3
    70B) or the parameter count (70B, 700亿, 0.4T) appears within 5 %; data volume when
    a GB/TB/PB figure within 5 % appears; location when any name of the place appears
    ("上海 Shanghai" by either) or the text speaks of an on-site deployment.
    """
    checks = _procurement_checks(
        proposal_text,
        workload_kind=workload_kind,
        model_names=model_names,
        model_params_b=model_params_b,
        data_tb=data_tb,
        location=location,
    )
    return [
        *(
            _unaddressed_specifics(checks, min_addressed_share=min_addressed_share)
            if not originality.design_topics(proposal_text)
            else []
        ),
        *originality.rfp_echo(proposal_text, rfp_text),
        *_copied_texts(
            proposal_text,
            other_texts,
            similarity_limit=similarity_limit,
            min_shingles=min_shingles,
            rfp_text=rfp_text,
        ),
        *originality.no_design_work(proposal_text),
    ]


def _procurement_checks(
    text: str,
    *,
    workload_kind: str,
    model_names: Sequence[str],
    model_params_b: float | None,
    data_tb: float | None,
    location: str,
) -> list[Check]:
    """Whether the text addresses each specific this procurement states."""
    lowered = text.lower()
    checks: list[Check] = []
    if workload_kind in _KIND_WORDS:
        checks.append(
            (
                "workload",
                "workload",
                "工作负载类型",
                bool(_KIND_WORDS[workload_kind].search(text)),
            )
        )
    if model_names or model_params_b:
        compact = _NAME_NOISE.sub("", lowered)
        named = any(
            _NAME_NOISE.sub("", name.lower()) in compact
            for name in model_names
            if _NAME_NOISE.sub("", name)
        )
        scaled = model_params_b is not None and any(
            _close(count, model_params_b) for count in _param_counts_b(text)
        )
        checks.append(("model_scale", "model scale", "模型规模", named or scaled))
    if data_tb:
        stated = any(_close(volume, data_tb) for volume in _data_tbs(text))
        checks.append(("data_volume", "data volume", "数据量", stated))
    if location:
        here = any(part in lowered for part in _place_names(location)) or bool(
            _ON_PREM.search(text)
        )
        checks.append(("location", "location", "部署地点", here))
    return checks


def _unaddressed_specifics(
    checks: Sequence[Check], *, min_addressed_share: float
) -> list[Pitfall]:
    missing = [(code, en, zh) for code, en, zh, addressed in checks if not addressed]
    if not checks or (len(checks) - len(missing)) / len(checks) >= min_addressed_share:
        return []
    en_list = ", ".join(en for _, en, _ in missing)
    zh_list = "、".join(zh for _, _, zh in missing)
    return [
        pitfall(
            _CODE,
            f"The proposal does not address this procurement's {en_list}.",
            f"方案未涉及本次采购的{zh_list}。",
            facts=tuple(
                fact(FactCode.NOT_ADDRESSED, specific=code) for code, _, _ in missing
            ),
        )
    ]


def _copied_texts(
    text: str,
    other_texts: Sequence[str],
    *,
    similarity_limit: float,
    min_shingles: int,
    rfp_text: str = "",
) -> list[Pitfall]:
    """One finding per other bid whose text is too similar - by the Jaccard of the
    whole texts, or by ``originality.shared_own_text`` (what the two share that is
    neither the RFP's wording nor common to the other bids) - short texts are skipped,
    since a few shared phrases would make them look alike."""
    if len(shingles(text, _SHINGLE_CHARS)) < min_shingles:
        return []
    found: list[Pitfall] = []
    for index, other in enumerate(other_texts, start=1):
        if len(shingles(other, _SHINGLE_CHARS)) < min_shingles:
            continue
        similarity = text_similarity(text, other)
        own = originality.shared_own_text(text, other, other_texts, rfp_text)
        if similarity > similarity_limit or own >= originality.OWN_TEXT_LIMIT:
            shown = max(similarity, own)
            found.append(
                pitfall(
                    _CODE,
                    f"The proposal text is {shown:.0%} identical to another "
                    f"bid's (other bid {index}).",
                    f"方案文本与另一份投标（第 {index} 份）的相似度为 {shown:.0%}。",
                    facts=(
                        fact(
                            FactCode.SIMILAR_TEXT,
                            other_bid=index,
                            similarity=round(similarity, 3),
                        ),
                    ),
                )
            )
    return found


def _close(a: float, b: float, rel: float = 0.05) -> bool:
    return math.isclose(a, b, rel_tol=rel)


def _param_counts_b(text: str) -> list[float]:
    """Parameter counts in the text, in billions (70B, 0.4T, 700亿, 1万亿)."""
    counts = []
    for match in _PARAMS.finditer(text):
        value = float(match.group(1))
        if match.group(3):
            value *= 1000
        elif match.group(4):
            value *= 10000
        elif match.group(5):
            value /= 10
        counts.append(value)
    return counts


def _data_tbs(text: str) -> list[float]:
    """Data volumes in the text, in TB."""
    per_unit = {
        "gb": 0.001,
        "gib": 0.0010737,
        "tb": 1.0,
        "tib": 1.0995,
        "pb": 1000.0,
        "pib": 1125.9,
    }
    return [
        float(match.group(1)) * per_unit[match.group(2).lower()]
        for match in _DATA.finditer(text)
    ]


def _place_names(location: str) -> list[str]:
    """Each name a location is written with: "上海 Shanghai" is addressed by 上海 or by
    Shanghai (a bilingual city field, as the demo has)."""
    parts = [p for p in _PLACE_PARTS.split(location.lower()) if len(p) >= 2]
    return parts or [location.lower()]
