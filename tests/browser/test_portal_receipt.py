"""A vendor's submission in a real browser (issue 23): the page answers at once with
"received, checking…", and the version's card shows the result by itself (htmx
polling) once the background check has run; no console error, in both languages."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from sizing.services.catalog import load_reference_catalog
from tests.browser.conftest import new_page
from tests.factories import OrganisationFactory, ProcurementFactory
from tests.vendors.portal_support import GOOD_ROWS, invite, workbook
from tests.vendors.test_support import make_vendor
from vendors.models import RfpSettings, Submission
from vendors.portal import checking, submissions
from vendors.portal.tokens import make_token

pytestmark = pytest.mark.browser
CHECKING = {"en": "received, checking…", "zh-hans": "已收到，检查中…"}
DONE = {"en": "2 line items", "zh-hans": "2 条报价明细"}


@pytest.fixture
def portal(transactional_db, monkeypatch):
    load_reference_catalog()
    org = OrganisationFactory(name="Receipt Org")
    procurement = ProcurementFactory(organisation=org, name="Receipt RFP")
    RfpSettings.objects.create(
        procurement=procurement, deadline=timezone.now() + datetime.timedelta(days=3)
    )
    invitation = invite(procurement, make_vendor(org, "Quokka Systems"))
    sent: list[int] = []  # the checks wait for a worker until the test runs them
    monkeypatch.setattr(submissions, "send_check", lambda s: sent.append(s.pk))
    return f"/portal/{make_token(invitation)}/", sent


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_receipt_then_the_result_without_reloading(
    browser, base_url, portal, tmp_path, language
):
    url, sent = portal
    path = tmp_path / "bid.xlsx"
    path.write_bytes(workbook(GOOD_ROWS).read())
    page = new_page(browser, base_url, language)
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.select_option("#id_accelerator", "h100-sxm-80gb")
    page.fill("#id_gpu_count", "64")
    page.select_option("#id_scheduler", "slurm")
    page.set_input_files("#id_workbook", str(path))
    page.locator("#submit button[type=submit]").click()
    page.wait_for_selector("#version-1")
    card = page.locator("#version-1")
    assert CHECKING[language] in card.inner_text()
    assert Submission.objects.get().status == Submission.Status.CHECKING
    checking.check_submission(submission_id=sent[0])
    page.wait_for_function(
        "text => !document.querySelector('#version-1').hasAttribute('hx-get')"
        " && document.querySelector('#version-1').innerText.includes(text)",
        arg=DONE[language],
        timeout=10000,
    )
    assert CHECKING[language] not in page.locator("#version-1").inner_text()
    assert console == [] and page.js_errors == []
