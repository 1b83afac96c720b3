"""The 评标报告: frozen when issued (both languages), read back with pdftotext, and
byte-identical after a later change of a mark."""

import subprocess

import pytest

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
