"""A vendor's other names, learnt from its own texts: the short names, brands and
product lines a blind evaluator would recognise it by ("华东智算", "天际 TJ-AI8000",
"天际 AI 平台"), besides the legal name `visibility.name_fragments` already covers.

The rule (pure, on plain strings):

- a *term* is a Latin word that looks like a name rather than a word: mixed case
  inside the word ("PromiseAI", "iFlyCloud"), or letters and digits together
  ("TJ-AI8000", "X8"), joined by hyphens; or 2-8 CJK characters of a run (every
  piece of a longer run) that neither start nor end with a function character
  ("为", "的") and are no common word of an offer ("平台", "集群");
- a term is *learnt* (masked without the buyer's action) when it occurs in at least
  ``MIN_SOURCES`` of the vendor's own texts (two fields, two bids, a bid and a case
  study...), in none of the other vendors' texts of the same procurement (a word
  every bidder writes, "H100", "集群", "方案", names no one), and is no catalogue
  word (accelerator names, their makers: ``known``); of overlapping CJK terms with the
  same sources only the longest is kept ("华东智算", not "华东" and "智算" too);
- the *remaining candidates* are the terms that occur once, or look like names and
  are not masked: the buyer sees them (where they occur) before blind grading starts
  and may declare any of them an alias.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

MIN_SOURCES = 2
MIN_CJK_CHARS, MAX_CJK_CHARS = 2, 8
SNIPPET_CHARS = 30
#: Latin words that are technology or procurement vocabulary, never a vendor's brand
#: (casefolded); catalogue names are added by the caller (``known``).
COMMON_TERMS = frozenset(
    {
        "ai",
        "gpu",
        "gpus",
        "cpu",
        "nvme",
        "ssd",
        "hbm",
        "hbm3",
        "hbm3e",
        "ddr5",
        "pcie",
        "pcie5",
        "nvlink",
        "rdma",
        "roce",
        "rocev2",
        "infiniband",
        "ndr",
        "hdr",
        "x86",
        "arm64",
        "fp8",
        "fp16",
        "bf16",
        "int8",
        "llm",
        "mlperf",
        "pytorch",
        "megatron",
        "megatron-lm",
        "deepspeed",
        "vllm",
        "sglang",
        "tensorrt",
        "tensorrt-llm",
        "slurm",
        "kubernetes",
        "k8s",
        "iso",
        "iso9001",
        "iso27001",
        "7x24",
        "24x7",
        "2u",
        "4u",
        "8u",
        "1u",
    }
)
#: Chinese words of any technical offer (never a brand), and the function characters
#: a name neither starts nor ends with ("华东智算为" is "华东智算" and a preposition).
COMMON_CJK_WORDS = frozenset(
    {
        "平台",
        "集群",
        "方案",
        "服务",
        "网络",
        "存储",
        "软件",
        "系统",
        "许可",
        "交付",
        "部署",
        "运维",
        "训练",
        "推理",
        "算力",
        "智算",
        "智能",
        "数据",
        "中心",
        "服务器",
        "互联",
        "液冷",
        "风冷",
        "机柜",
        "节点",
        "我们",
        "贵司",
        "公司",
        "客户",
        "项目",
        "提供",
        "支持",
        "配套",
        "保障",
        "升级",
    }
)
FUNCTION_CHARS = frozenset(
    "的了和与及或在是为对向将由从把被给于以及其并等个每各该此这那"
)
_LATIN = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*(?![\w-])")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]{2,}")


@dataclass(frozen=True)
class Occurrence:
    """Where a term occurs: the text's label ("bid #3 · server model") and a snippet."""

    source: str
    snippet: str


@dataclass
class AliasCandidate:
    term: str
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def sources(self) -> int:
        return len({o.source for o in self.occurrences})


@dataclass(frozen=True)
class AliasReport:
    """``learnt``: masked without the buyer; ``remaining``: name-like terms that stay
    visible unless declared (both sorted by term)."""

    learnt: list[AliasCandidate]
    remaining: list[AliasCandidate]


def _looks_like_name(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    if len(word) < 2 or not letters:
        return False
    has_digit = any(c.isdigit() for c in word)
    inner_upper = any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
    all_caps_code = word.isupper() and len(letters) >= 2 and ("-" in word or has_digit)
    return has_digit or inner_upper or all_caps_code


def latin_terms(text: str) -> set[str]:
    return {
        m.group(0)
        for m in _LATIN.finditer(text)
        if _looks_like_name(m.group(0)) and m.group(0).casefold() not in COMMON_TERMS
    }


def cjk_terms(text: str) -> set[str]:
    """Every 2-8 character piece of a CJK run that neither starts nor ends with a
    function character and is not a common word of an offer."""
    terms = set()
    for run in _CJK_RUN.findall(text):
        for size in range(MIN_CJK_CHARS, min(MAX_CJK_CHARS, len(run)) + 1):
            terms.update(run[i : i + size] for i in range(len(run) - size + 1))
    return {
        t
        for t in terms
        if t[0] not in FUNCTION_CHARS
        and t[-1] not in FUNCTION_CHARS
        and t not in COMMON_CJK_WORDS
    }


def _snippet(text: str, term: str) -> str:
    at = text.find(term)
    start = max(0, at - SNIPPET_CHARS)
    end = min(len(text), at + len(term) + SNIPPET_CHARS)
    return " ".join(text[start:end].split())


def _occurrences(texts: list[tuple[str, str]]) -> dict[str, AliasCandidate]:
    found: dict[str, AliasCandidate] = {}
    for source, text in texts:
        for term in latin_terms(text) | cjk_terms(text):
            candidate = found.setdefault(term, AliasCandidate(term))
            candidate.occurrences.append(Occurrence(source, _snippet(text, term)))
    return found


def _maximal(candidates: list[AliasCandidate]) -> list[AliasCandidate]:
    """Drop a term inside a longer kept term that occurs in the same sources."""
    ordered = sorted(candidates, key=lambda c: len(c.term), reverse=True)
    kept: list[AliasCandidate] = []
    for candidate in ordered:
        sources = {o.source for o in candidate.occurrences}
        if any(
            candidate.term in longer.term
            and sources <= {o.source for o in longer.occurrences}
            for longer in kept
        ):
            continue
        kept.append(candidate)
    return sorted(kept, key=lambda c: c.term)


def learn_aliases(
    own: list[tuple[str, str]],
    others: Iterable[str],
    *,
    known: Iterable[str] = (),
    masked: Iterable[str] = (),
) -> AliasReport:
    """The vendor's learnt aliases and its remaining name-like terms (module rule).

    ``own``: (source label, text) of the vendor's own texts; ``others``: the other
    bidders' texts; ``known``: catalogue words never masked; ``masked``: what is
    masked already (its name's fragments, declared aliases), left out of both lists
    with every term inside one of them.
    """
    other_text = "\n".join(others).casefold()
    known_words = {k.casefold() for k in known}
    masked_terms = [m.casefold() for m in masked if m]
    found = _occurrences([(s, t) for s, t in own if t])
    learnt, remaining = [], []
    for term, candidate in found.items():
        folded = term.casefold()
        if folded in known_words or folded in other_text:
            continue
        if any(folded in m for m in masked_terms):
            continue
        if candidate.sources >= MIN_SOURCES:
            learnt.append(candidate)
        elif _CJK_RUN.fullmatch(term) is None:  # one-off Latin name-like terms
            remaining.append(candidate)
    return AliasReport(learnt=_maximal(learnt), remaining=_maximal(remaining))
