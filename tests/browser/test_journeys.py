"""User journeys through the real UI in a real browser (issue 6).

Each journey logs in through the login form and clicks its way through the pages its
persona uses; data the journey does not need to click (users, the hardware catalog,
other people's earlier work) is set up through services and factories.
Screenshots of every step land in test-artifacts/<journey>/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from clusterbuy.models import Procurement, Role
from tests.factories import PASSWORD, OrganisationFactory, member

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


def field(page: Page, label: str):
    """The form control labelled ``label`` (exactly, ignoring the required star)."""
    return page.get_by_label(re.compile(rf"^{re.escape(label)}( \*)?$"))


# --------------------------------------------------------------- journey 1: sizing


@pytest.fixture
def acme(transactional_db):
    return OrganisationFactory(name="Acme AI")


def test_it_lead_sizes_a_cluster_from_the_questionnaire(
    page_en: Page, acme, catalog, shots
):
    page = page_en
    member(acme, Role.IT_LEAD, "ivan-it")

    log_in(page, "ivan-it")
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
    shots(page, "new procurement form")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="LLM training cluster")).to_be_visible()
    procurement = Procurement.objects.get(name="LLM training cluster")
    assert procurement.organisation == acme

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
    field(page, "Where the hardware is bought").select_option(label="Outside China")
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
    expect(per_workload.nth(1)).to_contain_text("tok/s")

    explanation = page.locator("details.explain").first
    explanation.locator("summary").click()
    expect(explanation.locator("table.explain-table")).to_be_visible()
    assert explanation.locator("table.explain-table tbody tr").count() >= 3
    expect(explanation.locator("thead")).to_contain_text("Formula")
    shots(page, "sizing plan with explanation")
    assert not page.js_errors
