"""An addendum that moves the deadline and reaches every vendor, in a real browser, in
Chinese and in English (issue 22).

Three vendors were invited (version 1 published, deadline 10 days ahead). The buyer
opens the RFP page: the settings form is gone (published), an addendum form stands in
its place. The buyer publishes the weights by addendum with its reason; 10 days are
fewer than the 15 of 政府采购法实施条例 第三十一条, so the deadline moves to 15 days
after the addendum, and the page says so. Each vendor receives one e-mail (both
languages), opens its link on a phone, reads the addendum with its changes and
acknowledges it; the buyer's page then lists all three as acknowledged. Every page is
checked by the RFP journey's Watch (console errors, width, language)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_decision_journey import t
from tests.browser.test_journeys import log_in
from tests.browser.test_rfp_journey import PHONE, Watch
from tests.vendors.rfp_support import link_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VENDORS = {
    "Balanced Compute Co.": "tenders@balanced-compute.example",
    "Claims Galore Ltd": "bids@claims-galore.example",
    "Latecomer Systems": "sales@latecomer.example",
}
NOTE = {
    "en": "The evaluation weights are now published.",
    "zh-hans": "现公布评审权重。",
}


class AddendumWatch(Watch):
    def __init__(self, browser, base_url: str, language: str):
        super().__init__(browser, base_url, language)
        self.dir = ARTIFACTS / f"addendum-journey-{language}"
        self.dir.mkdir(parents=True, exist_ok=True)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_addendum_moves_the_deadline_and_reaches_every_vendor(
    browser, base_url, language, procurement, buyer, mailoutbox
):
    from vendors.models import AddendumNotice, RfpSettings, RfpVersion
    from vendors.portal import invitations

    deadline = timezone.now().replace(second=0, microsecond=0) + timedelta(days=10)
    RfpSettings.objects.create(procurement=procurement, deadline=deadline)
    for name, email in VENDORS.items():
        invitations.invite(
            procurement,
            buyer,
            vendor_name=name,
            email=email,
            request_base_url=base_url + "/",
        )
    mailoutbox.clear()
    watch = AddendumWatch(browser, base_url, language)
    try:
        _journey(watch, language, procurement, buyer, deadline, mailoutbox)
    except BaseException:
        watch.failure()
        raise
    finally:
        watch.close()
    watch.assert_clean()
    version = RfpVersion.objects.get(procurement=procurement, number=2)
    assert version.requested_deadline == deadline
    assert AddendumNotice.objects.filter(
        version=version, acknowledged_at__isnull=False
    ).count() == len(VENDORS)


def _journey(watch, language, procurement, buyer, deadline, outbox):
    from vendors.models import RfpSettings

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    page = watch.page("buyer")
    log_in(page, buyer.username, submit=_("Log in"))
    page.goto(f"/procurements/{procurement.pk}/rfp/")
    expect(page.locator("#rfp-versions h2")).to_have_text(
        _("Published: version %(n)s", n=1)
    )
    expect(page.locator("#id_instructions")).to_have_count(0)  # no settings form
    form = page.locator("#addendum-form")
    form.get_by_label(_("What the addendum clarifies or changes, and why")).fill(
        NOTE[language]
    )
    form.get_by_label(_("Publish the evaluation weights")).check()
    form.get_by_role(
        "button", name=_("Issue the addendum to every invited vendor")
    ).click()
    expect(page.locator("#rfp-versions h2")).to_have_text(
        _("Published: version %(n)s", n=2)
    )
    moved = RfpSettings.objects.get(procurement=procurement).deadline
    left = moved - timezone.now()
    assert timedelta(days=14, hours=23) < left <= timedelta(days=15, minutes=1)
    assert moved > deadline
    expect(page.locator("body")).to_contain_text(
        _("Addendum %(n)s issued to %(vendors)s invited vendors.", n=2, vendors=3)
    )
    added = page.locator('#rfp-versions li[data-number="2"]')
    expect(added).to_contain_text(NOTE[language])
    expect(added).to_contain_text(_("Submission deadline"))
    watch.step("buyer", "addendum issued")

    assert sorted(m.to[0] for m in outbox) == sorted(VENDORS.values())
    for name, email in VENDORS.items():
        message = next(m for m in outbox if m.to == [email])
        assert "Addendum 2 to the RFP" in message.subject
        assert "招标文件第 2 号澄清/修改" in message.subject
        vendor = watch.page(name, PHONE)
        vendor.goto(link_in(message))
        notice = vendor.locator('#addenda article[data-number="2"]')
        expect(notice).to_contain_text(NOTE[language])
        expect(notice.locator(".msg.warning")).to_be_visible()  # deadline moved
        watch.step(name, "addendum notice")
        notice.get_by_role("button", name=_("Acknowledge addendum %(n)s", n=2)).click()
        expect(
            vendor.locator('#addenda article[data-number="2"] .badge.ok')
        ).to_be_visible()
        watch.step(name, "acknowledged")

    page.reload()
    acknowledged = page.locator('#rfp-versions li[data-number="2"] .notices .badge.ok')
    expect(acknowledged).to_have_count(len(VENDORS))
    watch.step("buyer", "every vendor acknowledged")
