"""A tender that holds (issue 22), in a real browser, in Chinese and in English:

1. A clarification confirmed by a vendor after the opening: the opened bid shows no
   edit control and says why; the buyer asks for an arithmetic correction of a unit
   price; the vendor, on a phone, reads it in its portal and confirms it; the bid's
   line item and version change, the request reads "confirmed", and the comparison
   names the bid's new version.
2. An override decision and its memo: the manager picks the bid ranked second; the
   page warned of it, the form is shown again asking for the override's reason (what
   was typed kept), the decision with its reason stands on the page, and the memo PDF
   prints the override before the choice.

Every page is checked for console errors (CSP violations included), a page wider than
its viewport and text of the other language (the .po catalogue, as in the other
journeys); screenshots under test-artifacts/tender-<journey>-<lang>/.
"""

from __future__ import annotations

import re
import subprocess
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, new_page
from tests.browser.test_decision_journey import CJK, t
from tests.browser.test_journeys import (
    VISIBLE_UI_TEXT,
    _strip,
    catalog_patterns,
    data_strings,
    log_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WHY = {
    "en": "The unit price has its decimal point one place off the total.",
    "zh-hans": "单价小数点与总价相比错了一位。",
}
RATIONALE = {"en": "Lowest price.", "zh-hans": "价格最低"}
REASON = {
    "en": "Delivery in four weeks; the network gap is closed by an addendum.",
    "zh-hans": "四周内交付；网络缺口由补充协议补齐。",
}


class Watch:
    """Each persona's page: console errors, width against the viewport, language,
    a screenshot per step (the rfp journey's checks)."""

    def __init__(
        self, browser, base_url: str, language: str, journey: str, prefix="tender"
    ):
        self.browser, self.base_url, self.language = browser, base_url, language
        self.dir = ARTIFACTS / f"{prefix}-{journey}-{language}"
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0
        self.pages: dict[str, Page] = {}
        self.console: list[str] = []
        self.too_wide: dict[str, tuple[int, int]] = {}
        self.findings: dict[str, object] = {}
        self.patterns = catalog_patterns() if language.startswith("zh") else []

    def page(self, persona: str, viewport: dict | None = None) -> Page:
        page = new_page(self.browser, self.base_url, self.language)
        if viewport:
            page.set_viewport_size(viewport)
        page.on("console", lambda message: self._console(persona, page, message))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => "
            "console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));"
        )
        self.pages[persona] = page
        return page

    def _console(self, persona: str, page: Page, message) -> None:
        if message.type not in ("error", "assert"):
            return
        where = message.location.get("url") or page.url
        if not where.endswith("/favicon.ico"):
            self.console.append(f"{persona}: {message.text} [{where}]")

    def step(self, persona: str, name: str, *, check_width: bool = True) -> None:
        from tests.browser.test_journeys import untranslated_on

        page = self.pages[persona]
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        data, prose = data_strings({msgid for msgid, _ in self.patterns})
        if self.patterns:
            found = untranslated_on(page, self.patterns, prose, data, ["tokens/s"])
        else:
            text = _strip(page.evaluate(VISIBLE_UI_TEXT), data + prose)
            # Quotes of a vendor's own text (the pitfall flags' evidence) are data.
            from vendors.models import Bid

            quoted = data + list(Bid.objects.values_list("proposal_text", flat=True))
            found = sorted(
                {f for f in CJK.findall(text) if not any(f in d for d in quoted)}
            )
        if found:
            self.findings[f"{persona}: {name}"] = found
        width, viewport = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
        )
        if check_width and width > viewport:
            self.too_wide[f"{persona}: {name}"] = (width, viewport)
        self.n += 1
        slug = re.sub(r"[^a-z0-9]+", "-", f"{persona} {name}".lower()).strip("-")
        page.screenshot(path=str(self.dir / f"{self.n:02d}-{slug}.png"), full_page=True)

    def run(self, journey, *args) -> None:
        try:
            journey(self, *args)
        except BaseException:
            for persona, page in self.pages.items():
                try:
                    page.screenshot(
                        path=str(self.dir / f"failure-{persona}.png"), full_page=True
                    )
                except Exception:  # noqa: BLE001 - the page may be gone
                    pass
            raise
        finally:
            for page in self.pages.values():
                page.context.close()
        errors = {p: page.js_errors for p, page in self.pages.items() if page.js_errors}
        assert not errors, errors
        assert not self.console, f"console errors: {self.console}"
        assert not self.too_wide, f"pages wider than the viewport: {self.too_wide}"
        assert not self.findings, f"text of the other language: {self.findings}"


# --------------------------------------------------- 1. a clarification after opening


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_correction_confirmed_by_the_vendor_after_the_opening(
    browser, base_url, language, procurement, buyer, admin_user
):
    from tests.vendors.rfp_support import ZEBRA, sealed_rfp
    from vendors.models import Bid
    from vendors.portal import opening
    from vendors.portal.tokens import make_token

    sealed = sealed_rfp(procurement)
    opening.open_submissions(procurement, admin_user)
    zebra = Bid.objects.get(vendor__name=ZEBRA)
    token = make_token(sealed["invitations"][ZEBRA])
    watch = Watch(browser, base_url, language, "correction")
    watch.run(correction_journey, language, procurement, buyer, zebra, token)


def correction_journey(watch, language, procurement, buyer, zebra, token):
    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    version = zebra.version
    line = zebra.line_items.get(category="gpu_servers")
    # The buyer: the opened bid is locked, and says why.
    page = watch.page("buyer")
    log_in(page, buyer.username, submit=_("Log in"))
    page.goto(f"/procurements/{procurement.pk}/bids/{zebra.pk}/")
    expect(page.locator("#bid-locked")).to_contain_text(
        _(
            "This bid was opened from the vendor's sealed submission, so it can no "
            "longer be edited, imported into or deleted. Ask the vendor for an "
            "arithmetic correction or a clarification instead: it becomes a new "
            "version of the bid once the vendor confirms it."
        )
    )
    main = page.locator("main")
    for name in (_("Edit"), _("Delete"), _("Remove"), _("Add"), _("Import")):
        expect(main.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(main.locator(f'a[href$="/bids/{zebra.pk}/edit/"]')).to_have_count(0)
    watch.step("buyer", "opened bid locked")
    page.get_by_text(_("Ask the vendor for a correction or a clarification")).click()
    page.locator("#id_kind").select_option("arithmetic")
    page.locator("#id_what").fill("GPU server · unit price")
    page.locator("#id_why").fill(WHY[language])
    page.locator("#id_line_item").select_option(str(line.pk))
    page.locator("#id_unit_price").fill("987654.30")
    page.get_by_role("button", name=_("Send the request")).click()
    expect(page.locator("main")).to_contain_text(
        _("Request sent: the vendor answers it through its portal link.")
    )
    expect(page.locator("#corrections")).to_contain_text(_("Waiting for the vendor"))
    watch.step("buyer", "correction asked")

    # The vendor, on a phone: its portal shows the request; it confirms.
    vendor = watch.page("vendor", PHONE)
    vendor.goto(f"/portal/{token}/")
    requests = vendor.locator("#corrections")
    expect(requests.locator("h2")).to_have_text(_("Requests from the buyer"))
    expect(requests).to_contain_text(WHY[language])
    expect(requests).to_contain_text("9876543.00 → 987654.30")
    watch.step("vendor", "request in the portal")
    requests.get_by_role("button", name=_("Decline")).click()
    expect(vendor.locator("#corrections")).to_contain_text(
        _("Say why you decline the request.")
    )
    vendor.locator("#corrections").get_by_role(
        "button", name=_("Confirm the correction")
    ).click()
    expect(vendor.locator("body")).to_contain_text(
        _("Confirmed: your bid's new version is recorded.")
    )
    expect(vendor.locator("#corrections")).to_contain_text(
        _("now bid version %(n)s", n=version + 1)
    )
    watch.step("vendor", "correction confirmed")

    # The buyer: the new version, on the bid page and in the comparison.
    line.refresh_from_db()
    zebra.refresh_from_db()
    assert line.unit_price == Decimal("987654.30")
    assert zebra.version == version + 1
    page.reload()
    expect(page.locator("#corrections")).to_contain_text(_("Confirmed by the vendor"))
    expect(page.locator("table.line-items")).to_contain_text("987,654.30")
    watch.step("buyer", "bid corrected")
    page.goto(f"/procurements/{procurement.pk}/comparison/")
    header = page.locator("table.comparison thead th").filter(has_text="Zebracorp")
    expect(header.locator(".bid-version")).to_have_text(
        _("bid version %(n)s", n=version + 1)
    )
    watch.step("buyer", "comparison names the version", check_width=False)


# ----------------------------------------------------- 2. an override and its memo


@pytest.fixture
def ranked(monkeypatch, catalog, org, procurement):
    from tests.vendors.test_comparison import PLAN
    from tests.vendors.test_support import at_decision_stage, three_bids
    from vendors.services import plan_facts

    monkeypatch.setattr(plan_facts, "plan_summary", lambda *, procurement: PLAN)
    monkeypatch.setattr(
        plan_facts,
        "training_lower_bound_days",
        lambda *, procurement, accelerator_key, gpu_count: 640.0 / gpu_count,
    )
    at_decision_stage(procurement)
    return three_bids(procurement, org)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_override_decision_and_its_memo(
    browser, base_url, language, procurement, manager, ranked, tmp_path
):
    watch = Watch(browser, base_url, language, "override")
    watch.run(override_journey, language, procurement, manager, ranked, tmp_path)


def override_journey(watch, language, procurement, manager, ranked, tmp_path):
    from vendors.models import AuditEntry, Decision

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    gpu_only = ranked[0]
    page = watch.page("manager")
    log_in(page, manager.username, submit=_("Log in"))
    page.goto(f"/procurements/{procurement.pk}/comparison/")
    hints = page.locator(".override-hints")
    expect(hints).to_contain_text(
        _(
            "Choosing one of these bids is an override of the evaluation and needs "
            "its reason:"
        )
    )
    ranked_first = _(
        "It is ranked %(rank)s, not first; ranked first: %(first)s.",
        rank=2,
        first="Balanced Systems",
    )
    expect(hints).to_contain_text(ranked_first)
    watch.step("manager", "comparison warns", check_width=False)
    form = page.locator("#decision-form")
    form.locator("#id_bid").select_option(str(gpu_only.pk))
    form.locator("#id_rationale").fill(RATIONALE[language])
    form.get_by_role("button", name=_("Record decision")).click()
    form = page.locator("#decision-form")
    expect(form.locator("#field-override_reason")).to_contain_text(
        _(
            "Choosing this bid overrides the evaluation: %(checks)s Give the reason "
            "for the override.",
            checks=ranked_first,
        )
    )
    expect(form.locator("#id_rationale")).to_have_value(RATIONALE[language])
    assert not Decision.objects.exists()
    watch.step("manager", "override needs a reason", check_width=False)
    form.locator("#id_override_reason").fill(REASON[language])
    form.get_by_role("button", name=_("Record decision")).click()
    note = page.locator(".override-note")
    expect(page.locator("main")).to_contain_text(_("Decision recorded."))
    expect(note).to_contain_text(_("Override of the evaluation"))
    expect(note).to_contain_text(REASON[language])
    watch.step("manager", "override recorded", check_width=False)
    decision = Decision.objects.get()
    assert (decision.bid_id, decision.override_reason) == (
        gpu_only.pk,
        REASON[language],
    )
    assert AuditEntry.objects.filter(action="decision", target="override").count() == 1
    with page.expect_download() as info:
        page.get_by_role("link", name=_("Download the decision memo (PDF)")).click()
    path = tmp_path / f"memo-{language}.pdf"
    info.value.save_as(path)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True
    ).stdout.decode()
    (watch.dir / "memo.txt").write_text(text, encoding="utf-8")
    flat = " ".join(text.split())
    override_at = flat.index(_("Override of the evaluation"))
    assert override_at < flat.index(_("The choice and why"))
    assert " ".join(ranked_first.split()) in flat
    assert " ".join(REASON[language].split()) in flat
