"""The ``statutes`` filter: a Chinese statute a text cites is marked as Chinese on a
page in another language (a proper name, not untranslated copy), and the tender
settings page shows its refusal so."""

from django.utils import translation
from django.utils.safestring import mark_safe

from clusterbuy.templatetags.citations import statutes
from tests.vendors import tender_support

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world

LAW = "《政府采购货物和服务招标投标管理办法》第五十五条"


def test_a_cited_statute_is_marked_chinese_on_an_english_page():
    with translation.override("en"):
        assert statutes(f"At least 30 % <given> ({LAW})") == (
            f'At least 30 % &lt;given&gt; (<span lang="zh-Hans">{LAW}</span>)'
        )
        assert statutes("《政府采购法》 and 《招标投标法实施条例》第四十条") == (
            '<span lang="zh-Hans">《政府采购法》</span> and '
            '<span lang="zh-Hans">《招标投标法实施条例》第四十条</span>'
        )
        assert statutes(mark_safe("<b>ok</b>")) == "<b>ok</b>"  # safe text kept
        assert statutes(None) == ""
    with translation.override("zh-hans"):
        assert statutes(f"价格分值不得低于 30% <{LAW}>") == (
            f"价格分值不得低于 30% &lt;{LAW}&gt;"
        )


def test_the_price_weight_floor_cites_its_article_in_chinese_on_the_english_page(
    tender_world, client_for, buyer
):
    body = {
        "regime": "gov_procurement",
        "method": "comprehensive",
        "subject": "goods",
        "price_weight_pct": "20",
        "sme_deduction_pct": "10",
        "domestic_deduction_pct": "0",
        "stacking": "sequential",
        "abnormally_low_pct": "20",
    }
    response = client_for(buyer).post(
        f"/procurements/{tender_world.pk}/tender/", body, HTTP_ACCEPT_LANGUAGE="en"
    )
    text = response.content.decode()
    assert (
        "The price weight must be at least 30 % (given 20 %). "
        f'(<span lang="zh-Hans">{LAW}</span>)'
    ) in text
