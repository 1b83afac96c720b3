"""User journeys through the real UI in a real browser (issue 6).

Each journey logs in through the login form and clicks its way through the pages its
persona uses; data the journey does not need to click (users, the hardware catalog,
other people's earlier work) is set up through services and factories.
Screenshots of every step land in test-artifacts/<journey>/.
"""

from __future__ import annotations

import os
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from clusterbuy.models import Procurement
from tests.browser.conftest import ARTIFACTS
from tests.conftest import missing_service
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# ------------------------------------------------------------------------ helpers


def log_in(page: Page, username: str, *, submit: str = "Log in") -> None:
    page.goto("/login/")
    page.get_by_label(re.compile(r"^(Username|用户名)")).fill(username)
    page.get_by_label(re.compile(r"^(Password|密码)")).fill(PASSWORD)
    page.locator("main").get_by_role("button", name=submit).click()
    expect(page).not_to_have_url(re.compile(r"/login/"))


def open_tab(page: Page, name: str) -> None:
    page.locator("nav.tabs").get_by_role("link", name=name, exact=True).click()
    expect(page.locator("nav.tabs a.active")).to_have_text(name)


def click_to_download(page: Page, link):
    """Click a download link; fail with the server's answer when it is not a file."""
    href = link.get_attribute("href")
    with page.expect_response(lambda r: r.url.endswith(href)) as answer:
        with page.expect_download(timeout=60_000) as download:
            link.click()
            if answer.value.status != 200:
                pytest.fail(f"{href} answered {answer.value.status}, not a file")
    return download.value


def field(page: Page, label: str):
    """The form control labelled ``label`` (exactly, ignoring the required star)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


# --------------------------------------------------------------- journey 1: sizing


def test_it_lead_sizes_a_cluster_from_the_questionnaire(
    page_en: Page, org, it_lead, catalog, shots
):
    page = page_en

    log_in(page, it_lead.username)
    expect(page.get_by_role("heading", name="Procurements")).to_be_visible()
    shots(page, "procurement list")

    page.get_by_role(
        "link", name=re.compile("New procurement|Start your first")
    ).first.click()
    field(page, "Name").fill("LLM training cluster")
    field(page, "Planning horizon (years)").select_option("5")
    field(page, "Budget from").fill("20000000")
    field(page, "Budget up to").fill("60000000")
    field(page, "City").fill("Shanghai")
    field(page, "Where the hardware is bought").select_option(label="Outside China")
    shots(page, "new procurement form")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="LLM training cluster")).to_be_visible()
    procurement = Procurement.objects.get(name="LLM training cluster")
    assert procurement.organisation == org

    open_tab(page, "Requirements")
    expect(page.get_by_text("No workload yet")).to_be_visible()

    # One training workload ...
    page.get_by_role("link", name="Add a workload").click()
    field(page, "Name").fill("8B pre-training")
    field(page, "Kind").select_option(label="Pre-training / continued pre-training")
    field(page, "Model preset").select_option("llama-3.1-8b")
    field(page, "Sequence length").fill("4096")
    field(page, "Training tokens (billions)").fill("200")
    field(page, "Target duration (days)").fill("30")
    expect(page.locator("#preview")).to_contain_text("Sizing preview")
    shots(page, "training workload")
    page.get_by_role("button", name="Save workload").click()
    expect(page.locator("table.workloads")).to_contain_text("8B pre-training")

    # ... and one inference workload.
    page.get_by_role("link", name="Add a workload").click()
    field(page, "Name").fill("70B chat service")
    field(page, "Kind").select_option(label="Inference")
    expect(field(page, "Training tokens (billions)")).to_be_hidden()
    field(page, "Model preset").select_option("llama-3.1-70b")
    field(page, "Context (tokens)").fill("4096")
    field(page, "Output (tokens)").fill("512")
    field(page, "Concurrent requests").fill("64")
    expect(page.locator("#preview")).to_contain_text("TTFT")
    shots(page, "inference workload")
    page.get_by_role("button", name="Save workload").click()
    workloads = page.locator("table.workloads tbody tr")
    expect(workloads).to_have_count(2)
    expect(page.locator("table.workloads")).to_contain_text("70B chat service")

    # The questionnaire, with its live preview.
    form = page.locator("#requirement-form")
    form.get_by_label("Training and inference").check()
    field(page, "Data volume today (TB)").fill("50")
    field(page, "Data and demand growth per year (%)").fill("30")
    # Budget, horizon and region are the procurement's: shown, not asked again.
    facts = page.locator("#procurement-facts")
    expect(facts.locator("#fact-horizon")).to_have_text("5 years")
    expect(facts.locator("#fact-region")).to_contain_text("Outside China")
    expect(facts.locator("#fact-budget")).to_contain_text("60,000,000")
    expect(facts.get_by_role("link", name="Edit the procurement")).to_be_visible()
    expect(form.locator('[name="planning_years"]')).to_have_count(0)
    field(page, "Pin an accelerator (optional)").select_option("h100-sxm-80gb")
    expect(page.locator("#preview")).to_contain_text("h100-sxm-80gb")
    shots(page, "requirements questionnaire")
    page.get_by_role("button", name="Save and compute sizing").click()

    # The sizing plan, with its explanation.
    expect(page.locator("nav.tabs a.active")).to_have_text("Sizing")
    expect(page.get_by_role("status")).to_contain_text("sizing computed")
    recommended = page.locator("section.recommended")
    expect(recommended.get_by_role("heading")).to_have_text("Recommended configuration")
    expect(recommended).to_contain_text("h100-sxm-80gb")
    gpu_count = int(page.locator("#gpu-count").inner_text())
    assert gpu_count >= 8
    per_workload = page.locator("table.per-workload tbody tr")
    expect(per_workload).to_have_count(2)
    expect(per_workload.nth(0)).to_contain_text("8B pre-training")
    expect(per_workload.nth(0)).to_contain_text("days at MFU")
    expect(per_workload.nth(1)).to_contain_text("70B chat service")
    # No precision chosen: served at the weights' published precision (BF16 here)
    expect(per_workload.nth(1)).to_contain_text(
        "Weights in BF16: the model's published precision"
    )
    expect(per_workload.nth(1)).to_contain_text("tok/s")

    explanation = page.locator("details.explain").first
    explanation.locator("summary").click()
    expect(explanation.locator("table.explain-table")).to_be_visible()
    assert explanation.locator("table.explain-table tbody tr").count() >= 3
    expect(explanation.locator("thead")).to_contain_text("Formula")
    shots(page, "sizing plan with explanation")
    assert not page.js_errors


# ------------------------------------------------- journey 2: vendors and bids

VENDORS = [
    # name, kind, region
    ("Balanced Compute Co.", "Cluster builder / integrator", "Shanghai"),
    ("GPU Box Ltd", "Server OEM", "Shenzhen"),
    ("Promise Tech", "Cluster builder / integrator", "Beijing"),
]
BALANCED_PROPOSAL = (
    "We confirmed with your IT team the training data (about 2 TB, growing 30 % a "
    "year) and that the data must stay on premises, and sized a balanced cluster for "
    "continued pre-training of the 70B model plus the 72B inference service: one "
    "400 Gb/s InfiniBand NIC per GPU in a non-blocking fat tree, a parallel file "
    "system sized for checkpoint writes, Slurm for training and Kubernetes for "
    "inference, PyTorch, Megatron-LM and vLLM."
)
TEMPLATE_PROPOSAL = (
    "We are an industry-leading provider of AI infrastructure solutions with rich "
    "project experience and a first-class technical team. 100% guaranteed! Our "
    "self-developed scheduling platform is excellent, stable and reliable, and "
    "fully meets all kinds of customer needs."
)


def sized_procurement(organisation, user) -> Procurement:
    """A procurement with a requirement, two workloads and a computed sizing plan."""
    from clusterbuy import services as core
    from sizing import services as sizing
    from sizing.demo import INFERENCE, TRAINING

    procurement = core.create_procurement(
        organisation=organisation,
        user=user,
        name="LLM cluster 2027",
        currency="CNY",
        horizon_years=5,
        region="cn",
        slurm_experience=True,
        kubernetes_experience=True,
    )
    sizing.save_requirement(
        procurement=procurement,
        user=user,
        scenario="mixed",
        data_tb=2.0,
        rack_power_limit_kw=40.0,
    )
    for values in (TRAINING, INFERENCE):
        sizing.create_workload(procurement=procurement, **values)
    sizing.compute_sizing_plan(procurement=procurement, user=user)
    return procurement


def line_items_xlsx(path, servers: int) -> None:
    """The balanced bid's line items, as a buyer fills in the template."""
    import openpyxl

    from vendors.engine.importing import COLUMNS

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(COLUMNS))
    for row in (
        ("gpu_servers", "8-GPU HGX server", servers, 2_100_000, "no"),
        ("network", "InfiniBand NDR switches, NICs, optics", 1, 2_600_000, "no"),
        ("storage", "Parallel file system", 1, 1_500_000, "no"),
        ("software", "Cluster management and monitoring", 1, 120_000, "yes"),
        ("installation", "Racking, cabling, burn-in, acceptance", 1, 260_000, "no"),
        ("support", "7x24 support after warranty", 1, 450_000, "yes"),
        ("power_cooling", "PDUs, UPS extension, in-row cooling", 1, 900_000, "no"),
        ("training", "Slurm/Kubernetes operations training", 1, 60_000, "no"),
    ):
        sheet.append(list(row))
    book.save(path)


def row_cells(page: Page, label: str):
    """The cells of the comparison table's row headed ``label``."""
    return (
        page.locator("table.comparison tr")
        .filter(has=page.get_by_role("rowheader", name=label, exact=True))
        .locator("td")
    )


def ranking(page: Page) -> list[str]:
    """Vendor labels, best rank first, as the comparison table shows them."""
    labels = page.locator("table.comparison thead th a").all_inner_texts()
    ranks = row_cells(page, "Rank").all_inner_texts()
    return [
        label for _, label in sorted(zip((int(r) for r in ranks), labels, strict=True))
    ]


def add_bid(page: Page, vendor: str, facts: dict) -> None:
    page.get_by_role("link", name="Add a bid").click()
    field(page, "Vendor").select_option(label=vendor)
    for label, value in facts.items():
        if isinstance(value, bool):
            page.get_by_role("checkbox", name=label, exact=True).set_checked(value)
            continue
        control = field(page, label)
        if control.evaluate("e => e.tagName") == "SELECT":
            # a string matches an option's value or its label: the accelerator select
            # shows catalog names over catalog keys
            control.select_option(str(value))
        else:
            control.fill(str(value))
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Bid saved")


def add_line_item(page: Page, category: str, description: str, qty, price) -> None:
    box = page.locator("details", has_text="Add a line item")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    box.get_by_label(re.compile("^Category")).select_option(label=category)
    box.get_by_label(re.compile("^Description")).fill(description)
    box.get_by_label(re.compile("^Quantity")).fill(str(qty))
    box.get_by_label(re.compile("^Unit price")).fill(str(price))
    box.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Line item added")


def score_all(page: Page, points: int) -> None:
    form = page.locator("form", has=page.get_by_role("button", name="Save scores"))
    selects = form.locator("select")
    assert selects.count() >= 10
    for select in selects.all():
        select.select_option(str(points))
    # A mark that differs from an automatic score (pitfall flags, compliance) needs
    # a note saying why.
    for note in form.locator("input[name^=note_]").all():
        note.fill("Checked against the proposal")
    form.get_by_role("button", name="Save scores").click()
    expect(page.get_by_role("status")).to_contain_text("Scores saved")


def test_buyer_compares_three_bids_reweights_and_exports(
    page_en: Page, org, it_lead, buyer, catalog, shots, tmp_path
):
    import openpyxl

    from sizing.services import plan_summary

    page = page_en
    procurement = sized_procurement(org, it_lead)
    plan = plan_summary(procurement=procurement)
    servers = -(-plan.gpu_count // 8)
    common = {
        "Accelerator": plan.accelerator,
        "GPU count": plan.gpu_count,
        "Nodes": servers,
        "Server model": "8-GPU HGX server",
        "Cooling": "Air",
        "Warranty (years)": 3,
    }

    log_in(page, buyer.username)

    # Three vendors, from the vendor register.
    for name, kind, region in VENDORS:
        page.locator("header").get_by_role("link", name="Vendors").click()
        field(page, "Name").fill(name)
        field(page, "Kind").select_option(label=kind)
        field(page, "Region").fill(region)
        page.get_by_role("button", name="Add vendor").click()
        expect(page.get_by_role("status")).to_contain_text("Vendor added")
    page.locator("header").get_by_role("link", name="Vendors").click()
    for name, _kind, _region in VENDORS:
        expect(page.get_by_role("link", name=name)).to_be_visible()
    shots(page, "three vendors")

    page.locator("header").get_by_role("link", name="Procurements").click()
    page.get_by_role("link", name="LLM cluster 2027").click()
    open_tab(page, "Vendors & bids")

    # 1. A balanced bid; its line items come from an XLSX upload.
    add_bid(
        page,
        VENDORS[0][0],
        {
            **common,
            "Network fabric": "InfiniBand NDR",
            "Network per GPU (Gb/s)": plan.network_gbps_per_gpu or 400,
            "Storage capacity (TB)": plan.storage_tb or 500,
            "Storage read (GB/s)": plan.storage_read_gbs or 64,
            "Storage write (GB/s)": plan.storage_write_gbs or 20,
            "Scheduler": "Slurm",
            "Frameworks supported": "PyTorch, Megatron-LM, vLLM",
            "Phone": True,
            "WeChat": True,
            "Ticket system": True,
            "Response, severity 1 (h)": 0.5,
            "Response, severity 2 (h)": 4,
            "Delivery (weeks)": 10,
            "Proposal text": BALANCED_PROPOSAL,
        },
    )
    xlsx = tmp_path / "balanced-line-items.xlsx"
    line_items_xlsx(xlsx, servers)
    importer = page.locator("details", has_text="Import line items")
    importer.locator("summary").click()
    importer.locator("input[type=file]").set_input_files(xlsx)
    importer.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status")).to_contain_text("8 line items imported")
    expect(
        page.get_by_role("cell", name="Parallel file system", exact=True)
    ).to_be_visible()
    score_all(page, 5)
    shots(page, "balanced bid imported and scored")

    # 2. A GPU-only quote: servers and nothing else.
    open_tab(page, "Vendors & bids")
    add_bid(
        page,
        VENDORS[1][0],
        {**common, "Scheduler": "Slurm", "Phone": True, "Delivery (weeks)": 6},
    )
    add_line_item(page, "GPU servers", "8-GPU server", servers, 1_300_000)
    score_all(page, 1)
    pitfalls = page.locator("section.card", has_text="Pitfall flags")
    expect(pitfalls).to_contain_text("GPU-only quote")
    expect(pitfalls.locator('[data-code="gpu_only"]').first).to_be_visible()
    shots(page, "gpu-only bid")

    # 3. A template proposal with a proprietary scheduler, cheapest of the complete.
    open_tab(page, "Vendors & bids")
    add_bid(
        page,
        VENDORS[2][0],
        {
            **common,
            "Network fabric": "RoCE",
            "Network per GPU (Gb/s)": 200,
            "Storage capacity (TB)": plan.storage_tb or 500,
            "Scheduler": "Proprietary",
            "Frameworks supported": "PromiseAI Studio",
            "Phone": True,
            "Email": True,
            "Delivery (weeks)": 4,
            "Proposal text": TEMPLATE_PROPOSAL,
        },
    )
    add_line_item(page, "GPU servers", "8-GPU server", servers, 1_500_000)
    add_line_item(page, "Network", "RoCE switches", 1, 900_000)
    add_line_item(page, "Storage", "Storage array", 1, 600_000)
    score_all(page, 2)
    shots(page, "template bid")

    open_tab(page, "Vendors & bids")
    bids = page.locator("table.table tbody tr")
    expect(bids).to_have_count(3)
    expect(page.get_by_text("3–5 shortlisted")).to_be_visible()
    shots(page, "bids tab")

    # The comparison: pitfall flags and the ranking.
    open_tab(page, "Comparison")
    expect(page.get_by_role("heading", name="Side-by-side comparison")).to_be_visible()
    labels = page.locator("table.comparison thead th a").all_inner_texts()
    assert labels == [name for name, _kind, _region in VENDORS]
    flags = row_cells(page, "Pitfall flags")
    expect(flags.nth(0)).to_have_text(re.compile(r"^0"))
    expect(flags.nth(1)).to_contain_text("GPU-only quote")
    expect(flags.nth(2)).to_contain_text("Closed ecosystem")
    before = ranking(page)
    assert before[0] == VENDORS[0][0], before
    shots(page, "comparison")

    # Price outweighs everything else: the cheaper complete bid moves up.
    weights = page.locator("form", has=page.get_by_role("button", name="Recompute"))
    weights.get_by_label(re.compile(r"^Price")).fill("1000")
    weights.get_by_role("button", name="Recompute ranking").click()
    expect(row_cells(page, "Rank")).not_to_have_text(
        [str(i + 1) for i in (before.index(name) for name, *_ in VENDORS)]
    )
    after = ranking(page)
    assert after != before and after[0] != before[0], (before, after)
    shots(page, "comparison reweighted")

    # Export: a workbook holding every vendor.
    download = click_to_download(page, page.get_by_role("link", name="Export XLSX"))
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    assert path.suffix == ".xlsx"
    book = openpyxl.load_workbook(path, read_only=True)
    cells = " ".join(
        str(value)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    )
    for name, _kind, _region in VENDORS:
        assert name in cells
    assert not page.js_errors


# ------------------------------------------------------- journey 3: TCO and PDF

PDFTOTEXT = "/usr/bin/pdftotext"
PROGRESS_STATE = """() => {
  const bar = document.querySelector("[role=progressbar]");
  return [!!document.querySelector("#result-total"),
          bar ? Number(bar.getAttribute("aria-valuenow")) : null];
}"""


def pdf_text(path) -> str:
    import subprocess

    if not os.path.exists(PDFTOTEXT):
        missing_service(f"{PDFTOTEXT} is missing (apt-get install poppler-utils)")
    return subprocess.run(
        [PDFTOTEXT, "-layout", str(path), "-"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


def amount(text: str) -> str:
    """The first number in ``text``, as printed (digits, separators, decimals)."""
    match = re.search(r"-?\d[\d,]*(?:\.\d+)?", text)
    assert match, f"no number in {text!r}"
    return match.group(0)


@pytest.mark.services
def test_manager_runs_the_full_tco_analysis_and_downloads_the_pdf(
    page_en: Page, org, it_lead, manager, catalog, celery_worker, shots, tmp_path
):
    page = page_en
    sized_procurement(org, it_lead)

    log_in(page, manager.username)
    page.get_by_role("link", name="LLM cluster 2027").click()
    open_tab(page, "TCO")
    expect(page.get_by_role("heading", name="Sizing plan")).to_be_visible()
    field(page, "Scenario name").fill("Baseline, 5 years")
    expect(page.locator("#tco-preview")).not_to_contain_text("Type to see")
    shots(page, "tco scenario with live estimate")

    page.get_by_role("button", name="Run full analysis").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"TCO run #\d+"))
    ).to_be_visible()

    # Watch the progress bar until the page turns into the results (htmx polls the
    # bar every second and reloads the page when the run is finished).
    seen: list[int] = []
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"run not done; progress seen {seen}"
        try:
            done, value = page.evaluate(PROGRESS_STATE)
        except PlaywrightError:  # the page reloaded under us
            continue
        if done:
            break
        if value is not None and (not seen or value != seen[-1]):
            seen.append(value)
            if len(seen) == 1:
                shots(page, "tco run in progress")
        page.wait_for_timeout(150)
    total = page.locator("#result-total")
    assert seen, "the progress bar was never shown"
    assert seen == sorted(seen), f"progress went backwards: {seen}"
    assert "Failed" not in page.locator("main").inner_text()
    expect(page.get_by_role("link", name="Download PDF")).to_be_visible()
    shots(page, "tco results")

    shown = {
        "total": amount(total.inner_text()),
        "npv": amount(
            page.locator(".card", has_text="Net present value")
            .locator("strong")
            .inner_text()
        ),
        "capex": amount(
            page.locator(".card", has_text="Capital expenditure")
            .locator("strong")
            .inner_text()
        ),
    }
    download = click_to_download(page, page.get_by_role("link", name="Download PDF"))
    pdf = tmp_path / download.suggested_filename
    download.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    text = pdf_text(pdf)
    (ARTIFACTS / "tco-report.txt").write_text(text, encoding="utf-8")
    missing = {k: v for k, v in shown.items() if v not in text}
    assert not missing, f"totals on the page but not in the PDF: {missing}"
    assert not page.js_errors


# ------------------------------------------------- journey 4: Chinese and English

# Visible UI text of a page, without what is not UI copy: code samples, the language
# switch (each language names itself) and hidden elements; plus the text of
# placeholders, tooltips and accessible names, which are UI copy too.
VISIBLE_UI_TEXT = """() => {
  const skip = "script, style, noscript, code, kbd, pre, [translate=no]";
  const out = [];
  const foreign = el => {
    const host = el.closest("[lang]");
    return host && host !== document.documentElement
      && !host.lang.toLowerCase().startsWith(document.documentElement.lang.slice(0, 2));
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || foreign(el)) continue;
    const shown = el.tagName === "OPTION"
      ? el.closest("select").checkVisibility()
      : el.checkVisibility({visibilityProperty: true});
    if (shown && node.textContent.trim()) out.push(node.textContent.trim());
  }
  for (const el of document.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
    if (el.closest(skip) || foreign(el)) continue;
    for (const a of ["placeholder", "title", "aria-label", "alt"]) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  out.push(document.title);
  return out.join("\\n");
}"""
# Names that stay as they are in Chinese text (brand).
NOT_TRANSLATED = {"ClusterBuy"}
# Units shown as such in both languages (the delivered-capability rows).
UNITS = ["tokens/s", "tok/s"]
# Reported defects, (page, msgid) -> what is wrong where; found again, they make the
# journey xfail, anything else fails it. Remove an entry when its defect is fixed.
_AUDIT = (
    "vendors/services.py (~l. 1109) stores _('line items replaced') in the bid's audit "
    "entry at write time and templates/vendors/bid_detail.html shows the stored text: "
    "untranslated msgid today, and frozen in the writer's language once translated"
)
KNOWN_UNTRANSLATED = {
    ("bid", "line items replaced"): _AUDIT,
    ("bid", "line items"): _AUDIT,
}
ENGLISH = re.compile(r"^(English|英语)$")
LETTER = re.compile(r"[A-Za-z]")
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdfi]|%[sdfi]|\{[^}]*\}")


def catalog_patterns() -> list[tuple[str, re.Pattern]]:
    """msgid -> a pattern finding it verbatim in text (placeholders match anything).

    Only msgids of more than three characters with a letter, and not those the
    translation keeps as they are (PUE, PDF: units, brand and API names).
    """
    import polib

    from tests.conftest import ROOT

    po = polib.pofile(str(ROOT / "locale/zh_Hans/LC_MESSAGES/django.po"))
    patterns = []
    for entry in po:
        if entry.obsolete:
            continue
        for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
            literal = PLACEHOLDER.sub("", msgid)
            if len(literal.strip()) <= 3 or not re.search(r"[A-Za-z]", literal):
                continue
            if msgid in (entry.msgstr, *entry.msgstr_plural.values()):
                continue
            parts = [re.escape(p) for p in PLACEHOLDER.split(msgid)]
            body = r".{1,60}?".join(parts)
            left = r"(?<![A-Za-z0-9_])" if re.match(r"\w", msgid) else ""
            right = r"(?![A-Za-z0-9_])" if re.search(r"\w$", msgid) else ""
            patterns.append((msgid, re.compile(left + body + right)))
    return patterns


def _meaningful(value) -> bool:
    return (
        isinstance(value, str) and len(value.strip()) > 3 and bool(LETTER.search(value))
    )


def _json_strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)
    elif isinstance(value, str):
        yield value


def data_strings(msgids: set[str]) -> tuple[list[str], list[str]]:
    """(data, prose): text that is not UI copy, longest first.

    data: every free-text column of the project's tables (names, descriptions, the
    catalog's models and sources) — what users and reference data brought.
    prose: the engines' English sentences (stored results: bottleneck messages,
    explanations, TCO conventions; the TCO defaults' reasons) — English by design of
    the engines, listed in the human report but not checked against the catalog.
    A value that is itself a msgid is kept: the UI translates it (checklist titles).
    """
    from django.apps import apps
    from django.db import models

    from tco import engine as tco_engine

    data: set[str] = set()
    prose: set[str] = {d.reason for d in tco_engine.DEFAULTS.values()}
    for name in ("REASONS_ZH", "SOURCES_ZH", "CONVENTIONS", "CONVENTIONS_ZH"):
        table = getattr(tco_engine, name, {})
        prose.update(table.values() if isinstance(table, dict) else table)
    for config in apps.get_app_configs():
        if config.label not in {"clusterbuy", "sizing", "tco", "vendors", "auth"}:
            continue
        for model in config.get_models():
            fields = model._meta.concrete_fields
            texts = [
                f.name
                for f in fields
                if isinstance(f, models.CharField | models.TextField) and not f.choices
            ]
            jsons = [f.name for f in fields if isinstance(f, models.JSONField)]
            if texts:
                for row in model.objects.values_list(*texts):
                    data.update(v.strip() for v in row if _meaningful(v))
            if jsons:
                for row in model.objects.values_list(*jsons):
                    prose.update(
                        v.strip() for v in _json_strings(list(row)) if " " in v.strip()
                    )
    by_length = {"key": len, "reverse": True}
    return (
        sorted(data - msgids, **by_length),
        sorted({p for p in prose if _meaningful(p)} - msgids - data, **by_length),
    )


def _strip(text: str, values: list[str]) -> str:
    """``text`` without ``values`` (longest first), each only as whole words."""
    if not values:
        return text
    key = tuple(values)
    if key not in _STRIPPERS:
        alternatives = []
        for value in values:
            left = r"(?<![A-Za-z0-9_])" if re.match(r"\w", value) else ""
            right = r"(?![A-Za-z0-9_])" if re.search(r"\w$", value) else ""
            alternatives.append(left + re.escape(value) + right)
        _STRIPPERS[key] = re.compile("|".join(alternatives))
    return _STRIPPERS[key].sub(" ", text)


_STRIPPERS: dict[tuple, re.Pattern] = {}


def untranslated_on(page: Page, patterns, *skip: list[str]) -> dict[str, str]:
    """msgid -> where it stands on the page (40 characters around it)."""
    text = page.evaluate(VISIBLE_UI_TEXT)
    for values in skip:
        text = _strip(text, values)
    found = {}
    for msgid, pattern in patterns:
        if msgid in NOT_TRANSLATED:
            continue
        if m := pattern.search(text):
            context = text[max(0, m.start() - 40) : m.end() + 40]
            found[msgid] = " ".join(context.split())
    return found


def latin_runs(page: Page, data: list[str]) -> list[str]:
    """Runs of Latin words left on a Chinese page: a report for a human reader."""
    text = _strip(page.evaluate(VISIBLE_UI_TEXT), data)
    return re.findall(r"[A-Za-z][A-Za-z_'’-]+(?: [A-Za-z][A-Za-z_'’-]+)*", text)


@pytest.fixture
def demo(base_url, monkeypatch):
    """The demo organisation; its TCO report PDF is a stub (journey 3 renders one)."""
    from django.core.management import call_command

    monkeypatch.setattr(
        "tco.report.build_tco_report", lambda **kwargs: b"%PDF-1.4 stub\n%%EOF\n"
    )
    call_command("load_catalog", verbosity=0)
    call_command("load_demo", verbosity=0)
    return Procurement.objects.get(name__contains="LLM cluster 2027")


def key_pages(procurement) -> list[tuple[str, str]]:
    from tco.models import TcoRun
    from vendors.models import Bid

    pk = procurement.pk
    bid = Bid.objects.filter(procurement=procurement).order_by("pk").first()
    run = TcoRun.objects.filter(scenario__procurement=procurement).order_by("-pk")
    pages = [
        ("procurements", "/procurements/"),
        ("overview", f"/procurements/{pk}/"),
        ("requirements", f"/procurements/{pk}/requirements/"),
        ("sizing", f"/procurements/{pk}/sizing/"),
        ("bids", f"/procurements/{pk}/bids/"),
        ("comparison", f"/procurements/{pk}/comparison/"),
        ("tco", f"/procurements/{pk}/tco/"),
        ("vendors", "/vendors/"),
        ("reports", "/reports/"),
        ("catalog", "/catalog/"),
        ("quick", "/quick/"),
    ]
    if bid is not None:
        pages.insert(5, ("bid", f"/procurements/{pk}/bids/{bid.pk}/"))
    if run.exists():
        pages.insert(-4, ("tco-run", f"/procurements/{pk}/tco/runs/{run.first().pk}/"))
    return pages


def test_key_pages_in_chinese_and_english_have_no_untranslated_strings(
    page_en: Page, demo, shots
):
    page = page_en
    patterns = catalog_patterns()
    pages = key_pages(demo)
    data, prose = data_strings({msgid for msgid, _ in patterns})

    page.goto("/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    shots(page, "en login")
    page.locator("header").get_by_role("button", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    findings = {"login": untranslated_on(page, patterns, prose, data)}
    unfolded = {}
    latin = {"login": latin_runs(page, data)}
    shots(page, "zh login")
    log_in_demo(page, "demo-admin", submit="登录")

    for name, url in pages:
        response = page.goto(url)
        assert response.status == 200, f"{url}: {response.status}"
        expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
        findings[name] = untranslated_on(page, patterns, prose, data, UNITS)
        shots(page, f"zh {name}")
        # Then everything a reader can unfold, for the human-readable report.
        page.evaluate(
            "() => document.querySelectorAll('main details')"
            ".forEach(d => { d.open = true; })"
        )
        unfolded[name] = untranslated_on(page, patterns, prose, data, UNITS)
        latin[name] = latin_runs(page, data)

    # Django names the other language in the page's language: "英语" on Chinese pages.
    page.locator("header").get_by_role("button", name=ENGLISH).click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    for name, url in pages:
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("header")).to_contain_text("Log out")
        shots(page, f"en {name}")

    write_i18n_report(findings, unfolded, latin)
    assert not page.js_errors
    leftovers = {
        (name, msgid): where
        for name, found in findings.items()
        for msgid, where in found.items()
    }
    unknown = {k: v for k, v in leftovers.items() if k not in KNOWN_UNTRANSLATED}
    assert not unknown, f"English UI labels on Chinese pages: {unknown}"
    if leftovers:
        defects = sorted({KNOWN_UNTRANSLATED[k] for k in leftovers})
        pytest.xfail("untranslated labels (reported): " + " | ".join(defects))


def write_i18n_report(findings, unfolded, latin) -> None:
    lines = ["# msgids in the visible UI text of the zh-hans pages (details closed)"]
    for name, found in findings.items():
        lines += [f"{name}: {msgid!r} in …{where}…" for msgid, where in found.items()]
    lines.append("\n# more once every <details> is unfolded")
    for name, found in unfolded.items():
        extra = {k: v for k, v in found.items() if k not in findings.get(name, {})}
        lines += [f"{name}: {msgid!r} in …{where}…" for msgid, where in extra.items()]
    lines.append("\n# Latin-script runs left on the zh-hans pages (for a human reader)")
    lines += [f"{name}: {sorted(set(runs))}" for name, runs in latin.items()]
    (ARTIFACTS / "i18n-zh-report.txt").write_text("\n".join(lines), encoding="utf-8")


def log_in_demo(page: Page, username: str, *, submit: str) -> None:
    from clusterbuy.demo import DEMO_PASSWORD

    page.goto("/login/")
    page.get_by_label(re.compile(r"^(Username|用户名)")).fill(username)
    page.get_by_label(re.compile(r"^(Password|密码)")).fill(DEMO_PASSWORD)
    page.locator("main").get_by_role("button", name=submit).click()
    expect(page).not_to_have_url(re.compile(r"/login/"))
