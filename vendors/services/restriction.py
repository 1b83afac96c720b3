"""第二十条 warnings: the procurement's checklist criteria that would restrict or
exclude suppliers (政府采购法实施条例 第二十条, `regimes.restrictive_criteria`), shown
on the tender page and in the API under 政府采购 as prompts to rewrite the criterion.

Each criterion is checked in the words it is stored in and in the words it is shown in
(a default criterion is stored as its English msgid and shown translated), so a
Chinese-only pattern still finds an English default and the reverse. Only under
政府采购: the engine's clause numbers are those of 第二十条; 招标投标法实施条例 第三十二条
numbers the same rules differently, so a 依法必须招标 warning would cite the wrong
clause."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement

from ..engine.regimes import CriterionText, Regime, restrictive_criteria, rules_for
from ..models.checklist_default import criterion_text
from . import checklists, evaluation
from .tender import tender_settings_for


def _why(code: str) -> str:
    return {
        "restrict_similar_client": _(
            "it asks for a similar client, so the kind of client stands in for a "
            "specific industry"
        ),
        "restrict_client_region": _("it asks for clients in a specific region"),
        "restrict_client_industry": _("it asks for clients in a specific industry"),
        "restrict_named_clients": _("it names specific clients"),
        "restrict_region_performance": _(
            "it scores performance or awards in a specific region"
        ),
        "restrict_size": _(
            "it uses the supplier's size (capital, assets, revenue, staff) as a "
            "condition"
        ),
        "restrict_ownership_location": _(
            "it restricts the supplier's ownership, organisational form or location"
        ),
        "restrict_brand": _("it names or restricts a brand"),
    }.get(code, code)


def _criteria(procurement: Procurement) -> list[tuple[str, str, str]]:
    """(code, stored text, shown text) of every criterion of the checklist."""
    template = evaluation.evaluation_settings_for(procurement=procurement).template
    return [
        (c["code"], c["text"], criterion_text(c["code"], c["text"]))
        for s in checklists.template_sections(template)
        for c in s["criteria"]
    ]


def restriction_warnings(*, procurement: Procurement) -> list[dict]:
    """One warning per criterion and kind of restriction, with the article."""
    row = tender_settings_for(procurement=procurement)
    if row.regime != Regime.GOV_PROCUREMENT:
        return []
    rules = rules_for(row.regime)
    criteria = _criteria(procurement)
    shown = {code: text for code, _stored, text in criteria}
    texts = [
        CriterionText(code, text)
        for code, stored, display in criteria
        for text in dict.fromkeys((stored, display))
    ]
    warnings: dict[tuple[str, str], dict] = {}
    for violation in restrictive_criteria(rules, texts):
        key = (violation.field, violation.code)
        if key in warnings:
            continue
        clause = str(violation.params.get("clause", ""))
        article = violation.article
        citation = article.citation + ("" if clause.startswith("87") else clause)
        warnings[key] = {
            "criterion": violation.field,
            "text": shown.get(violation.field, violation.field),
            "code": violation.code,
            "match": str(violation.params.get("match", "")),
            "message": _(
                "Criterion “%(criterion)s” may restrict suppliers: %(why)s. Rewrite it."
            )
            % {"criterion": shown.get(violation.field), "why": _why(violation.code)},
            "citation": citation,
            "article_text": article.quote_zh,
            "primary": article.primary,
        }
    return list(warnings.values())
