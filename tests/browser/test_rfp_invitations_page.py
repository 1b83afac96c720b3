"""The RFP invitations page in a real browser: at 390 px nothing overflows and no
console error (CSP included), sealed and opened, zh-Hans and en."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clusterbuy.models import Role
from tests.browser.conftest import new_page
from tests.browser.test_journeys import log_in
from tests.factories import OrganisationFactory, ProcurementFactory, member
from tests.vendors.rfp_support import sealed_rfp
from vendors.models import RfpQuestion
from vendors.portal import opening

pytestmark = [pytest.mark.browser]


def _check(page, url: str) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(url)
    widths = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
    )
    assert widths[0] <= widths[1], (url, widths)
    assert not errors and not page.js_errors, errors


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_page_fits_a_phone_sealed_and_opened(browser, base_url, language):
    org = OrganisationFactory(name="Acme AI")
    admin = member(org, Role.ADMIN, "alice-admin")
    member(org, Role.PROCUREMENT, "paula-buyer")
    procurement = ProcurementFactory(organisation=org, name="LLM training cluster")
    made = sealed_rfp(procurement)
    made["invitations"][
        "Zebracorp"
    ].email = (
        "a-very-long-mailbox-name.for-tenders@zebracorp-international-holdings.example"
    )
    made["invitations"]["Zebracorp"].save()
    RfpQuestion.objects.create(
        procurement=procurement,
        invitation=made["invitations"]["Zebracorp"],
        question="Is liquid cooling allowed in hall B? " * 8,
    )
    url = reverse("vendors:rfp-invitations", args=[procurement.pk])
    submit = "登录" if language == "zh-hans" else "Log in"
    for username in ("paula-buyer", "alice-admin"):
        page = new_page(browser, base_url, language)
        log_in(page, username, submit=submit)
        _check(page, url)
        page.context.close()
    opening.open_submissions(procurement, admin)
    page = new_page(browser, base_url, language)
    log_in(page, "paula-buyer", submit=submit)
    _check(page, url)
    page.context.close()
