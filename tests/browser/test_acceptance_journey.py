"""Acceptance (验收) in a real browser, in Chinese and in English (issue 26).

Done when: "decision → acceptance plan → upload of passing and failing logs → a
failing clause, a repair and a passing rerun → the 验收书 PDF read back with
pdftotext".

The decision (16 x H100 SXM in 2 nodes) is recorded through the services. The IT lead
opens the Acceptance tab, creates the plan from the decided bid, uploads the real
2-node nccl-tests all-reduce log with 3 wrong elements at 8 GiB (a faulty GPU): the
cross-node all-reduce clause fails although 463.9 GB/s clears 423 GB/s; after the
repair the clean log passes and both attempts stay in the history. The manager signs
and downloads the 验收书, read back with pdftotext. Every page is checked for its
language and for console errors (tests/browser/test_decision_journey.Watch).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import new_page
from tests.browser.test_decision_journey import Watch, t
from tests.browser.test_journeys import click_to_download, log_in, open_tab, pdf_text
from tests.vendors.acceptance_support import (
    NCCL_2NODE,
    decided_bid,
    sample,
    wrong_elements,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_acceptance_journey_from_decision_to_certificate(
    browser, base_url, language, org, procurement, it_lead, manager, catalog, tmp_path
):
    decided_bid(procurement, org, manager)
    bad, good = tmp_path / "all_reduce_1.txt", tmp_path / "all_reduce_2.txt"
    bad.write_bytes(wrong_elements(sample(NCCL_2NODE)))
    good.write_bytes(sample(NCCL_2NODE))
    page = new_page(browser, base_url, language)
    watch = Watch(page, language, f"acceptance-journey-{language}")
    try:
        journey(page, watch, language, procurement, it_lead, manager, bad, good)
        certificate(browser, base_url, language, procurement, manager, tmp_path)
        watch.assert_clean()
    except BaseException:
        watch.failure()
        raise
    finally:
        page.context.close()


def conclusion(language: str, code: str) -> str:
    from django.utils import translation

    from vendors.services.acceptance_certificate import conclusion_label

    with translation.override(language):
        return conclusion_label(code)


def _row(page, key: str):
    return page.locator(f'#clauses tr[data-clause="{key}"]')


def journey(page, watch, language, procurement, it_lead, manager, bad, good):
    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    log_in(page, it_lead.username, submit=_("Log in"))
    page.goto(f"/procurements/{procurement.pk}/")
    open_tab(page, _("Acceptance"))
    watch.step("acceptance tab before the plan")
    page.locator("#create-acceptance").click()
    fabric = _row(page, "nccl_all_reduce_fabric")
    expect(fabric).to_have_attribute("data-status", "pending")
    expect(fabric).to_contain_text(">= 423 GB/s")
    expect(fabric).to_contain_text(_("All-reduce across the nodes"))
    watch.step("the plan")

    upload = page.locator("#upload")
    upload.get_by_label(_("Log file")).set_input_files(str(bad))
    upload.get_by_label(_("Test (if the log fits several)")).select_option(
        "nccl_all_reduce_fabric"
    )
    # the upload goes through htmx: the tab is swapped in place, no page load
    # (a full load would drop this marker)
    page.evaluate("window.__acceptanceMarker = 1")
    page.locator("#upload-log").click()
    expect(fabric).to_have_attribute("data-status", "failed")
    assert page.evaluate("window.__acceptanceMarker") == 1
    expect(fabric).to_contain_text("463.9 GB/s")
    expect(page.locator('#attempts tr[data-attempt="1"]')).to_contain_text("#wrong")
    watch.step("a failing clause")

    upload.get_by_label(_("Log file")).set_input_files(str(good))
    upload.get_by_label(_("Test (if the log fits several)")).select_option(
        "nccl_all_reduce_fabric"
    )
    upload.get_by_label(_("What was repaired (for a rerun)")).fill("GPU 3 replaced")
    page.locator("#upload-log").click()
    expect(fabric).to_have_attribute("data-status", "passed")
    expect(fabric.locator(".badge")).to_have_text(_("passed"))
    attempts = page.locator("#attempts tbody tr")
    expect(attempts).to_have_count(2)
    expect(page.locator('#attempts tr[data-attempt="2"]')).to_contain_text(
        "GPU 3 replaced"
    )
    watch.step("the passing rerun")
    page.locator("header").get_by_role("button", name=_("Log out")).click()

    log_in(page, manager.username, submit=_("Log in"))
    page.goto(f"/procurements/{procurement.pk}/acceptance/")
    expect(page.locator("#upload")).to_have_count(0)
    # one clause passed, the rest untested: the record can only be signed as
    # incomplete (未完成), which does not accept the cluster
    incomplete = conclusion(language, "incomplete")
    expect(page.locator("#conclusion")).to_have_attribute(
        "data-conclusion", "incomplete"
    )
    expect(page.locator("#conclusion")).to_contain_text(
        _("Acceptance conclusion: %(conclusion)s", conclusion=incomplete)
    )
    sign = page.locator("#sign-certificate")
    expect(sign).to_have_text(_("Sign the record as incomplete"))
    sign.click()
    badge = page.locator("#signed-badge")
    expect(badge).to_have_attribute("data-conclusion", "incomplete")
    expect(badge).to_contain_text(incomplete)
    expect(badge).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#sign")).to_have_count(0)
    watch.step("signed")
    download = click_to_download(page, page.locator("#certificate-link"))
    path = download.path()
    text = " ".join(pdf_text(path).split())
    assert _("Acceptance certificate") in text
    assert _("All-reduce across the nodes") in text
    assert "463.9 GB/s" in text and ">= 423 GB/s" in text
    assert _("passed") in text and _("not tested") in text
    assert _("Acceptance conclusion: %(conclusion)s", conclusion=incomplete) in text
    assert "".join(
        _(
            "This record does not accept the cluster: not every clause was tested."
        ).split()
    ) in "".join(text.split())
    assert manager.username in text
    assert re.search(_("Signatures"), text)


def certificate(browser, base_url, language, procurement, manager, tmp_path):
    """The signed 验收书 reads the same in a second download (frozen)."""
    page = new_page(browser, base_url, language)
    try:
        log_in(page, manager.username, submit=t(language, "Log in"))
        page.goto(f"/procurements/{procurement.pk}/acceptance/")
        first = click_to_download(page, page.locator("#certificate-link"))
        second = click_to_download(page, page.locator("#certificate-link"))
        assert open(first.path(), "rb").read() == open(second.path(), "rb").read()
    finally:
        page.context.close()
