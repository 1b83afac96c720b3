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
from tests.browser.conftest import ARTIFACTS
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
# Reported defects, (page, msgid) -> what is wrong where; found again, they make the
# journey xfail, anything else fails it. Remove an entry when its defect is fixed.
_WEIGHTS = (
    "vendors/forms.py weights_form_class: the section-weight labels on the "
    "comparison page are the sections' English titles (label=s.title, not translated)"
)
KNOWN_UNTRANSLATED = {
    **{
        ("comparison", title): _WEIGHTS
        for title in (
            "Architecture",
            "Cost transparency",
            "Case studies",
            "Service",
            "Service and O&M",
            "Price",
            "Team",
            "Team fit",
            "The four pitfalls",
        )
    },
    ("catalog", "TDP (W)"): (
        "templates/sizing/catalog.html: the 'TDP (W)' column header is a literal, "
        "not {% translate %}"
    ),
    ("sizing", "GPUs"): (
        "templates/sizing/plan.html Interconnect row: 'GPUs' after the scale-up "
        "domain size is a literal, not translated"
    ),
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

    from tco.engine.inputs import DEFAULTS

    data: set[str] = set()
    prose: set[str] = {d.reason for d in DEFAULTS.values()}
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
    for value in values:  # longest first, so a name inside a description goes too
        text = text.replace(value, " ")
    return text


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
        findings[name] = untranslated_on(page, patterns, prose, data)
        shots(page, f"zh {name}")
        # Then everything a reader can unfold, for the human-readable report.
        page.evaluate(
            "() => document.querySelectorAll('main details')"
            ".forEach(d => { d.open = true; })"
        )
        unfolded[name] = untranslated_on(page, patterns, prose, data)
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
