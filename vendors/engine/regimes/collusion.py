"""Collusion signals across bids, for the committee to judge; never disqualifying alone.

87号令 第三十七条 (secondary text) and 招标投标法实施条例 第四十条 (primary) deem bids
collusive when, among others, they were prepared by the same person, name the same
contact, are 异常一致 or priced in 规律性差异, or their bonds come from one account. A
signal here is evidence that one of those facts may hold; the committee establishes the
fact and records its judgement, so no signal invalidates a bid by itself.

Signals and their evidence:
* ``same_contact`` / ``same_phone`` / ``same_email`` / ``same_bond_account``: the value,
  normalised (spaces and case; a phone by its digits, +86 dropped).
* ``same_author``: an author or creator shared by uploaded documents' metadata (generic
  names such as "Administrator" ignored).
* ``same_typos``: the same misspelling of a technical term (``Kubernets``), or the same
  error reported for both bids (``CollusionFacts.errors``).
* ``similar_text``: character 3-gram shingles (no word segmentation, so it works on
  Chinese); shingles common to most bids or to the RFP are dropped first, so shared RFP
  wording and the field's vocabulary do not count; then the Jaccard overlap. At or
  above ``SIMILAR_TEXT_THRESHOLD`` (0.12) the pair is flagged. Measured on the texts of
  tests/vendors/engine/regimes/proposals.py (a proposal reworded sentence by sentence,
  three honest proposals to the same RFP): the reworded pair scores 0.203 with the RFP
  and the common shingles dropped (0.253 with the RFP only, 0.263 raw); honest pairs
  score at most 0.007 (0.032 with the RFP only). The threshold sits 0.08 below the
  reworded pair and 0.09 above the most similar honest pair in the worst case.
* ``price_steps``: three or more bids whose prices rise by the same amount (to 1 CNY)
  or the same ratio (to 0.0001 %); with 20 bids priced to the yuan over a 5 M CNY
  spread, about 1 % of random tenders raise a false step signal (300 simulated, seed 1).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations
from typing import Literal

from ..detectors.text import shingles
from . import articles as law
from .articles import Article
from .typos import misspelt_terms

__all__ = [
    "SIMILAR_TEXT_THRESHOLD",
    "CollusionFacts",
    "CollusionSignal",
    "SignalKind",
    "collusion_signals",
    "distinctive_similarity",
]

SignalKind = Literal[
    "same_contact",
    "same_phone",
    "same_email",
    "same_author",
    "same_typos",
    "similar_text",
    "price_steps",
    "same_bond_account",
]

SIMILAR_TEXT_THRESHOLD = 0.12
SHINGLE_CHARS = 3
_COMMON_SHARE = 0.5  # a shingle in more than half the bids is the field's vocabulary
_MIN_SHINGLES = 40  # shorter texts say too little to compare
_GENERIC_AUTHORS = frozenset(
    {
        "",
        "administrator",
        "admin",
        "user",
        "microsoft",
        "microsoft office user",
        "微软用户",
        "用户",
        "作者",
        "unknown",
        "wps",
    }
)


@dataclass(frozen=True)
class CollusionFacts:
    bid_id: str
    contact_person: str = ""
    phone: str = ""
    email: str = ""
    doc_authors: tuple[
        str, ...
    ] = ()  # author / creator in uploaded documents' metadata
    bond_account: str = ""  # the account the bid bond was paid from
    text: str = ""  # the technical proposal's text
    price_cny: Decimal | None = None  # the quoted price
    errors: tuple[
        str, ...
    ] = ()  # unusual errors found in the bid (spell check, review)


@dataclass(frozen=True)
class CollusionSignal:
    kind: SignalKind
    bid_ids: tuple[str, ...]  # sorted
    evidence: str  # what was found, quoted
    article: Article
    score: float | None = None  # similar_text: the overlap


def _article(kind: SignalKind) -> Article:
    # 87号令 第三十七条 names the contact person; 实施条例 第四十条 the rest as well.
    return law.ORDER87_37 if kind == "same_contact" else law.TBL_IMPL_40


def _phone(value: str) -> str:
    digits = re.sub(r"\D", "", value)
    return digits[2:] if digits.startswith("86") and len(digits) > 11 else digits


def _plain(value: str) -> str:
    return " ".join(value.split()).casefold()


def _shared_values(
    facts: Sequence[CollusionFacts],
    kind: SignalKind,
    values: Callable[[CollusionFacts], Iterable[str]],
) -> list[CollusionSignal]:
    holders: dict[str, set[str]] = defaultdict(set)
    shown: dict[str, str] = {}
    for fact in facts:
        for raw, key in values(fact):
            if key:
                holders[key].add(fact.bid_id)
                shown.setdefault(key, raw)
    return [
        CollusionSignal(kind, tuple(sorted(ids)), shown[key], _article(kind))
        for key, ids in sorted(holders.items())
        if len(ids) > 1
    ]


def _identity_signals(facts: Sequence[CollusionFacts]) -> list[CollusionSignal]:
    def one(get: Callable[[CollusionFacts], str], norm: Callable[[str], str]):
        return lambda f: [(get(f).strip(), norm(get(f)))]

    def authors(f: CollusionFacts):
        return [
            (a.strip(), _plain(a))
            for a in f.doc_authors
            if _plain(a) not in _GENERIC_AUTHORS
        ]

    def typos(f: CollusionFacts):
        found = [(t, t.casefold()) for t in misspelt_terms(f.text)]
        return found + [(e.strip(), _plain(e)) for e in f.errors]

    found: list[CollusionSignal] = []
    found += _shared_values(
        facts, "same_contact", one(lambda f: f.contact_person, _plain)
    )
    found += _shared_values(facts, "same_phone", one(lambda f: f.phone, _phone))
    found += _shared_values(facts, "same_email", one(lambda f: f.email, _plain))
    found += _shared_values(
        facts, "same_bond_account", one(lambda f: f.bond_account, _phone)
    )
    found += _shared_values(facts, "same_author", authors)
    found += _shared_values(facts, "same_typos", typos)
    return found


def _shingles(text: str) -> frozenset[str]:
    # the detectors' shingles: case, whitespace and punctuation dropped, memoised
    return shingles(text, SHINGLE_CHARS)


def distinctive_similarity(
    a: str, b: str, *, common: frozenset[str] = frozenset()
) -> float:
    """Jaccard overlap (0-1) of the two texts' 3-gram shingles outside ``common``."""
    sa, sb = _shingles(a) - common, _shingles(b) - common
    if len(sa) < _MIN_SHINGLES or len(sb) < _MIN_SHINGLES:
        return 0.0
    return len(sa & sb) / len(sa | sb)


def _text_signals(
    facts: Sequence[CollusionFacts], rfp_text: str, threshold: float
) -> list[CollusionSignal]:
    texts = {f.bid_id: f.text for f in facts if f.text.strip()}
    counts = Counter(s for t in texts.values() for s in _shingles(t))
    common = set(_shingles(rfp_text)) if rfp_text else set()
    if len(texts) >= 4:
        common |= {s for s, c in counts.items() if c > _COMMON_SHARE * len(texts)}
    found = []
    for x, y in combinations(sorted(texts), 2):
        score = distinctive_similarity(texts[x], texts[y], common=frozenset(common))
        if score >= threshold:
            shared = sorted((_shingles(texts[x]) & _shingles(texts[y])) - common)
            sample = "、".join(shared[:12])
            found.append(
                CollusionSignal(
                    "similar_text",
                    (x, y),
                    f"{score:.2f} of the distinctive 3-character shingles are shared "
                    f"(threshold {threshold:.2f}), e.g. {sample}",
                    law.TBL_IMPL_40,
                    score,
                )
            )
    return found


def _price_runs(prices: list[tuple[Decimal, str]]) -> list[list[tuple[Decimal, str]]]:
    runs = []
    for i, j in combinations(range(len(prices)), 2):
        step, ratio = prices[j][0] - prices[i][0], prices[j][0] / prices[i][0]
        if step <= 0:
            continue
        for same in (
            lambda a, b, step=step: abs((b - a) - step) <= 1,
            lambda a, b, ratio=ratio: abs(b / a - ratio) <= Decimal("0.000001"),
        ):
            run = [prices[i], prices[j]]
            for k in range(j + 1, len(prices)):
                if same(run[-1][0], prices[k][0]):
                    run.append(prices[k])
            if len(run) >= 3:
                runs.append(run)
    return runs


def _price_signals(facts: Sequence[CollusionFacts]) -> list[CollusionSignal]:
    prices = sorted((f.price_cny, f.bid_id) for f in facts if f.price_cny)
    seen: set[tuple[str, ...]] = set()
    found = []
    for run in sorted(_price_runs(prices), key=len, reverse=True):
        ids = tuple(sorted(b for _, b in run))
        if any(set(ids) <= set(s) for s in seen):
            continue
        seen.add(ids)
        steps = ", ".join(f"{b:,.0f}" for b, _ in run)
        found.append(
            CollusionSignal(
                "price_steps",
                ids,
                f"prices in regular steps: {steps} CNY",
                law.TBL_IMPL_40,
            )
        )
    return found


def collusion_signals(
    facts: Sequence[CollusionFacts],
    *,
    rfp_text: str = "",
    text_threshold: float = SIMILAR_TEXT_THRESHOLD,
) -> tuple[CollusionSignal, ...]:
    """Every signal across the bids, identity signals first, then text, then price."""
    ids = [f.bid_id for f in facts]
    if len(ids) != len(set(ids)):
        raise ValueError("each bid's facts must be given once")
    return tuple(
        _identity_signals(facts)
        + _text_signals(facts, rfp_text, text_threshold)
        + _price_signals(facts)
    )
