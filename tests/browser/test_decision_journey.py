"""One connected decision in a real browser, in Chinese and in English (issue 12).

Done when: "A browser journey: questionnaire prefilled, bids compared by delivered
capability, TCO started from the chosen bid, decision recorded and its memo
downloaded; zh and en."

The IT lead opens the questionnaire of a procurement that already states its budget,
horizon, site, region and team: those facts are shown from the procurement, not asked
again, and the plan is computed from them (no precision chosen: BF16, said why). Two
bids are then on file (set up through services: the journey does not need to type
them): one sized like the plan, one with a quarter of its GPUs and a wrong spec claim.
The manager compares them by what they deliver (training days, serving capacity, the
``compute`` compliance item: the under-powered bid fails it with both figures), by
their spec claims, under a "rank is provisional" notice (nobody scored yet); starts a
TCO scenario from the chosen bid (prefilled with its capex and GPU count; the derived
capex follows the GPU count), runs it (the total reproduces the bid's normalised TCO
to the unit), records the decision and downloads the memo PDF in the page's language.

Every page is checked for its language against the .po catalogue (no English UI label
on a Chinese page, no Chinese on an English one, data and engine prose excepted) and
for console errors (CSP violations are console errors in Chromium). A failing step
leaves a screenshot in test-artifacts/decision-journey-<lang>/failure.png.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, new_page
from tests.browser.test_journeys import (
    VISIBLE_UI_TEXT,
    _strip,
    catalog_patterns,
    data_strings,
    log_in,
    open_tab,
    pdf_text,
    row_cells,
    untranslated_on,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROCUREMENT = "Decision journey cluster"
TRAINING_NAME = "70B continued pre-training"
INFERENCE_NAME = "72B chat service"
BALANCED = "Balanced Compute Co."
UNDERPOWERED = "Quarter Cluster Ltd"
#: Unit price of the balanced bid's 8-GPU server, CNY (the demo's figure).
SERVER_PRICE_CNY = 2_100_000
RATIONALE = {
    "en": "Delivers the plan's training time at the lowest reconciled TCO.",
    "zh-hans": "按方案的训练时间交付，且核算后的总拥有成本最低。",
}
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
#: Units the Chinese UI keeps in Latin script, as it keeps GB and kW.
UNITS = ["tokens/s"]
#: What each vendor wrote (data, not UI copy): each addresses this procurement's
#: workloads, model scale, data volume and site, and they differ, so no text detector
#: has a reason to flag them.
PROPOSALS = {
    BALANCED: (
        "For the continued pre-training of your 70B model and the 72B inference "
        "service on premises in Shanghai, with about 2 TB of training data growing "
        "30 % a year, we sized a balanced cluster: one 400 Gb/s InfiniBand NIC per "
        "GPU in a non-blocking fat tree, a parallel file system for checkpoint "
        "writes, Slurm for training and Kubernetes for inference."
    ),
    UNDERPOWERED: (
        "Our offer covers on-premises deployment at your Shanghai site: a compact "
        "cluster to start continued pre-training of the 70B model on the 2 TB "
        "corpus and to host the 72B model for inference, expandable later; "
        "InfiniBand networking, shared storage, Slurm and Kubernetes included. "
        # A spec claim the datasheet contradicts (H200: 141 GB of HBM3e).
        "Each H200 GPU carries 96 GB of HBM3e memory."
    ),
}


def t(language: str, msgid: str, **values) -> str:
    """``msgid`` as the app shows it in ``language`` (the same .po catalogue)."""
    from django.utils import translation

    with translation.override(language):
        text = translation.gettext(msgid)
    return text % values if values else text


def number(text: str) -> float:
    match = re.search(r"-?\d[\d,]*(?:\.\d+)?", text)
    assert match, f"no number in {text!r}"
    return float(match.group(0).replace(",", ""))


# ----------------------------------------------------------------------- the data


def procurement_with_workloads(organisation, it_lead):
    """The procurement states budget, horizon, site, region and the team's scheduler
    experience; the requirement holds only the questionnaire's own answers."""
    from clusterbuy import services as core
    from sizing import services as sizing
    from sizing.demo import INFERENCE, TRAINING

    procurement = core.create_procurement(
        organisation=organisation,
        user=it_lead,
        name=PROCUREMENT,
        currency="CNY",
        budget_min=Decimal("20000000"),
        budget_max=Decimal("60000000"),
        horizon_years=5,
        deployment_site="on_prem",
        city="Shanghai",
        region="cn",
        data_sensitivity="medical_imaging",
        ops_staff_count=3,
        slurm_experience=True,
        kubernetes_experience=True,
    )
    sizing.save_requirement(
        procurement=procurement,
        user=it_lead,
        scenario="mixed",
        data_tb=2.0,
        growth_per_year=30.0,
        rack_power_limit_kw=40.0,
    )
    # No precision chosen: the engine's defaults (BF16 training; the weights'
    # published precision, BF16 for Qwen2.5-72B, when serving).
    for values, name in ((TRAINING, TRAINING_NAME), (INFERENCE, INFERENCE_NAME)):
        sizing.create_workload(
            procurement=procurement, **{**values, "name": name, "precision": ""}
        )
    return procurement


def two_bids(procurement, buyer) -> dict:
    """A bid sized like the plan (with the balanced demo bid's terms and lines) and
    one with a quarter of the plan's GPUs; returns name -> (bid, servers)."""
    from vendors.demo import BID_TERMS, OTHER_LINES, _line
    from vendors.services import bids, suppliers
    from vendors.services.plan_facts import plan_summary

    plan = plan_summary(procurement=procurement)
    gpus = int(plan.gpu_count)
    quarter = max(8, (gpus // 4) // 8 * 8)
    made = {}
    for name, count in ((BALANCED, gpus), (UNDERPOWERED, quarter)):
        vendor = suppliers.create_vendor(
            organisation=procurement.organisation,
            name=name,
            kind="integrator",
            region="Shanghai",
        )
        servers = -(-count // 8)
        bid = bids.create_bid(
            procurement=procurement,
            vendor=vendor,
            user=buyer,
            **{
                **BID_TERMS["balanced"],
                "proposal_text": PROPOSALS[name],
                "accelerator": plan.accelerator,
                "gpu_count": count,
                "nodes": servers,
                "scaleup_domain_gpus": plan.scaleup_domain_gpus or 8,
                "cooling": "air",
                "peak_power_kw": plan.it_power_kw,
                "network_gbps_per_gpu": plan.network_gbps_per_gpu or 400,
                "storage_tb": plan.storage_tb or 500,
                "storage_read_gbs": plan.storage_read_gbs or 64,
                "storage_write_gbs": plan.storage_write_gbs or 20,
            },
            line_items=[
                _line("gpu_servers", "8-GPU HGX server", servers, SERVER_PRICE_CNY),
                *(_line(*values) for values in OTHER_LINES["balanced"]),
            ],
        )
        made[name] = (bid, servers)
    return made


# ------------------------------------------------------------------ the checking


class Watch:
    """Console errors, the language of every page, and a screenshot per step."""

    def __init__(self, page: Page, language: str, journey: str):
        self.page, self.language = page, language
        self.dir = ARTIFACTS / journey
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0
        self.console: list[str] = []
        self.language_findings: dict[str, object] = {}
        self.patterns = catalog_patterns() if language.startswith("zh") else []
        assert not language.startswith("zh") or len(self.patterns) > 500
        page.on("console", self._console)
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => "
            "console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));"
        )

    def _console(self, message) -> None:
        if message.type not in ("error", "assert"):
            return
        where = message.location.get("url") or self.page.url
        if where.endswith("/favicon.ico"):  # the browser's own guess, not the page's
            return
        self.console.append(f"{message.text} [{where}]")

    def step(self, name: str) -> None:
        """The page of step ``name``: in the journey's language, screenshotted."""
        page = self.page
        expect(page.locator("html")).to_have_attribute("lang", self.language)
        msgids = {msgid for msgid, _ in self.patterns}
        data, prose = data_strings(msgids)
        if self.patterns:
            found = untranslated_on(page, self.patterns, prose, data, UNITS)
        else:
            text = _strip(page.evaluate(VISIBLE_UI_TEXT), data + prose)
            found = sorted(set(CJK.findall(text)))
        if found:
            self.language_findings[name] = found
        self.n += 1
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        page.screenshot(path=str(self.dir / f"{self.n:02d}-{slug}.png"), full_page=True)

    def failure(self) -> None:
        try:
            self.page.screenshot(path=str(self.dir / "failure.png"), full_page=True)
        except Exception:  # noqa: BLE001 - the page may be gone; the error stands
            pass

    def assert_clean(self) -> None:
        assert not self.page.js_errors, self.page.js_errors
        assert not self.console, f"console errors: {self.console}"
        assert not self.language_findings, (
            f"{self.language} pages show text of the other language: "
            f"{self.language_findings}"
        )


# ------------------------------------------------------------------- the journey


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_decision_journey_from_questionnaire_to_memo(
    browser, base_url, language, org, it_lead, buyer, manager, catalog, tmp_path
):
    procurement = procurement_with_workloads(org, it_lead)
    page = new_page(browser, base_url, language)
    watch = Watch(page, language, f"decision-journey-{language}")
    try:
        journey(page, watch, language, procurement, buyer, it_lead, manager, tmp_path)
    except BaseException:
        watch.failure()
        raise
    finally:
        page.context.close()


def journey(page, watch, language, procurement, buyer, it_lead, manager, tmp_path):
    def _(msgid: str, **values) -> str:
        return t(language, msgid, **values)

    # 1. The IT lead: the questionnaire shows the procurement's facts, not inputs.
    log_in(page, it_lead.username, submit=_("Log in"))
    # The list's stage filter submits on change (static JS, no inline handler).
    page.get_by_label(_("Stage")).select_option(str(procurement.stage))
    expect(page).to_have_url(re.compile(rf"[?&]stage={procurement.stage}\b"))
    page.get_by_role("link", name=PROCUREMENT).click()
    open_tab(page, _("Requirements"))
    facts = page.locator("#procurement-facts")
    expect(facts.locator("#fact-horizon")).to_have_text(_("%(n)s years", n=5))
    # Grouped as the language groups digits (60,000,000 in English, none in zh-Hans).
    expect(facts.locator("#fact-budget")).to_contain_text(
        re.compile(r"20,?000,?000 – 60,?000,?000")
    )
    expect(facts.locator("#fact-region")).to_contain_text(_("Mainland China"))
    expect(facts.locator("#fact-site")).to_contain_text("Shanghai")
    expect(facts.locator("#fact-scheduler")).to_have_text("Slurm · Kubernetes")
    expect(facts.get_by_role("link", name=_("Edit the procurement"))).to_be_visible()
    # Shown, not asked again: no control of the questionnaire holds these facts.
    expect(facts.locator("input, select, textarea")).to_have_count(0)
    form = page.locator("#requirement-form")
    for name in (
        "budget",
        "budget_currency",
        "planning_years",
        "region",
        "data_location",
        "scheduler_experience",
    ):
        expect(form.locator(f'[name="{name}"]')).to_have_count(0)
    watch.step("questionnaire prefilled from the procurement")

    page.get_by_role("button", name=_("Save and compute sizing")).click()
    expect(page.locator("nav.tabs a.active")).to_have_text(_("Sizing"))
    expect(page.get_by_role("status")).to_contain_text(
        _("Requirements saved and sizing computed.")
    )
    plan_gpus = int(page.locator("#gpu-count").inner_text())
    assert plan_gpus >= 8
    per_workload = page.locator("table.per-workload tbody tr")
    expect(per_workload.filter(has_text=TRAINING_NAME)).to_contain_text(
        "BF16: " + _("the training default (no precision chosen)")
    )
    expect(per_workload.filter(has_text=INFERENCE_NAME)).to_contain_text(
        "BF16: " + _("the model's published precision (no precision chosen)")
    )
    watch.step("sizing plan")
    page.locator("header").get_by_role("button", name=_("Log out")).click()

    # The bids arrive (typed by the buyer in other journeys).
    made = two_bids(procurement, buyer)
    chosen, servers = made[BALANCED]
    short, _short_servers = made[UNDERPOWERED]
    assert chosen.gpu_count == plan_gpus and short.gpu_count < plan_gpus

    # 2. The manager compares the bids by what they deliver.
    log_in(page, manager.username, submit=_("Log in"))
    page.get_by_role("link", name=PROCUREMENT).click()
    open_tab(page, _("Comparison"))
    expect(
        page.get_by_role("heading", name=_("Side-by-side comparison"))
    ).to_be_visible()
    labels = page.locator("table.comparison thead th a").all_inner_texts()
    assert labels == [BALANCED, UNDERPOWERED], labels

    days = row_cells(
        page, _("Training time: %(workload)s (days)", workload=TRAINING_NAME)
    )
    expect(days).to_have_count(2)
    delivered_days = [number(text) for text in days.all_inner_texts()]
    # A quarter of the GPUs trains for longer (the engine's days at its default MFU).
    assert delivered_days[1] > 2 * delivered_days[0] > 0, delivered_days
    serving = row_cells(
        page, _("Serving capacity: %(workload)s (tokens/s)", workload=INFERENCE_NAME)
    )
    expect(serving).to_have_count(2)
    assert number(serving.nth(0).inner_text()) > 0

    compute = row_cells(page, _("Compute delivered"))
    expect(compute.nth(0)).to_have_class(re.compile(r"\bstatus-pass\b"))
    expect(compute.nth(1)).to_have_class(re.compile(r"\bstatus-fail\b"))
    # Both figures: what the bid delivers and what the plan needs.
    offered, needed = (
        float(x) for x in re.findall(r"\d+(?:\.\d+)?", compute.nth(1).inner_text())[:2]
    )
    assert 0 < offered < needed, (offered, needed)
    expect(compute.nth(1)).to_contain_text(TRAINING_NAME)

    # Spec claims against the datasheet: the second bid's 96 GB H200 is wrong.
    claims = row_cells(page, _("Spec claims"))
    expect(claims.nth(0)).to_have_class(re.compile(r"\bstatus-pass\b"))
    expect(claims.nth(1)).to_have_class(re.compile(r"\bstatus-fail\b"))
    expect(claims.nth(1).locator("li").first).to_contain_text("96")
    expect(claims.nth(1).locator("li").first).to_contain_text("141")

    # No one has scored yet: the page says the rank is provisional, before the rank.
    expect(page.locator(".provisional-notice")).to_contain_text(
        _("Rank is provisional")
    )
    watch.step("comparison by delivered capability")

    # 3. A TCO scenario from the chosen bid: capex and GPU count come with it.
    normalised = row_cells(page, _("Normalised TCO")).nth(0).inner_text()
    page.get_by_role(
        "button", name=_("Start TCO from this bid: %(label)s", label=BALANCED)
    ).click()
    expect(page.locator("nav.tabs a.active")).to_have_text(_("TCO"))
    expect(page.locator("#capex-derivation")).to_contain_text(
        _("Started from bid %(id)s.", id=chosen.pk)
    )
    tco_form = page.locator("#tco-form")
    expect(tco_form.locator('[name="gpu_count"]')).to_have_value(str(plan_gpus))
    servers_row = tco_form.locator("table.capex-rows tbody tr").filter(
        has=page.locator(
            'select[name$="-category"] option[value="gpu_servers"]:checked'
        )
    )
    expect(servers_row).to_have_count(1)
    amount = servers_row.locator('input[name$="-amount"]').input_value()
    assert float(amount) == servers * SERVER_PRICE_CNY, amount
    expect(page.locator("#tco-preview")).not_to_contain_text(
        _("Type to see the deterministic totals.")
    )
    watch.step("tco scenario from the chosen bid")

    # The derived capex follows the GPU count (the live estimate), and comes back.
    capex = page.locator("#tco-preview dl.tco-preview dd").nth(2)
    gpu_count = tco_form.locator('[name="gpu_count"]')
    full_text = capex.inner_text()
    gpu_count.fill(str(plan_gpus // 2))
    expect(capex).not_to_have_text(full_text)
    half_text = capex.inner_text()
    assert abs(number(half_text) - number(full_text) / 2) <= 1, (half_text, full_text)
    gpu_count.fill(str(plan_gpus))
    expect(capex).to_have_text(full_text)

    # Tasks run eagerly in tests: the answer to the click is the finished run.
    with page.expect_navigation(url=re.compile(r"/tco/runs/\d+/"), timeout=300_000):
        page.get_by_role("button", name=_("Run full analysis")).click(
            no_wait_after=True
        )
    expect(page.locator("#result-total")).to_be_visible()
    breakdown = page.locator("#breakdown")
    total = breakdown.locator("tr.group th.num").inner_text()
    # The run reproduces the bid's normalised TCO (same horizon and defaults).
    assert round(number(total)) == round(number(normalised)), (total, normalised)
    watch.step("tco run from the bid")

    # 4. The evaluation closed (the stage follows: 5 Decision), the decision, its memo.
    open_tab(page, _("Comparison"))
    expect(page.locator("#decision-refusal")).to_be_visible()
    open_tab(page, _("Vendors & bids"))
    page.get_by_label(_("Scoring closed")).check()
    page.get_by_role("button", name=_("Save settings")).click()
    watch.step("evaluation closed")
    open_tab(page, _("Comparison"))
    expect(page.locator("#decision-refusal")).to_have_count(0)
    decision = page.locator(
        "form", has=page.get_by_role("button", name=_("Record decision"))
    )
    choice = decision.get_by_label(re.compile("^" + re.escape(_("Chosen bid"))))
    options = choice.locator("option").all_text_contents()
    matching = [o for o in options if BALANCED in o]
    assert len(matching) == 1, options
    choice.select_option(label=matching[0])
    decision.get_by_label(re.compile("^" + re.escape(_("Rationale")))).fill(
        RATIONALE[language]
    )
    decision.get_by_role("button", name=_("Record decision")).click()
    recorded = page.locator("section.card", has_text=_("Chosen"))
    expect(recorded).to_contain_text(BALANCED)
    expect(recorded).to_contain_text(RATIONALE[language])
    memo_link = page.get_by_role("link", name=_("Download the decision memo (PDF)"))
    expect(memo_link).to_be_visible()
    watch.step("decision recorded")

    # A link with the download attribute: the browser fetches it as a download, not
    # as a page response, so the file itself is the check (a PDF, not an error page).
    with page.expect_download(timeout=120_000) as memo:
        memo_link.click()
    download = memo.value
    assert download.failure() is None, download.failure()
    pdf = tmp_path / download.suggested_filename
    download.save_as(pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    text = pdf_text(pdf)
    (watch.dir / "decision-memo.txt").write_text(text, encoding="utf-8")
    flat = " ".join(text.split())
    chosen_line = re.escape(_("Chosen bid")) + r"\s*[:：]\s*" + re.escape(BALANCED)
    assert re.search(chosen_line, flat), flat[:600]
    assert UNDERPOWERED in flat  # the bids side by side
    for msgid in ("Decision memo", "The choice and why", "Rationale", "Sizing plan"):
        assert _(msgid) in flat, f"{_(msgid)!r} not in the {language} memo"
    if language == "en":
        assert not CJK.search(flat), CJK.findall(flat)
    assert RATIONALE[language].replace(" ", "") in "".join(text.split())

    watch.assert_clean()
