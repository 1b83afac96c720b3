"""The supplier portal in a real browser at 390 px, in English and Chinese: no sideways
scroll, no console error (the CSP forbids inline script), and a vendor submits a bad
workbook from the phone, reads the row error, and fixes it in the next version."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from sizing.services.catalog import load_reference_catalog
from tests.browser.conftest import new_page
from tests.factories import OrganisationFactory, ProcurementFactory
from tests.vendors.portal_support import (
    BAD_ROWS,
    GOOD_ROWS,
    WRONG_CLAIM,
    invite,
    workbook,
)
from tests.vendors.test_support import make_vendor
from vendors.models import RfpQuestion, RfpSettings
from vendors.portal import submissions
from vendors.portal.tokens import make_token

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def portal_url(transactional_db):
    load_reference_catalog()
    org = OrganisationFactory(name="Phone Org")
    procurement = ProcurementFactory(organisation=org, name="Phone cluster RFP")
    RfpSettings.objects.create(
        procurement=procurement,
        deadline=timezone.now() + datetime.timedelta(days=3),
        instructions="Quote FOB Shanghai. " * 20,
        publish_weights=True,
    )
    invitation = invite(procurement, make_vendor(org, "Quokka Systems"))
    RfpQuestion.objects.create(
        procurement=procurement,
        invitation=invitation,
        question="A very long question without spaces " + "x" * 200,
    )
    return f"/portal/{make_token(invitation)}/", invitation


def _write(tmp_path, rows, name):
    path = tmp_path / name
    path.write_bytes(workbook(rows).read())
    return str(path)


def _assert_fits(page):
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], width


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_portal_fits_a_phone_and_takes_a_revision(
    browser, base_url, portal_url, tmp_path, language
):
    url, invitation = portal_url
    submissions.submit(
        invitation,
        fields={"accelerator": "h100-sxm-80gb", "gpu_count": 64, "scheduler": "slurm"},
        proposal_text=WRONG_CLAIM,
    )
    page = new_page(browser, base_url, language)
    page.set_viewport_size(PHONE)
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(url)
    _assert_fits(page)
    assert page.locator("dl.weights dt").count() >= 4  # published weights fit too
    page.select_option("#id_accelerator", "h100-sxm-80gb")
    page.fill("#id_gpu_count", "64")
    page.select_option("#id_scheduler", "slurm")
    page.set_input_files("#id_workbook", _write(tmp_path, BAD_ROWS, "bad.xlsx"))
    page.locator("#submit button[type=submit]").click()
    page.wait_for_selector("#version-2")
    _assert_fits(page)
    row_error = page.locator("#version-2 .import-errors li").first.inner_text()
    assert ("Row 3" if language == "en" else "第 3 行") in row_error
    page.set_input_files("#id_workbook", _write(tmp_path, GOOD_ROWS, "good.xlsx"))
    page.locator("#submit button[type=submit]").click()
    page.wait_for_selector("#version-3")
    assert page.locator("#version-3 .import-errors").count() == 0
    _assert_fits(page)
    assert console == [] and page.js_errors == []
    assert list(invitation.submissions.values_list("version", flat=True)) == [1, 2, 3]
