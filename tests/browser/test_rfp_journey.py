"""From the IT lead's plan to opened bids, in a real browser, in Chinese and in English
(issue 15).

Done when: "A browser journey: the IT lead's plan becomes an RFP; the buyer invites
three vendors (console e-mail shows the links); two vendors submit through the portal
(one with a bad XLSX row, fixed and resubmitted; one with a wrong spec claim that the
portal flags); the third misses the deadline; at opening the two bids appear in the
comparison with their delivered capability; zh and en."

The plan is computed through the services (the sizing journeys click through it). The
buyer sets the RFP's deadline, publishes the weights, asks for a two-person opening and
downloads the pack (PDF and DOCX state the plan's minimums as shown on the page, the
ZIP holds three files); invites three vendors by e-mail (the test backend's outbox
holds one mail per vendor with its own portal link). Each vendor opens its link in a
browser of its own: the first uploads a workbook filled in the template's columns in
its language with a bad quantity, reads the row error, uploads the fixed workbook and
gets a clean second version; the second (on a phone) claims 141 GB HBM3e for an H100
and the portal flags it against the datasheet; the third fills the form but the
deadline passes before it presses Submit, and the portal refuses with the late message.
Until the opening the buyer's bids, comparison and invitations pages show nothing of
the submissions. Two administrators open them (one asks, the other confirms); the two
bids stand in the comparison with their delivered capability, the third vendor has
none, and the opening is on the invitations page and in the audit trail.

Every page is checked for console errors (CSP violations included), for a page wider
than its viewport and for text of the other language (the .po catalogue, as in the
decision journey). A failing step leaves screenshots of every open page in
test-artifacts/rfp-journey-<lang>/.
"""

from __future__ import annotations

import io
import json
import math
import re
import zipfile
from datetime import timedelta

import openpyxl
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from clusterbuy.models import Role
from sizing.demo import TRAINING
from tests.browser.conftest import ARTIFACTS, new_page
from tests.browser.test_decision_journey import CJK, number, t
from tests.browser.test_journeys import (
    VISIBLE_UI_TEXT,
    _strip,
    catalog_patterns,
    data_strings,
    log_in,
    row_cells,
    sized_procurement,
    untranslated_on,
)
from tests.factories import member, pdf_bytes
from tests.vendors.rfp_support import link_in, token_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FIRST = "Balanced Compute Co."
SECOND = "Claims Galore Ltd"
THIRD = "Latecomer Systems"
EMAILS = {
    FIRST: "tenders@balanced-compute.example",
    SECOND: "bids@claims-galore.example",
    THIRD: "sales@latecomer.example",
}
#: Unit prices (CNY) no page shows before the opening: any of them seen is a leak.
SERVER_PRICE = {FIRST: 2_345_678, SECOND: 1_987_654}
INSTRUCTIONS = {
    "en": "Quote delivered and installed in Shanghai; attach two case studies.",
    "zh-hans": "报价须含上海现场交付与安装；请附两个案例。",
}
#: What each vendor writes (data, not UI copy), in the journey's language.
PROPOSALS = {
    "en": {
        FIRST: (
            "FIRST-VENDOR-PROPOSAL: for the 70B continued pre-training and the 72B "
            "chat service we offer one 400 Gb/s InfiniBand NIC per GPU in a "
            "non-blocking fat tree, a parallel file system and Slurm."
        ),
        SECOND: (
            "SECOND-VENDOR-PROPOSAL: our H100 servers, each H100 GPU with 141 GB "
            "HBM3e memory, on 400 Gb/s InfiniBand."
        ),
        THIRD: "THIRD-VENDOR-PROPOSAL: written, never sent.",
    },
    "zh-hans": {
        FIRST: (
            "FIRST-VENDOR-PROPOSAL：针对 70B 继续预训练与 72B 对话服务，每块 GPU 配一块 "
            "400 Gb/s InfiniBand 网卡，无阻塞胖树组网，并行文件系统，Slurm 调度。"
        ),
        SECOND: (
            "SECOND-VENDOR-PROPOSAL：我们的 H100 服务器，每块 H100 GPU 配备 141 GB "
            "HBM3e 显存，400 Gb/s InfiniBand 组网。"
        ),
        THIRD: "THIRD-VENDOR-PROPOSAL：写好了，但没有提交。",
    },
}
QUESTION = {
    "en": "May the racks be liquid-cooled in hall B?",
    "zh-hans": "B 机房的机柜可以采用液冷吗？",
}
ANSWER = {
    "en": "No: hall B is air-cooled only, 40 kW per rack.",
    "zh-hans": "不可以：B 机房只支持风冷，每机柜 40 kW。",
}
MARKERS = ("FIRST-VENDOR-PROPOSAL", "SECOND-VENDOR-PROPOSAL", "THIRD-VENDOR-PROPOSAL")


# ----------------------------------------------------------------- the checking


#: Values of a facts list squeezed into a column a few letters wide (a long label
#: beside them on a phone): the page fits, but the value reads one letter a line.
SQUEEZED = """() => [...document.querySelectorAll("dl.facts dd")]
  .filter(dd => dd.checkVisibility() && dd.innerText.trim().length > 3
    && dd.getBoundingClientRect().width < 64)
  .map(dd => dd.innerText.trim())"""


class Watch:
    """Every page of the journey (one per persona): console errors, the width of the
    page against its viewport, its language, a screenshot per step."""

    def __init__(self, browser, base_url: str, language: str):
        self.browser, self.base_url, self.language = browser, base_url, language
        self.dir = ARTIFACTS / f"rfp-journey-{language}"
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0
        self.pages: dict[str, Page] = {}
        self.console: list[str] = []
        self.too_wide: dict[str, tuple[int, int]] = {}
        self.squeezed: dict[str, list[str]] = {}
        self.language_findings: dict[str, object] = {}
        self.patterns = catalog_patterns() if language.startswith("zh") else []
        assert not language.startswith("zh") or len(self.patterns) > 500

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
        if where.endswith("/favicon.ico"):  # the browser's own guess, not the page's
            return
        self.console.append(f"{persona}: {message.text} [{where}]")

    def step(self, persona: str, name: str) -> None:
        """The page of step ``name``: its language, its width, a screenshot."""
        page = self.pages[persona]
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        msgids = {msgid for msgid, _ in self.patterns}
        data, prose = data_strings(msgids)
        if self.patterns:
            found = untranslated_on(page, self.patterns, prose, data, ["tokens/s"])
        else:
            text = _strip(page.evaluate(VISIBLE_UI_TEXT), data + prose)
            found = sorted(set(CJK.findall(text)))
        if found:
            self.language_findings[f"{persona}: {name}"] = found
        width, viewport = page.evaluate(
            "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
        )
        if width > viewport:
            self.too_wide[f"{persona}: {name}"] = (width, viewport)
        squeezed = page.evaluate(SQUEEZED)
        if squeezed:
            self.squeezed[f"{persona}: {name}"] = squeezed
        self.n += 1
        slug = re.sub(r"[^a-z0-9]+", "-", f"{persona} {name}".lower()).strip("-")
        page.screenshot(path=str(self.dir / f"{self.n:02d}-{slug}.png"), full_page=True)

    def failure(self) -> None:
        for persona, page in self.pages.items():
            try:
                page.screenshot(
                    path=str(self.dir / f"failure-{persona}.png"), full_page=True
                )
                (self.dir / f"failure-{persona}.txt").write_text(
                    page.locator("body").inner_text(), encoding="utf-8"
                )
            except Exception:  # noqa: BLE001 - the page may be gone; the error stands
                pass

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()

    def assert_clean(self) -> None:
        errors = {p: page.js_errors for p, page in self.pages.items() if page.js_errors}
        assert not errors, errors
        assert not self.console, f"console errors: {self.console}"
        assert not self.too_wide, f"pages wider than the viewport: {self.too_wide}"
        assert not self.squeezed, f"values squeezed to a sliver: {self.squeezed}"
        assert not self.language_findings, (
            f"{self.language} pages show text of the other language: "
            f"{self.language_findings}"
        )


def flat(text: str) -> str:
    """Text without any white space (PDF and DOCX break lines where they like)."""
    return "".join(text.split())


def docx_text(data: bytes) -> str:
    import docx

    document = docx.Document(io.BytesIO(data))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.extend(cell.text for cell in row.cells)
    return "\n".join(parts)


def template_headers(language: str) -> list[str]:
    from django.utils import translation

    from vendors.engine.importing import COLUMNS
    from vendors.services.line_item_template import column_label

    with translation.override(language):
        return [column_label(code) for code in COLUMNS]


def workbook(path, language: str, rows: list[tuple]) -> str:
    """Line items as a vendor fills in the template: its column headers and coded
    values as the template shows them in ``language``."""
    from django.utils import translation

    from vendors.services.line_item_template import value_labels

    with translation.override(language):
        categories, flags = value_labels("category"), value_labels("recurring")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(template_headers(language))
    for category, description, quantity, price, recurring in rows:
        sheet.append(
            [categories[category], description, quantity, price, flags[recurring]]
        )
    book.save(path)
    return str(path)


def line_rows(vendor: str, servers: int) -> list[tuple]:
    return [
        ("gpu_servers", "8-GPU server", servers, SERVER_PRICE[vendor], "no"),
        ("network", "InfiniBand fabric", 1, 2_600_000, "no"),
        ("storage", "Parallel file system", 1, 1_500_000, "no"),
        ("support", "7x24 support", 1, 450_000, "yes"),
    ]


def offer(plan) -> dict:
    """An offer that meets every minimum of the plan (the figures the RFP asks for)."""
    from vendors.comparison.checks import plan_needs

    needs = plan_needs(plan)
    gpus = needs.gpu_count
    return {
        "gpu_count": gpus,
        "nodes": math.ceil(gpus / 8),
        "scaleup_domain_gpus": max(needs.scaleup_domain_gpus, 8),
        "network_gbps_per_gpu": math.ceil(needs.network_gbps_per_gpu) or 400,
        "storage_tb": math.ceil(needs.storage_tb) or 100,
        "storage_read_gbs": math.ceil(needs.storage_read_gbs) or 20,
        "storage_write_gbs": math.ceil(needs.storage_write_gbs) or 10,
        "peak_power_kw": math.floor(needs.it_power_kw) or 100,
        "cooling": needs.cooling,
        "delivery_weeks": 8,
        "warranty_years": 3,
        "sev1_hours": 1,
    }


def fill_offer(page: Page, accelerator: str, figures: dict, proposal: str) -> None:
    page.select_option("#id_accelerator", accelerator)
    page.select_option("#id_scheduler", "slurm")
    page.select_option("#id_cooling", figures["cooling"])
    for name, value in figures.items():
        if name != "cooling":
            page.fill(f"#id_{name}", str(value))
    page.fill("#id_proposal_text", proposal)


def submit(page: Page) -> None:
    page.locator("#submit").get_by_role("button").last.click()


def download(page: Page, link):
    """The file behind a download link (a PDF takes a while to render)."""
    with page.expect_download(timeout=120_000) as started:
        link.click()
    file = started.value
    assert file.failure() is None, file.failure()
    return open(file.path(), "rb").read()


def sealed_nothing_shown(page: Page, where: str) -> None:
    """Nothing of a submission on the page: no proposal, no price, no version."""
    html = page.content()
    for marker in MARKERS:
        assert marker not in html, (where, marker)
    for price in SERVER_PRICE.values():
        for shown in (str(price), f"{price:,}"):
            assert shown not in html, (where, shown)
    assert 'id="version-' not in html, where


# ------------------------------------------------------------------- the journey


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_rfp_journey_from_plan_to_opened_bids(
    browser, base_url, language, org, it_lead, buyer, admin_user, catalog, tmp_path,
    mailoutbox,
):  # fmt: skip
    second_admin = member(org, Role.ADMIN, "adam-admin")
    procurement = sized_procurement(org, it_lead)
    watch = Watch(browser, base_url, language)
    try:
        journey(
            watch, language, procurement, buyer, admin_user, second_admin,
            tmp_path, mailoutbox,
        )  # fmt: skip
    except BaseException:
        watch.failure()
        raise
    finally:
        watch.close()
    watch.assert_clean()


def journey(watch, language, procurement, buyer, admin, second_admin, tmp_path, outbox):
    from vendors.models import AuditAction, AuditEntry, Bid, RfpSettings, Submission
    from vendors.services.plan_facts import plan_summary

    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    def n_(singular: str, plural: str, n: int) -> str:
        from django.utils import translation

        with translation.override(language):
            return translation.ngettext(singular, plural, n) % {"n": n}

    def p_(context: str, msgid: str) -> str:
        from django.utils import translation

        with translation.override(language):
            return translation.pgettext(context, msgid)

    submit_login = _("Log in")
    plan = plan_summary(procurement=procurement)
    figures = offer(plan)
    pk = procurement.pk

    # 1. The buyer: the plan becomes an RFP (deadline, weights, two-person opening).
    page = watch.page("buyer")
    log_in(page, buyer.username, submit=submit_login)
    page.goto(f"/procurements/{pk}/bids/")
    page.locator("main").get_by_role(
        "link", name=_("Request for proposal"), exact=True
    ).first.click()
    expect(page.locator("#rfp-settings h2")).to_have_text(_("Request for proposal"))
    minimums = page.locator("#rfp-minimums tbody tr")
    assert minimums.count() >= 5, minimums.all_inner_texts()
    expect(page.locator("#rfp-minimums")).to_contain_text(_("Compute delivered"))
    required = [
        (row.locator("td").nth(0).inner_text(), row.locator("td").nth(1).inner_text())
        for row in minimums.all()
    ]
    deadline = timezone.localtime(timezone.now() + timedelta(days=10))
    page.locator("#id_deadline").fill(deadline.strftime("%Y-%m-%dT%H:%M"))
    page.locator("#id_publish_weights").check()
    page.locator("#id_two_person_opening").check()
    # A check box's help stands below it, not before it on its line.
    box = page.locator("#id_two_person_opening").bounding_box()
    help_box = page.locator("#field-two_person_opening .help").bounding_box()
    assert help_box["y"] >= box["y"] + box["height"], (box, help_box)
    page.locator("#id_instructions").fill(INSTRUCTIONS[language])
    page.get_by_role("button", name=_("Save RFP settings")).click()
    expect(page.locator("#rfp-criteria thead")).to_contain_text(_("Weight"))
    expect(page.locator("#rfp-preview")).to_contain_text(deadline.strftime("%H:%M"))
    rfp = RfpSettings.objects.get(procurement=procurement)
    assert rfp.publish_weights and rfp.two_person_opening
    assert rfp.instructions == INSTRUCTIONS[language]
    assert timezone.localtime(rfp.deadline).strftime("%Y-%m-%d %H:%M") == (
        deadline.strftime("%Y-%m-%d %H:%M")
    )
    watch.step("buyer", "rfp settings saved")

    # The pack: PDF and DOCX state the minimums as the page does; the ZIP has three.
    downloads = page.locator("#rfp-settings .downloads a.button")
    pdf_path = tmp_path / "rfp.pdf"
    pdf_path.write_bytes(download(page, downloads.nth(0)))
    assert pdf_path.read_bytes().startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(pdf_path).pages)
    (watch.dir / "rfp.txt").write_text(text, encoding="utf-8")
    pdf = flat(text)
    docx = flat(docx_text(download(page, downloads.nth(1))))
    for label, shown in required:
        for name, text in (("PDF", pdf), ("DOCX", docx)):
            assert flat(label) in text, f"{label!r} not in the {language} {name}"
            assert flat(shown) in text, f"{shown!r} ({label}) not in the {name}"
    assert flat(INSTRUCTIONS[language]) in pdf
    assert flat(_("Minimum requirements the bid must meet")) in pdf
    if language == "en":  # the demo's workload names are data in both languages
        names = procurement.sizing_workloads.values_list("name", flat=True)
        english = pdf
        for name in names:
            english = english.replace(flat(name), "")
        assert not CJK.search(english), CJK.findall(english)[:10]
    with zipfile.ZipFile(io.BytesIO(download(page, downloads.nth(2)))) as pack:
        names = pack.namelist()
        assert len(names) == 3, names
        assert sorted(n.rsplit(".", 1)[-1] for n in names) == ["docx", "pdf", "xlsx"]
        pdf_name = next(n for n in names if n.endswith(".pdf"))
        assert pack.read(pdf_name).startswith(b"%PDF")
        xlsx_name = next(n for n in names if n.endswith(".xlsx"))
        template = openpyxl.load_workbook(io.BytesIO(pack.read(xlsx_name)))
    # The bid template in the page's language, its coded columns as drop-downs: the
    # headers the vendors' workbooks below are written with.
    sheet = template.worksheets[0]
    assert [c.value for c in sheet[1]] == template_headers(language)
    assert sheet.data_validations.dataValidation, "no drop-down in the template"

    # 2. The buyer invites three new vendors; each gets one mail with its link.
    page.get_by_role(
        "link", name=_("RFP: invitations, questions and opening")
    ).first.click()
    expect(page.locator("#invitations")).to_contain_text(_("No vendor is invited yet."))
    for vendor, email in EMAILS.items():
        page.locator("#id_vendor_name").fill(vendor)
        page.locator("#id_email").fill(email)
        page.get_by_role("button", name=_("Send the invitation")).click()
        expect(page.get_by_role("status").first).to_contain_text(
            _("Invitation sent to %(email)s.", email=email)
        )
    rows = page.locator("#invitations tbody tr")
    expect(rows).to_have_count(3)
    for vendor in EMAILS:
        expect(rows.filter(has_text=vendor)).to_contain_text(
            p_("rfp opening", "active")
        )
    # Each row's actions in view on a desktop, not behind the table's own scroll.
    table = page.locator("#invitations .table-scroll")
    assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
    watch.step("buyer", "three vendors invited")

    assert len(outbox) == 3, [m.subject for m in outbox]
    links = {}
    for vendor, email in EMAILS.items():
        mails = [m for m in outbox if m.to == [email]]
        assert len(mails) == 1, (email, [m.to for m in outbox])
        link = link_in(mails[0])
        assert link.startswith(watch.base_url), link
        body = mails[0].body  # in both languages, each with the link
        assert body.count(link) == 2, body
        assert vendor in body and procurement.name in body, body
        assert ".." not in body, body
        links[vendor] = link
    assert len({token_of(link) for link in links.values()}) == 3

    # 3a. The first vendor: a bad workbook row, read in the feedback, then fixed.
    first = watch.page("first")
    first.goto(links[FIRST])
    expect(first.locator("h1")).to_have_text(procurement.name)
    expect(first.locator("main")).to_contain_text(INSTRUCTIONS[language])
    expect(first.locator("#versions")).to_contain_text(_("Nothing submitted yet."))
    # The minimums as the buyer's RFP page (and its PDF) states them.
    # (each figure in bold, its basis in small print below it)
    stated = first.locator("section[aria-labelledby=req-title] dl.requirements")
    assert (
        list(
            zip(
                stated.locator("dt").all_inner_texts(),
                stated.locator("dd strong").all_inner_texts(),
                strict=True,
            )
        )
        == required
    )
    # The weights were published (step 1): the vendor sees them too.
    weights = first.locator("dl.weights dt")
    assert weights.count() >= 1
    watch.step("first", "portal opened from the e-mail")
    case_study = tmp_path / "case-study.pdf"
    case_study.write_bytes(pdf_bytes())
    first.set_input_files("#evidence input[type=file]", str(case_study))
    first.locator("#evidence").get_by_role("button", name=_("Attach")).click()
    expect(first.get_by_role("status").first).to_contain_text(_("File attached."))
    expect(first.locator("#evidence ul.evidence")).to_contain_text("case-study.pdf")
    servers = figures["nodes"]
    bad = line_rows(FIRST, servers)
    bad[2] = (*bad[2][:2], "thirteen" if language == "en" else "十三", *bad[2][3:])
    fill_offer(first, plan.accelerator, figures, PROPOSALS[language][FIRST])
    first.set_input_files(
        "#id_workbook", workbook(tmp_path / "bad.xlsx", language, bad)
    )
    submit(first)
    version = first.locator("#version-1")
    expect(version).to_be_visible()
    expect(first.locator("#versions .msg.error")).to_be_visible()
    row_error = version.locator(".import-errors li")
    expect(row_error).to_have_count(1)
    # The header is row 1: the third line item stands in row 4.
    expect(row_error).to_contain_text("Row 4" if language == "en" else "第 4 行")
    expect(version.locator("summary")).to_contain_text(_("incomplete"))
    watch.step("first", "row error in the feedback")
    good = workbook(tmp_path / "good.xlsx", language, line_rows(FIRST, servers))
    first.set_input_files("#id_workbook", good)
    submit(first)
    version = first.locator("#version-2")
    expect(version).to_be_visible()
    expect(version.locator(".import-errors")).to_have_count(0)
    expect(version.locator("summary")).to_contain_text(_("no problems found"))
    expect(first.locator("#versions .msg.error")).to_have_count(0)
    expect(version).to_contain_text(n_("%(n)s line item", "%(n)s line items", 4))
    watch.step("first", "clean second version")

    # 3b. The second vendor, on a phone: an H100 claimed with 141 GB HBM3e.
    second = watch.page("second", PHONE)
    second.goto(links[SECOND])
    fill_offer(second, "h100-sxm-80gb", figures, PROPOSALS[language][SECOND])
    second.set_input_files(
        "#id_workbook",
        workbook(tmp_path / "second.xlsx", language, line_rows(SECOND, servers)),
    )
    submit(second)
    version = second.locator("#version-1")
    expect(version).to_be_visible()
    # Two claims of one sentence contradict the H100's datasheet: 141 GB and HBM3e.
    flagged = version.locator(".spec-claims li.status-fail")
    expect(flagged).to_have_count(2)
    expect(flagged.nth(0)).to_contain_text("141 GB")
    expect(flagged.nth(0)).to_contain_text("80 GB")
    expect(flagged.nth(1)).to_contain_text("HBM3e")
    expect(version.locator("summary .badge.bad")).to_contain_text(
        n_(
            "%(n)s claim contradicts the datasheet",
            "%(n)s claims contradict the datasheet",
            2,
        )
    )
    watch.step("second", "spec claim flagged")

    # Q&A: the second vendor asks; the buyer answers once for all, without who asked.
    second.locator("#id_question").fill(QUESTION[language])
    second.locator("#questions").get_by_role("button", name=_("Ask")).click()
    expect(second.get_by_role("status").first).to_contain_text(
        _("Question sent to the buyer.")
    )
    page.goto(f"/procurements/{pk}/rfp/invitations/")
    asked = page.locator("#questions article.qa")
    expect(asked).to_have_count(1)
    expect(asked).to_contain_text(QUESTION[language])
    asked.locator("textarea").fill(ANSWER[language])
    asked.get_by_role("button", name=_("Review before publishing")).click()
    # The redaction step: the question and the answer as every vendor will read them.
    review = page.locator("#redaction")
    expect(review.locator("#published-question")).to_have_value(QUESTION[language])
    review.get_by_role("button", name=_("Publish the answer")).click()
    expect(page.get_by_role("status").first).to_contain_text(
        _("Answer published to every invited vendor.")
    )
    watch.step("buyer", "question answered")
    first.reload()
    qa = first.locator("#questions dl.qa")
    expect(qa.locator("dt")).to_have_text(QUESTION[language])
    expect(qa.locator("dd")).to_have_text(ANSWER[language])
    expect(qa).not_to_contain_text(SECOND)
    second.reload()
    expect(second.locator("#questions dl.qa dt")).to_contain_text(_("your question"))

    # 3c. The third vendor fills the form, but the deadline passes before it sends.
    third = watch.page("third")
    third.goto(links[THIRD])
    fill_offer(third, plan.accelerator, figures, PROPOSALS[language][THIRD])
    watch.step("third", "form filled before the deadline")
    # Time passing is the one thing a browser cannot do: the deadline moves to now in
    # the database (after the two submissions, so both were on time).
    last = Submission.objects.order_by("-submitted_at").first().submitted_at
    RfpSettings.objects.filter(procurement=procurement).update(deadline=timezone.now())
    assert RfpSettings.objects.get(procurement=procurement).deadline > last
    submit(third)
    late = _(
        "The submission deadline was %(deadline)s; revisions are closed and this "
        "submission was not accepted."
    ).split("%(deadline)s")
    closed = third.locator("#window-closed")
    expect(closed).to_contain_text(late[0].strip())
    expect(closed).to_contain_text(late[1].strip())
    expect(third.locator("#submit")).to_have_count(0)
    expect(third.locator("#versions")).to_contain_text(_("Nothing submitted yet."))
    watch.step("third", "late submission refused")
    assert not Submission.objects.filter(invitation__vendor__name=THIRD).exists()
    assert Submission.objects.count() == 3

    # 4. Sealed: the buyer sees nothing of the submissions, even past the deadline.
    page.goto(f"/procurements/{pk}/bids/")
    expect(page.locator("main")).to_contain_text(_("No bids yet."))
    expect(page.locator("main")).to_contain_text(
        n_("%(n)s vendor with a bid", "%(n)s vendors with a bid", 0)
    )
    sealed_nothing_shown(page, "bids")
    watch.step("buyer", "bids page sealed")
    page.goto(f"/procurements/{pk}/comparison/")
    expect(page.locator("table.comparison")).to_have_count(0)
    expect(page.locator("main")).to_contain_text(_("No bids yet."))
    sealed_nothing_shown(page, "comparison")
    watch.step("buyer", "comparison sealed")
    page.goto(f"/procurements/{pk}/rfp/invitations/")
    expect(page.locator("#invitations")).to_contain_text(
        _("Submissions stay sealed until the opening: nothing of them is shown before.")
    )
    expect(page.locator("#opening")).to_contain_text(
        _("Only an administrator can open the submissions.")
    )
    expect(page.locator("#opening button")).to_be_disabled()
    sealed_nothing_shown(page, "invitations")
    expect(page.locator("#opening table")).to_have_count(0)
    # The API the pages stand on says as little: sealed, no count.
    api = page.request.get(f"/api/v1/procurements/{pk}/rfp/submissions/")
    assert api.status == 409, api.status
    assert api.json() == {"detail": _("The submissions are sealed until the opening.")}
    watch.step("buyer", "invitations page sealed")
    assert not Bid.objects.filter(procurement=procurement).exists()

    # 5. Two administrators open the submissions: one asks, the other confirms.
    opener = watch.page("admin")
    log_in(opener, admin.username, submit=submit_login)
    opener.goto(f"/procurements/{pk}/rfp/invitations/")
    sealed_nothing_shown(opener, "invitations (admin)")
    opener.get_by_role("button", name=_("Ask to open the submissions")).click()
    expect(opener.get_by_role("status").first).to_contain_text(
        _("Opening requested: a second administrator must confirm it.")
    )
    expect(opener.locator("#opening")).to_contain_text(
        _("waiting for a second administrator")
    )
    expect(opener.locator("#opening button")).to_be_disabled()
    asked_by = _("Asked by %(who)s on %(when)s", who=admin.username, when="\0")
    expect(opener.locator("#opening")).to_contain_text(asked_by.split("\0")[0].strip())
    sealed_nothing_shown(opener, "opening requested")
    watch.step("admin", "opening requested")

    confirmer = watch.page("second-admin")
    log_in(confirmer, second_admin.username, submit=submit_login)
    confirmer.goto(f"/procurements/{pk}/rfp/invitations/")
    confirmer.get_by_role("button", name=_("Confirm the opening")).click()
    expect(confirmer.get_by_role("status").first).to_contain_text(
        _("Opened: %(bids)s bids from %(versions)s submitted versions.", bids=2,
          versions=3)
    )  # fmt: skip
    opening = confirmer.locator("#opening")
    expect(opening).to_contain_text(p_("rfp opening", "opened"))
    expect(opening).to_contain_text(second_admin.username)
    expect(opening).to_contain_text(admin.username)
    opened_rows = opening.locator("tbody tr")
    expect(opened_rows).to_have_count(4)  # two versions, one, and "no submission"
    expect(opened_rows.filter(has_text=THIRD)).to_contain_text(
        p_("rfp opening", "no submission")
    )
    expect(
        opening.get_by_role("link", name=p_("rfp opening", "the bid"))
    ).to_have_count(3)
    watch.step("second-admin", "submissions opened")
    api = confirmer.request.get(f"/api/v1/procurements/{pk}/rfp/submissions/")
    assert api.status == 200, api.status
    versions = {row["vendor"]["name"]: row["versions"] for row in api.json()}
    assert {
        vendor: [v["version"] for v in rows] for vendor, rows in versions.items()
    } == {
        FIRST: [2, 1],
        SECOND: [1],
        THIRD: [],
    }

    opened = list(
        AuditEntry.objects.filter(
            procurement=procurement, action=AuditAction.OPENING
        ).order_by("pk")
    )
    assert [(e.target, e.actor) for e in opened] == [
        ("requested", admin),
        ("opened", second_admin),
    ]
    record = json.loads(opened[1].new_value)
    assert (record["bids"], record["submissions"]) == (2, 3), record
    assert record["without_submission"] == [THIRD], record
    assert record["requested_by"] == admin.username, record

    # The buyer's comparison: two bids, by what they deliver.
    page.goto(f"/procurements/{pk}/comparison/")
    labels = page.locator("table.comparison thead th a").all_inner_texts()
    assert sorted(labels) == sorted([FIRST, SECOND]), labels
    compute = row_cells(page, _("Compute delivered"))
    expect(compute).to_have_count(2)
    training = row_cells(
        page, _("Training time: %(workload)s (days)", workload=TRAINING["name"])
    )
    expect(training).to_have_count(2)
    assert all(number(text) > 0 for text in training.all_inner_texts())
    claims = row_cells(page, _("Spec claims"))
    second_column = labels.index(SECOND)
    expect(claims.nth(second_column)).to_have_class(re.compile(r"\bstatus-fail\b"))
    expect(claims.nth(second_column)).to_contain_text("141")
    expect(claims.nth(1 - second_column)).to_have_class(re.compile(r"\bstatus-pass\b"))
    watch.step("buyer", "comparison after the opening")
    bids = {b.vendor.name: b for b in Bid.objects.filter(procurement=procurement)}
    assert set(bids) == {FIRST, SECOND}
    assert bids[FIRST].proposal_text == PROPOSALS[language][FIRST]
    assert bids[FIRST].line_items.count() == 4
    page.goto(f"/procurements/{pk}/bids/{bids[FIRST].pk}/")
    expect(page.locator("main")).to_contain_text(PROPOSALS[language][FIRST])
    expect(page.locator("main")).to_contain_text("case-study.pdf")
    expect(page.locator("main")).to_contain_text("good.xlsx")
    watch.step("buyer", "opened bid with its evidence")

    watch.pages["first"].goto(links[FIRST])
    expect(watch.pages["first"].locator("#window-closed")).to_contain_text(
        _("The submissions have been opened; no more changes are accepted.")
    )
    watch.step("first", "portal after the opening")
