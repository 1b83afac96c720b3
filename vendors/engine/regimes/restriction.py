"""Criteria that would restrict or exclude suppliers (政府采购法实施条例 第二十条).

A checklist criterion is flagged when its text asks for what 第二十条 forbids (primary
text): performance or awards in a specific region or industry as a scoring or award
condition (（四）), a named brand, patent or supplier (（六）), the supplier's ownership,
organisational form or location (（七）); 87号令 第十七条 (secondary text) adds size
conditions — registered capital, assets, revenue, staff numbers. A "similar client"
criterion ("提供同类客户案例", "past clients such as ...") restricts suppliers when it
asks for a *similar client* at all (the client's kind stands in for an industry,
（四）), or names a region, an industry or specific clients (（四）、（八）); a request for a
comparable *workload or scenario* does not. ClusterBuy's default checklist item was
"Similar client and scenario" and is flagged; the default now reads "Similar workload
and scale" (`models.checklist_default`), which the contract needs and no clause
forbids. 招标投标法实施条例 第三十二条 holds the same
rules for 依法必须招标. The match is a prompt for the buyer to rewrite the criterion,
with the clause it would break; the commercial regime gets none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .rules import RegimeRules
from .validation import RuleViolation

__all__ = ["CriterionText", "restrictive_criteria"]


@dataclass(frozen=True)
class CriterionText:
    key: str
    text: str  # the criterion as the buyer wrote it (zh or en)


_CLIENT = r"(同类客户|客户案例|用户案例|服务过|past clients?|similar clients?|client references?)"
_REGION = r"(本省|本市|本地|省内|市内|本区域|特定地区|local|in the province|in the city|region)"
_INDUSTRY = r"(同行业|本行业|高校|银行|央企|国企|政府机关|行业内|same industry|universit|bank|state-owned)"
_SIZE = (
    r"(注册资本|资产总额|营业收入|从业人员|员工人数|利润|纳税额|registered capital|"
    r"annual revenue|turnover|employees|headcount|total assets)"
)
_OWNERSHIP = r"(国有企业|民营企业|外资|所有制|本地注册|总部位于|state-owned|headquartered in|ownership)"
_BRAND = r"(指定品牌|品牌为|仅限.{0,6}品牌|原厂|brand must be|only brand)"

# (code, pattern, clause) — patterns are searched case-insensitively
_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "restrict_similar_client",
        re.compile(r"(同类客户|相似客户|类似客户|similar clients?)", re.I),
        "（四）",
    ),
    (
        "restrict_client_region",
        re.compile(f"{_CLIENT}.{{0,40}}{_REGION}|{_REGION}.{{0,40}}{_CLIENT}", re.I),
        "（四）",
    ),
    (
        "restrict_client_industry",
        re.compile(
            f"{_CLIENT}.{{0,40}}{_INDUSTRY}|{_INDUSTRY}.{{0,40}}{_CLIENT}", re.I
        ),
        "（四）",
    ),
    (
        "restrict_named_clients",
        re.compile(
            r"(如|例如|包括|such as|e\.g\.|including)[^。.;；]{0,30}(大学|银行|集团|公司|研究院|University|Bank|Group|Inc)",
            re.I,
        ),
        "（八）",
    ),
    (
        "restrict_region_performance",
        re.compile(f"{_REGION}.{{0,20}}(业绩|奖项|award|reference)", re.I),
        "（四）",
    ),
    ("restrict_size", re.compile(_SIZE, re.I), "87号令 第十七条"),
    ("restrict_ownership_location", re.compile(_OWNERSHIP, re.I), "（七）"),
    ("restrict_brand", re.compile(_BRAND, re.I), "（六）"),
)


def restrictive_criteria(
    rules: RegimeRules, criteria: Sequence[CriterionText]
) -> tuple[RuleViolation, ...]:
    """One violation per criterion and kind of restriction found in its text."""
    if not rules.restriction_articles:
        return ()
    found: list[RuleViolation] = []
    for criterion in criteria:
        seen: set[str] = set()
        for code, pattern, clause in _RULES:
            match = pattern.search(criterion.text)
            if not match or code in seen:
                continue
            if code == "restrict_similar_client" and re.search(
                r"不限|any client", criterion.text, re.I
            ):
                continue
            if code == "restrict_named_clients" and not re.search(
                _CLIENT, criterion.text, re.I
            ):
                continue
            seen.add(code)
            article = rules.restriction_articles[0]
            if clause.startswith("87号令") and len(rules.restriction_articles) > 1:
                article = rules.restriction_articles[1]
            found.append(
                RuleViolation(
                    code,
                    criterion.key,
                    f"Criterion {criterion.key!r} may restrict suppliers "
                    f"({article.citation}{'' if clause.startswith('87') else clause}): "
                    f"“{match.group(0)}”.",
                    {
                        "criterion": criterion.key,
                        "match": match.group(0),
                        "clause": clause,
                    },
                    article,
                )
            )
    return tuple(found)
