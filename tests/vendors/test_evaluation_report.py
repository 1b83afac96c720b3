"""The 评标报告: frozen when issued (both languages), read back with pdftotext, and
byte-identical after a later change of a mark."""

import subprocess

import pytest
from django.utils import translation

from clusterbuy.services import ServiceError
from tests.vendors import committee_support
from tests.vendors.committee_support import score_and_submit
from vendors.services import committee, committee_collusion, committee_scoring
from vendors.services import evaluation_report as reports

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world
seated = committee_support.seated
experts = committee_support.experts


def pdf_text(data: bytes, tmp_path, name="report.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"],
        capture_output=True,
        check=True,
        text=True,
    )
    return " ".join(out.stdout.split())


@pytest.fixture
def summed(seated, buyer, manager, experts):
    procurement, bids = seated
    for name in "AB":
        committee_collusion.set_bid_contact(
            bid=bids[name], user=buyer, contact_person="王伟", phone="+86 138 0013 8000"
        )
    score_and_submit(procurement, bids, [buyer, manager, *experts])
    committee_scoring.record_dissent(
        procurement=procurement, user=experts[4], text="C's delivery plan is unproven."
    )
    return procurement, bids


def test_the_report_is_refused_before_summation(seated, buyer):
    procurement, _bids = seated
    with pytest.raises(ServiceError) as error:
        reports.issue_report(procurement=procurement, user=buyer)
    assert error.value.field == "report"


def test_the_report_prints_members_invalid_bid_deduction_collusion_and_ranking(
    summed, buyer, tmp_path
):
    procurement, bids = summed
    report = reports.issue_report(procurement=procurement, user=buyer)
    text = pdf_text(reports.report_pdf(report, "en"), tmp_path)
    assert "Evaluation report" in text
    for name in ("paula-buyer", "mona-manager", "expert-1", "expert-5"):
        assert name in text
    # O's 41 M is over the 40 M budget: an invalid bid with its reason and article
    assert "Price 41,000,000.00 above the budget 40,000,000.00." in text
    assert "第六十三条" in text
    # B's SME deduction: 32 M x 10 % = 3.2 M; evaluated 28.8 M, the base: 30.00
    assert "−3,200,000.00" in text and "28,800,000.00" in text
    # the collusion pair: A and B name the same contact and phone
    assert "Same contact person" in text and "王伟" in text
    assert "Same phone number" in text
    # totals: A 80 x 0.7 + 28.8 = 84.80; B 60 x 0.7 + 30 = 72.00;
    # C 82.86 x 0.7 + 24 = 82.00 (82.002): A first, C second, B third
    assert "84.80" in text and "72.00" in text and "82.00" in text
    assert text.index("84.80") < text.index("82.00") < text.index("72.00")
    assert "C's delivery plan is unproven." in text
    assert "Signatures" in text
    zh = pdf_text(reports.report_pdf(report, "zh-hans"), tmp_path, "zh.pdf")
    assert "评标报告" in zh and "王伟" in zh


def test_the_frozen_report_is_byte_identical_after_a_later_score_change(
    summed, buyer, experts
):
    procurement, bids = summed
    report = reports.issue_report(procurement=procurement, user=buyer)
    before_en = reports.report_pdf(report, "en")
    before_zh = reports.report_pdf(report, "zh-hans")
    committee_scoring.change_score(
        procurement=procurement,
        user=experts[0],
        member=committee.member_for(procurement, experts[0]),
        bid=bids["A"],
        criterion="arch_scenario",
        points=5,
        reason="summation_error",
    )
    again = reports.issued_report(procurement)
    assert reports.report_pdf(again, "en") == before_en
    assert reports.report_pdf(again, "zh-hans") == before_zh
    with pytest.raises(ServiceError):
        reports.issue_report(procurement=procurement, user=buyer)


def test_the_report_waits_for_the_judgement_of_an_abnormally_low_price(
    summed, buyer, tmp_path
):
    """87号令 第六十条: an abnormally low price is justified in writing and judged by
    the committee before the report. Valid bids' evaluated prices: A 30 M, B 32 M less
    its 10 % small-enterprise deduction = 28.8 M, C 36 M (O is over the 最高限价):
    mean 31.6 M; with the share at 8 % the line is 29.072 M, so B alone is flagged."""
    from django.utils import timezone

    from vendors.models import PriceJustification, TenderSettings
    from vendors.services import price_justifications

    procurement, bids = summed
    TenderSettings.objects.filter(procurement=procurement).update(abnormally_low_pct=8)
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        reports.issue_report(procurement=procurement, user=buyer)
    assert refused.value.field == "report"
    assert "Abnormally low prices not judged yet: B." in refused.value.message
    assert "第六十条" in refused.value.message
    price_justifications.request_justification(
        bid=bids["B"], user=buyer, note="Explain the 32 M price."
    )
    with pytest.raises(ServiceError):  # asked, not judged: still refused
        reports.issue_report(procurement=procurement, user=buyer)
    price_justifications.judge_justification(
        bid=bids["B"], user=buyer, judgement="not_justified", note="No cost breakdown."
    )
    # B out, the valid bids are A 30 M and C 36 M: mean 33 M, line 30.36 M, so A is
    # now the abnormally low one and waits for its own judgement.
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        reports.issue_report(procurement=procurement, user=buyer)
    assert "Abnormally low prices not judged yet: A." in refused.value.message
    asked = price_justifications.request_justification(
        bid=bids["A"], user=buyer, note="Explain the 30 M price."
    )
    # The vendor's answer (through its portal link in use; these bids are keyed in).
    PriceJustification.objects.filter(pk=asked.pk).update(
        response="Stock bought in 2025; the cost breakdown is attached.",
        responded_at=timezone.now(),
    )
    price_justifications.judge_justification(
        bid=bids["A"], user=buyer, judgement="justified", note="Breakdown checked."
    )
    report = reports.issue_report(procurement=procurement, user=buyer)
    rows = {b["label"]: b for b in report.snapshot["en"]["conformity"]}
    assert rows["A"]["valid"]
    assert rows["A"]["justification"] == (
        "justification accepted by the committee: Breakdown checked."
    )
    assert not rows["B"]["valid"]
    assert rows["B"]["justification"] == (
        "justification rejected by the committee: No cost breakdown."
    )
    assert rows["C"]["justification"] == ""
    text = pdf_text(reports.report_pdf(report, "zh-hans"), tmp_path)
    assert "评标委员会认定不能证明报价合理" in text
