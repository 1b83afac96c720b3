"""资格审查 and the tender data in the records: the 评标报告 lists a qualification failure
with its reason and article; the decision memo under 政府采购 shows the regime, method,
weight, invalid bids with reasons and the ranking, frozen at the decision; the 第二十条
warnings on the tender page and in the API (the reworded default is not flagged, the
old wording is)."""

from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import translation

from tests.vendors import committee_support
from tests.vendors.committee_support import score_and_submit
from tests.vendors.tender_support import priced_bid, set_regime
from tests.vendors.test_evaluation_report import pdf_text
from tests.vendors.test_support import at_decision_stage
from vendors.models import ChecklistCriterion, Decision
from vendors.services import decision_memo, decisions, evaluation, qualification
from vendors.services import evaluation_report as reports

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world
seated = committee_support.seated
experts = committee_support.experts

TAX = "gpl22_tax_social_security"
NOTE = "No social-security payments since March"


def _fail(bid, user, note=NOTE):
    qualification.record_qualification(
        bid=bid, user=user, results=[{"key": TAX, "passed": False, "note": note}]
    )


def test_the_report_lists_a_qualification_failure_with_its_article(
    seated, buyer, manager, experts, tmp_path
):
    procurement, bids = seated
    _fail(bids["O"], buyer)
    score_and_submit(procurement, bids, [buyer, manager, *experts])
    report = reports.issue_report(procurement=procurement, user=buyer)
    # the table cell wraps its lines: compare without the spaces pdftotext adds
    text = pdf_text(reports.report_pdf(report, "en"), tmp_path).replace(" ", "")
    assert (
        "Qualificationreview:Agoodrecordofpayingtaxesandsocialsecurity"
        "contributionsnotmet(Nosocial-securitypaymentssinceMarch)." in text
    )
    assert "《政府采购货物和服务招标投标管理办法》第六十三条（三）" in text
    zh = pdf_text(reports.report_pdf(report, "zh-hans"), tmp_path, "zh.pdf")
    assert "资格审查：不满足“有依法缴纳税收和社会保障资金的良好记录”" in zh.replace(
        " ", ""
    )


@pytest.fixture
def decided(tender_world, org, buyer, manager):
    """政府采购, no ★ items: A 30 M, B 32 M (small enterprise), C 36 M and D 34 M;
    C's supplier fails the 资格审查; the manager decides for B."""
    procurement = tender_world
    set_regime(procurement, buyer, "gov_procurement", mandatory_items=[])
    bids = {
        "A": priced_bid(procurement, org, "A", 30_000_000),
        "B": priced_bid(procurement, org, "B", 32_000_000, sme=True),
        "C": priced_bid(procurement, org, "C", 36_000_000),
        "D": priced_bid(procurement, org, "D", 34_000_000),
    }
    _fail(bids["C"], buyer)
    at_decision_stage(procurement)
    decisions.record_decision(
        procurement=procurement,
        user=manager,
        bid=bids["B"],
        rationale="Lowest evaluated price.",
        override_reason="Chosen on price.",
    )
    return procurement, bids


def test_the_memo_freezes_the_tender_evaluation(decided, buyer, tmp_path):
    procurement, bids = decided
    block = Decision.objects.get().snapshot["tender"]
    assert block["regime"] == "gov_procurement" and block["method"] == "comprehensive"
    assert block["price_weight_pct"] == "30.00" and block["viable"]
    points = {b["label"]: b["price_points"] for b in block["bids"]}
    # 评标价 B 28.8 M (32 M less 10 %), the base: B 30; A 28.8 / 30 x 30 = 28.8;
    # D 28.8 / 34 x 30 = 25.41...; C invalid, no price score
    assert D(points["B"]) == 30 and D(points["A"]) == D("28.8")
    assert D(points["D"]).quantize(D("0.01")) == D("25.41")
    assert points["C"] is None
    assert block["report"] is None
    decision = Decision.objects.get()
    with translation.override("en"):
        en = pdf_text(decision_memo.decision_memo_pdf(decision), tmp_path)
    assert "Tender evaluation" in en
    assert "Government procurement (MOF Order 87)" in en
    assert "Comprehensive scoring" in en
    assert f"({NOTE})" in en and "第六十三条（三）" in en
    assert "No evaluation report had been issued when the decision was recorded." in en
    with translation.override("zh-hans"):
        zh = pdf_text(decision_memo.decision_memo_pdf(decision), tmp_path, "zh.pdf")
    assert "招标评审" in zh and "资格审查：不满足" in zh
    # a later change of the qualification review leaves the memo as it was
    qualification.record_qualification(
        bid=bids["C"], user=buyer, results=[{"key": TAX, "passed": True}]
    )
    with translation.override("en"):
        again = pdf_text(
            decision_memo.decision_memo_pdf(Decision.objects.get()), tmp_path
        )
    assert again == en


def test_no_tender_block_in_the_memo_under_the_commercial_regime(
    tender_world, org, buyer, manager
):
    bid = priced_bid(tender_world, org, "A", 30_000_000)
    set_regime(tender_world, buyer, "commercial")
    at_decision_stage(tender_world)
    decisions.record_decision(
        procurement=tender_world,
        user=manager,
        bid=bid,
        rationale="Only bid.",
        override_reason="Only bid.",
    )
    assert Decision.objects.get().snapshot["tender"] is None


def _legacy_criterion(procurement):
    row = evaluation.ensure_evaluation_settings(procurement=procurement)
    ChecklistCriterion.objects.filter(
        section__template=row.template, code="case_similar"
    ).update(text="Similar client and scenario")


def test_restriction_warnings_flag_the_old_wording_only(
    tender_world, buyer, client_for, api_for
):
    set_regime(tender_world, buyer, "gov_procurement")
    api = api_for(buyer)
    url = f"/api/v1/procurements/{tender_world.pk}/tender/"
    assert api.get(url).json()["warnings"] == []
    page = reverse("vendors:tender", kwargs={"pk": tender_world.pk})
    assert (
        'id="restriction-warnings"' not in client_for(buyer).get(page).content.decode()
    )
    _legacy_criterion(tender_world)
    (warning,) = api.get(url, HTTP_ACCEPT_LANGUAGE="en").json()["warnings"]
    assert warning["criterion"] == "case_similar"
    assert warning["code"] == "restrict_similar_client"
    assert warning["citation"] == "《政府采购法实施条例》第二十条（四）"
    assert (
        warning["primary"] is True and "（四）以特定行政区域" in warning["article_text"]
    )
    assert warning["message"] == (
        "Criterion “Similar client and scenario” may restrict suppliers: it asks for "
        "a similar client, so the kind of client stands in for a specific industry. "
        "Rewrite it."
    )
    zh = client_for(buyer).get(page, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'id="restriction-warnings"' in zh and "有相似客户和场景" in zh
    # not under the commercial regime
    set_regime(tender_world, buyer, "commercial")
    assert api.get(url).json()["warnings"] == []
