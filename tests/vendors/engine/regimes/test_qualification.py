"""资格审查 in the engine: the statutory requirements per regime, failures only where a
failure was recorded (pending fails nothing), the article that invalidates, and the
第二十条 check on the default checklist (no false positive)."""

import pytest

from vendors.engine.regimes import (
    CriterionText,
    qualification_articles,
    restrictive_criteria,
    review_qualification,
    rules_for,
    statutory_qualification,
)

GOV = rules_for("gov_procurement")
TENDER = rules_for("tendering")
COMMERCIAL = rules_for("commercial")


def test_statutory_requirements_follow_article_22_and_tbl_26():
    gov = statutory_qualification(GOV)
    assert [i.key for i in gov] == [
        "gpl22_civil_liability",
        "gpl22_credit_accounting",
        "gpl22_equipment_expertise",
        "gpl22_tax_social_security",
        "gpl22_no_violations",
        "gpl22_other_legal",
    ]
    article = gov[0].article
    assert article.citation == "《政府采购法》第二十二条" and article.primary
    assert "（一）具有独立承担民事责任的能力" in article.quote_zh
    assert (
        "（五）参加政府采购活动前三年内，在经营活动中没有重大违法记录"
        in article.quote_zh
    )
    (tbl,) = statutory_qualification(TENDER)
    assert tbl.article.citation == "《招标投标法》第二十六条" and tbl.article.primary
    assert statutory_qualification(COMMERCIAL) == ()


def test_who_reviews_and_what_invalidates():
    gov = qualification_articles(GOV)
    assert gov.reviewer.article == "第四十四条" and not gov.reviewer.primary
    assert "合格投标人不足3家的，不得评标" in gov.reviewer.quote_zh
    assert gov.invalid.article == "第六十三条（三）"
    tender = qualification_articles(TENDER)
    assert tender.reviewer.citation == "《招标投标法实施条例》第二十条"
    assert tender.reviewer.primary and "由评标委员会" in tender.reviewer.quote_zh
    assert tender.invalid.article == "第五十一条（三）" and tender.invalid.primary
    assert qualification_articles(COMMERCIAL).invalid is None


def test_only_recorded_failures_of_listed_requirements_fail():
    keys = ["gpl22_civil_liability", "gpl22_tax_social_security", "custom_1"]
    results = {
        "gpl22_civil_liability": (True, ""),
        "gpl22_tax_social_security": (False, "社保欠缴 3 个月"),
        # custom_1 pending; a result for a requirement no longer listed is ignored
        "gpl22_no_violations": (False, "old"),
    }
    (failure,) = review_qualification(GOV, keys, results)
    assert failure.item_key == "gpl22_tax_social_security"
    assert failure.note == "社保欠缴 3 个月"
    assert failure.article.article == "第六十三条（三）"
    assert review_qualification(GOV, keys, {}) == ()
    (commercial,) = review_qualification(COMMERCIAL, keys, results)
    assert commercial.article is None


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_no_default_criterion_is_flagged_by_article_20(lang):
    from django.utils import translation

    from vendors.models.checklist_default import SECTIONS

    with translation.override(lang):
        criteria = [
            CriterionText(code, str(translation.gettext(text)))
            for s in SECTIONS
            for code, text, _weight in s[4]
        ]
    assert restrictive_criteria(GOV, criteria) == ()
    texts = {c.key: c.text for c in criteria}
    assert texts["case_similar"] in (
        "Similar workload and scale",
        "相似负载与规模的案例",
    )
