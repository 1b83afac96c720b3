"""资格审查 (qualification review): whether the *supplier* may take part, kept apart from
the 符合性审查 of its bid (``mandatory``).

* 政府采购: the supplier conditions of 政府采购法 第二十二条 (primary text) are the
  statutory requirements; the buyer may add 特定条件 for the project (same article,
  second paragraph: never unreasonable ones, 实施条例 第二十条). The 采购人 or its
  采购代理机构 reviews them after the opening (87号令 第四十四条, secondary text: "合格
  投标人不足3家的，不得评标"); a bid whose supplier fails is invalid (87号令 第六十三条
  （三）, secondary text).
* 依法必须招标: the bidder must be able to carry out the project and meet the conditions
  the state or the 招标文件 set (招标投标法 第二十六条, primary); under 资格后审 the
  评标委员会 reviews them after the opening (实施条例 第二十条) and rejects a bidder who
  fails (实施条例 第五十一条（三）).
* Commercial: no statutory condition; the buyer's own requirements, no article.

A requirement nobody has judged yet is *pending*, not failed: only a recorded failure
makes a bid invalid, so the review can be done after the opening, as the articles say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from . import articles as law
from .articles import Article
from .rules import Regime, RegimeRules

__all__ = [
    "CUSTOM_PREFIX",
    "QualificationFailure",
    "QualificationItem",
    "qualification_articles",
    "review_qualification",
    "statutory_qualification",
]

#: Keys of the buyer's own requirements: "custom_1", "custom_2", ...
CUSTOM_PREFIX = "custom_"


@dataclass(frozen=True)
class QualificationItem:
    key: str  # "gpl22_civil_liability", ... or "custom_<n>"
    text: str  # the buyer's wording of a custom requirement; "" for a statutory one
    article: Article | None  # the article that sets it; None: the buyer's own


@dataclass(frozen=True)
class QualificationFailure:
    item_key: str
    note: str  # the reviewer's reason, as recorded
    article: Article | None  # the article that makes the bid invalid


@dataclass(frozen=True)
class QualificationArticles:
    reviewer: Article | None  # who reviews, and when
    invalid: Article | None  # a supplier who fails: 无效投标 / 否决投标


#: 政府采购法 第二十二条（一）-（六）, in the order of the article.
GPL22_KEYS = (
    "gpl22_civil_liability",
    "gpl22_credit_accounting",
    "gpl22_equipment_expertise",
    "gpl22_tax_social_security",
    "gpl22_no_violations",
    "gpl22_other_legal",
)
TBL26_KEYS = ("tbl26_capability",)

_STATUTORY: Mapping[Regime, tuple[QualificationItem, ...]] = MappingProxyType(
    {
        Regime.COMMERCIAL: (),
        Regime.GOV_PROCUREMENT: tuple(
            QualificationItem(key, "", law.GPL_22) for key in GPL22_KEYS
        ),
        Regime.TENDERING: tuple(
            QualificationItem(key, "", law.TBL_26) for key in TBL26_KEYS
        ),
    }
)

_ARTICLES: Mapping[Regime, QualificationArticles] = MappingProxyType(
    {
        Regime.COMMERCIAL: QualificationArticles(None, None),
        Regime.GOV_PROCUREMENT: QualificationArticles(law.ORDER87_44, law.ORDER87_63_3),
        Regime.TENDERING: QualificationArticles(law.TBL_IMPL_20, law.TBL_IMPL_51_3),
    }
)

STATUTORY_KEYS = frozenset(GPL22_KEYS + TBL26_KEYS)


def statutory_qualification(rules: RegimeRules) -> tuple[QualificationItem, ...]:
    """The regime's statutory qualification requirements (the default list)."""
    return _STATUTORY[rules.regime]


def qualification_articles(rules: RegimeRules) -> QualificationArticles:
    """Who reviews the qualification under ``rules``, and what makes a failure
    invalid."""
    return _ARTICLES[rules.regime]


def item_article(key: str) -> Article | None:
    """The article a statutory requirement comes from (None: the buyer's own)."""
    if key in GPL22_KEYS:
        return law.GPL_22
    if key in TBL26_KEYS:
        return law.TBL_26
    return None


def review_qualification(
    rules: RegimeRules,
    item_keys: Sequence[str],
    results: Mapping[str, tuple[bool, str]],
) -> tuple[QualificationFailure, ...]:
    """The failures of one supplier: each requirement in ``item_keys`` recorded as
    failed in ``results`` (key -> (passed, note)). A requirement with no result is
    pending and fails nothing; a result for a requirement no longer listed is
    ignored (it was not asked)."""
    invalid = qualification_articles(rules).invalid
    failures = []
    for key in item_keys:
        result = results.get(key)
        if result is not None and not result[0]:
            failures.append(QualificationFailure(key, result[1], invalid))
    return tuple(failures)
