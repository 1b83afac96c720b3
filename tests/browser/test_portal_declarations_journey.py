"""A vendor's policy declarations and bid-letter contact in its portal, in a real
browser on a phone, in both languages (issue 25):

1. The vendor attaches its 中小企业声明函 under Evidence with the purpose
   "small-enterprise declaration"; the list names the file with that purpose.
2. It fills in the submission with the small-enterprise box ticked and the contact
   of its 投标函; a phone written in words is refused on the field, what was typed is
   kept and nothing is stored; with the number the version is received.
3. At the opening the bid carries the claim (not accepted: the buyer accepts it),
   the contact facts the collusion signals compare, and the evidence's purpose.

No console error, no page wider than the phone.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from clusterbuy.models import Role
from sizing.services.catalog import load_reference_catalog
from tests.browser.conftest import new_page
from tests.browser.test_decision_journey import t
from tests.factories import OrganisationFactory, ProcurementFactory, member, pdf_bytes
from tests.vendors.portal_support import GOOD_ROWS, invite, workbook
from tests.vendors.test_support import make_vendor
from vendors.models import Bid, BidContact, RfpSettings, Submission
from vendors.portal import checking, opening, submissions
from vendors.portal.tokens import make_token

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
LETTER = "quokka-sme-declaration.pdf"


@pytest.fixture
def portal(transactional_db, monkeypatch):
    load_reference_catalog()
    org = OrganisationFactory(name="Declarations Org")
    procurement = ProcurementFactory(organisation=org, name="Declarations RFP")
    RfpSettings.objects.create(
        procurement=procurement, deadline=timezone.now() + datetime.timedelta(days=3)
    )
    invitation = invite(procurement, make_vendor(org, "Quokka Systems"))
    sent: list[int] = []  # the checks wait for a worker until the test runs them
    monkeypatch.setattr(submissions, "send_check", lambda s: sent.append(s.pk))
    return procurement, f"/portal/{make_token(invitation)}/", sent


def _fits(page):
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_vendor_declares_a_small_enterprise_with_its_letter_and_contact(
    browser, base_url, portal, tmp_path, language
):
    procurement, url, sent = portal
    letter, sheet = tmp_path / LETTER, tmp_path / "bid.xlsx"
    letter.write_bytes(pdf_bytes())
    sheet.write_bytes(workbook(GOOD_ROWS).read())
    page = new_page(browser, base_url, language)
    page.set_viewport_size(PHONE)
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(url)

    # 1. The declaration letter, under Evidence, with its purpose.
    evidence = page.locator("#evidence")
    evidence.locator("#id_file").set_input_files(str(letter))
    evidence.locator("#id_purpose").select_option("sme")
    evidence.locator("button[type=submit]").last.click()
    item = page.locator('#evidence li[data-purpose="sme"]')
    item.wait_for()
    assert LETTER in item.inner_text()
    assert t(language, "Small-enterprise declaration") in item.inner_text()
    _fits(page)

    # 2. The submission: the declaration and the bid letter's contact.
    def fill(phone: str):
        page.select_option("#id_accelerator", "h100-sxm-80gb")
        page.fill("#id_gpu_count", "64")
        page.select_option("#id_scheduler", "slurm")
        page.set_input_files("#id_workbook", str(sheet))
        page.check("#id_declares_sme")
        page.fill("#id_contact_person", "李伟")
        page.fill("#id_phone", phone)
        page.fill("#id_email", "li.wei@quokka.example")
        page.fill("#id_bond_account", "6222 0000 1111 2222")
        page.locator("#submit button[type=submit]").click()

    fill("call the sales desk")
    refused = t(
        language,
        "Enter a phone number: %(low)s to %(high)s digits, with spaces, brackets, "
        "dashes or a leading + only.",
        low=7,
        high=20,
    )
    page.locator("#bid-contact").get_by_text(refused).wait_for()
    assert page.input_value("#id_phone") == "call the sales desk"
    assert page.input_value("#id_contact_person") == "李伟"
    assert page.is_checked("#id_declares_sme")
    assert not Submission.objects.exists()
    _fits(page)
    fill("+86 138 0013 8000")
    page.wait_for_selector("#version-1")
    checking.check_submission(submission_id=sent[0])
    _fits(page)

    # 3. The opening carries them into the bid.
    now = timezone.now()
    Submission.objects.update(received_at=now - datetime.timedelta(minutes=2))
    RfpSettings.objects.filter(procurement=procurement).update(
        deadline=now - datetime.timedelta(minutes=1)
    )
    admin = member(procurement.organisation, Role.ADMIN, f"opener-{language}")
    opening.open_submissions(procurement, admin)
    bid = Bid.objects.get(procurement=procurement)
    assert bid.sme_claimed and not bid.sme_declared  # claimed; the buyer accepts
    contact = BidContact.objects.get(bid=bid)
    assert (contact.contact_person, contact.phone, contact.email) == (
        "李伟",
        "+86 138 0013 8000",
        "li.wei@quokka.example",
    )
    assert contact.bond_account == "6222 0000 1111 2222"
    assert bid.attachments.get(original_name=LETTER).purpose == "sme"
    assert console == [] and page.js_errors == []
