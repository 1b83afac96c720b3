"""Every page each demo role can reach by links, in zh-Hans and en, desktop and phone.

Issue 13, done when: "a browser test crawls every page reachable by each demo role, in
zh-Hans and en, at 1440 px and 390 px, and fails on: any console error (CSP
included), any page wider than the viewport, any visible text in the other language
outside user data and product names (the .po catalog as the dictionary, as the
journeys do), any raw field key."

One module-scoped crawl (one browser, one context per role and language, the demo data
loaded once) records what it finds; the parametrised tests below each assert one slice
(role x language x check), so a failure names the role, the language, the check and
the pages. Links only (GET): logout, the admin, the API and destructive URLs are
skipped; pages are deduplicated by path pattern (ids folded) and capped. Every
generated document a page links (PDF, DOCX, XLSX: the TCO report, the comparison
export, the RFP pack, the decision memo) is fetched with the role's session and
language, and its text (pdftotext, python-docx, openpyxl) gets the same language and
raw-key checks as a page (issue 20, item 4).
"""

from __future__ import annotations

import re
from collections import defaultdict
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS
from tests.browser.documents import DOCUMENT, LATIN_RUN, document_text, normalised
from tests.browser.test_journeys import (
    NOT_TRANSLATED,
    VISIBLE_UI_TEXT,
    _strip,
    catalog_patterns,
    data_strings,
    log_in_demo,
)

pytestmark = [pytest.mark.browser]

ROLES = ("demo-admin", "demo-it", "demo-buyer", "demo-manager", "demo-viewer")
LANGUAGES = ("zh-hans", "en")
WIDTHS = (1440, 390)
HEIGHT = 900
MAX_PAGES = 60
SKIP = re.compile(
    r"^/(logout|admin|api|i18n|static|media)/"
    r"|/(delete|cancel|copy)/$"
    r"|/attachments/\d+/$"
    r"|\.[a-z0-9]{2,4}$"  # files: report.pdf, export.xlsx, line-item-template.csv
)
# snake_case tokens shown as text: internal field keys (tokens_b, gpu_count).
RAW_KEY = re.compile(r"(?<![\w./:-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-])")
# A run of CJK characters on an English page.
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff01-\uff5e]+")

WIDTH_PROBE = """() => ({
  scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth,
  widest: document.scrollingElement.scrollWidth <= window.innerWidth ? null : (() => {
    const w = window.innerWidth; let worst = null, right = w;
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > right + 0.5 && el.checkVisibility()) {
        right = r.right;
        worst = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string"
             ? "." + el.className.trim().split(/\\s+/).join(".") : "");
      }
    }
    return worst;
  })(),
})"""
LINKS = """() => [...document.querySelectorAll("a[href]:not([download])")]
  .map(a => a.href)"""
DOCUMENT_LANGUAGE = re.compile(r"-(zh-hans|en)\.(?:pdf|docx|xlsx)", re.I)
ALL_LINKS = """() => [...document.querySelectorAll("a[href]")].map(a => a.href)"""
SETTLED = "() => !document.querySelector('.htmx-request')"


def pattern_of(path: str, query: str) -> str:
    keys = sorted({part.split("=")[0] for part in query.split("&") if part})
    folded = re.sub(r"/\d+(?=/|$)", "/{id}", path)
    return folded + ("?" + "&".join(keys) if keys else "")


class Findings:
    def __init__(self):
        self.by = defaultdict(list)  # (role, language, check) -> ["url: what"]
        self.pages = defaultdict(list)  # (role, language) -> urls
        self.documents = defaultdict(list)  # (role, language) -> document paths

    def add(self, role, language, check, url, what) -> None:
        self.by[role, language, check].append(f"{url}: {what}")


# Units that stay as they are in Chinese text; languages named in their own script.
UNITS = ["tokens/s", "tok/s"]
NAMES = ["简体中文", "English"]


def _visible_text(page: Page, *skip: list[str]) -> str:
    text = page.evaluate(VISIBLE_UI_TEXT)
    for values in skip:
        text = _strip(text, values)
    return text


def _catalog_hits(text: str, patterns) -> dict[str, str]:
    """msgid -> where it stands (as the journeys' ``untranslated_on``, on text
    already read)."""
    found = {}
    for msgid, pattern in patterns:
        if msgid not in NOT_TRANSLATED and (m := pattern.search(text)):
            found[msgid] = " ".join(text[max(0, m.start() - 40) : m.end() + 40].split())
    return found


def _strip_all(text: str, *skip: list[str]) -> str:
    for values in skip:
        text = _strip(text, values)
    return text


def _check_page(page, role, language, url, findings, ctx) -> None:
    errors = page.console_errors
    for message in errors:
        findings.add(role, language, "console", url, message[:200])
    errors.clear()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        probe = page.evaluate(WIDTH_PROBE)
        if probe["scroll"] > probe["inner"]:
            findings.add(
                role,
                language,
                "overflow",
                url,
                f"{width}px viewport, page {probe['scroll']}px wide"
                f" (widest: {probe['widest']})",
            )
    page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
    _check_text(_visible_text(page, ctx["data"]), role, language, url, findings, ctx)


def _check_text(text, role, language, url, findings, ctx) -> None:
    """The language and raw-key checks on ``text`` (user data already stripped)."""
    if language.startswith("zh"):
        found = _catalog_hits(_strip(text, UNITS), ctx["patterns"])
        for msgid, where in found.items():
            findings.add(role, language, "language", url, f"{msgid!r} in …{where}…")
    else:
        for run in sorted(set(HAN.findall(_strip_all(text, ctx["han_data"], NAMES)))):
            if re.search(r"[\u3400-\u9fff]", run):
                findings.add(role, language, "language", url, f"Chinese {run!r}")
    keys = {}
    for m in RAW_KEY.finditer(text):
        where = " ".join(text[max(0, m.start() - 30) : m.end() + 30].split())
        keys.setdefault(m.group(), where)
    for key, where in sorted(keys.items()):
        findings.add(role, language, "raw_key", url, f"{key} in …{where}…")


def _check_documents(page, role, language, findings, ctx, seen) -> None:
    """Every not yet seen document the page links, fetched as the role in its
    language, its text checked like a page's; a document that does not open (not
    200, or text that cannot be read) is a finding."""
    origin = urlsplit(page.url)
    for href in page.evaluate(ALL_LINKS):
        link = urlsplit(href)
        if (link.scheme, link.netloc) != (origin.scheme, origin.netloc):
            continue
        key = pattern_of(link.path, link.query)
        if not DOCUMENT.search(link.path) or key in seen:
            continue
        seen.add(key)
        response = page.request.get(href)
        if response.status != 200:
            findings.add(role, language, "console", href, f"answered {response.status}")
            continue
        try:
            text = document_text(link.path, response.body())
        except Exception as exc:  # noqa: BLE001 - any unreadable document is a finding
            findings.add(role, language, "console", href, f"unreadable: {exc!r}")
            continue
        findings.documents[role, language].append(link.path)
        # A stored document keeps the language it was made in (a TCO run's PDF is in
        # the run's language, named tco-<id>-<lang>.pdf): check it in that one.
        named = DOCUMENT_LANGUAGE.search(
            response.headers.get("content-disposition", "")
        )
        in_language = named.group(1) if named else language
        # A page marks a citation's Latin names lang="en"; a document's text has no
        # such marks, so the names of the cited sources are taken out as data.
        # Whole quoted code and sources first: a name inside one (H100) would cut it.
        text = ctx["code_in_documents"].sub(" ", text)
        text = _strip_all(text, ctx["document_data"], ctx["citations"])
        _check_text(text, role, in_language, link.path, findings, ctx)


def _crawl(page: Page, role, language, findings, ctx) -> None:
    origin = urlsplit(page.url)
    queue, seen, documents = ["/procurements/"], set(), set()
    while queue and len(findings.pages[role, language]) < MAX_PAGES:
        url = queue.pop(0)
        parts = urlsplit(url)
        key = pattern_of(parts.path, parts.query)
        if key in seen or SKIP.search(parts.path):
            continue
        seen.add(key)
        response = page.goto(url, wait_until="load")
        if response is None or response.status >= 400:
            status = response.status if response else "no answer"
            findings.add(role, language, "console", url, f"answered {status}")
            page.console_errors.clear()
            continue
        try:
            page.wait_for_function(SETTLED, timeout=5_000)
        except Exception:  # noqa: BLE001 - a page still polling is checked as it is
            pass
        findings.pages[role, language].append(url)
        _check_page(page, role, language, url, findings, ctx)
        _check_documents(page, role, language, findings, ctx, documents)
        for href in page.evaluate(LINKS):
            link = urlsplit(href)
            if (link.scheme, link.netloc) != (origin.scheme, origin.netloc):
                continue
            target = link.path + ("?" + link.query if link.query else "")
            if pattern_of(link.path, link.query) not in seen:
                queue.append(target)


def _context_data() -> dict:
    patterns = catalog_patterns()
    # data: every free-text column, the catalogue's keys and product names included.
    data, prose = data_strings({msgid for msgid, _ in patterns})
    # The capex lines' descriptions a user typed (JSON inputs of the scenarios and
    # runs: "PDU, UPS, cooling") are user data like any text column.
    data = sorted(
        set(data) | _capex_descriptions() | _acceptance_code(), key=len, reverse=True
    )
    han_data = sorted(
        {v for v in data + prose if HAN.search(v)}
        | {v for v in data if re.search(r"[\u3400-\u9fff]", v)},
        key=len,
        reverse=True,
    )
    # Chinese data strings also appear split at their spaces ("上海 Shanghai").
    han_data += sorted(
        {w for v in han_data for w in v.split() if HAN.search(w)}, key=len, reverse=True
    )
    return {
        "patterns": patterns,
        "data": data,
        "han_data": han_data,
        # Documents: user data as its layout may space it, and the cited sources.
        "document_data": sorted({normalised(v) for v in data}, key=len, reverse=True),
        "citations": _citation_names(),
        # A command a document's table wraps ("fio --name=read -- rw=read") is the
        # same code: matched with any spacing.
        # The catalogue's FP64 sources an acceptance clause cites (long, so a
        # table wraps them mid-word) likewise.
        "code_in_documents": _spaced(_acceptance_code() | _fp64_sources()),
    }


def _spaced(codes: set[str]) -> re.Pattern:
    alternatives = [
        r"\s*".join(re.escape(ch) for ch in code if not ch.isspace())
        for code in sorted(codes, key=len, reverse=True)
    ]
    return re.compile("|".join(alternatives) or r"(?!)")


def _citation_names() -> list[str]:
    """The Latin-script names in the TCO defaults' sources ("China Briefing 2024",
    "Epoch AI"), in both languages: proper names a document cites as they are."""
    from tco.engine import DEFAULTS, default_source

    names = {
        m.group().strip()
        for name in DEFAULTS
        for lang in LANGUAGES
        for m in LATIN_RUN.finditer(default_source(name, lang) or "")
    }
    return sorted((n for n in names if len(n) > 1), key=len, reverse=True)


def _acceptance_code() -> set[str]:
    """The acceptance clauses' commands as code (``all_reduce_perf -b 1G ...``) and
    the tools' names in them (``ib_write_bw``): a command is quoted as it is run, in
    every language; its words (``shown_command(...).note``) are checked like any
    text."""
    from clusterbuy.models import Procurement
    from vendors.services.acceptance import preview_clauses
    from vendors.services.acceptance_texts import shown_command

    found = set()
    for procurement in Procurement.objects.all():
        for clause in preview_clauses(procurement=procurement):
            code = shown_command(clause.get("command", "")).code
            if code:
                found.add(code)
                found |= set(RAW_KEY.findall(code))
    return found


def _fp64_sources() -> set[str]:
    from sizing.models import Accelerator

    return set(
        Accelerator.objects.exclude(fp64_source="").values_list(
            "fp64_source", flat=True
        )
    )


def _capex_descriptions() -> set[str]:
    from tco.models import TcoRun, TcoScenario

    found = set()
    for model in (TcoScenario, TcoRun):
        for inputs in model.objects.values_list("inputs", flat=True):
            for line in (inputs or {}).get("capex") or []:
                if isinstance(line, dict) and str(line.get("description", "")).strip():
                    found.add(str(line["description"]).strip())
    return found


@pytest.fixture(scope="module")
def crawl(browser, live_server, django_db_setup, django_db_blocker):
    """Crawl once for the module; the demo data is committed, then flushed."""
    from django.core.management import call_command
    from django.test import override_settings

    from tests.browser.conftest import new_page

    findings = Findings()
    with (
        django_db_blocker.unblock(),
        override_settings(
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
        ),
    ):
        try:
            call_command("load_catalog", verbosity=0)
            call_command("load_demo", verbosity=0)
            ctx = _context_data()
            for role in ROLES:
                for language in LANGUAGES:
                    page = _open(browser, live_server.url, language, new_page)
                    submit = "登录" if language.startswith("zh") else "Log in"
                    log_in_demo(page, role, submit=submit)
                    _crawl(page, role, language, findings, ctx)
                    page.context.close()
            _write_report(findings)
            yield findings
        finally:
            call_command("flush", interactive=False, verbosity=0)


def _write_report(findings: Findings) -> None:
    """test-artifacts/crawl-report.txt: the pages each role reached, and findings."""
    lines = []
    for (role, language), urls in findings.pages.items():
        lines.append(f"# {role} {language}: {len(urls)} pages")
        lines += [f"  {url}" for url in urls]
        lines += [f"  document {path}" for path in findings.documents[role, language]]
    for (role, language, check), found in sorted(findings.by.items()):
        lines.append(f"# {check} — {role} {language}")
        lines += [f"  {f}" for f in found]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "crawl-report.txt").write_text("\n".join(lines), encoding="utf-8")


def _open(browser, url, language, new_page) -> Page:
    page = new_page(browser, url, language)
    page.console_errors = []
    page.on(
        "console",
        lambda m: m.type == "error" and page.console_errors.append(m.text),
    )
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
    return page


# Defects the crawl finds that are reported but not fixed yet: (check, pattern of the
# finding, what is wrong where). A finding matching one makes its test xfail; anything
# else fails it. Empty: the crawl is strict. Add an entry only with its issue.
KNOWN: list[tuple[str, re.Pattern, str]] = []


CHECKS = ("console", "overflow", "language", "raw_key")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ROLES)
def test_crawled_pages(crawl, role, language):
    """One test per role and language (each costs a database flush); its message
    lists the findings by check."""
    pages = crawl.pages[role, language]
    assert len(pages) >= 5, f"{role} reached only {pages}"
    unknown, known = {}, set()
    for check in CHECKS:
        for finding in crawl.by[role, language, check]:
            reasons = [r for k, p, r in KNOWN if k == check and p.search(finding)]
            if reasons:
                known.update(reasons)
            else:
                unknown.setdefault(check, []).append(finding)
    assert not unknown, "\n".join(
        f"{check} ({len(found)}):\n  " + "\n  ".join(found)
        for check, found in unknown.items()
    )
    if known:
        pytest.xfail("known defects (reported): " + " | ".join(sorted(known)))


def test_the_crawl_reads_the_generated_documents(crawl):
    """The document check read each kind of document some role can reach."""
    paths = [p for found in crawl.documents.values() for p in found]
    kinds = {p.rsplit(".", 1)[-1] for p in paths}
    assert kinds >= {"pdf", "xlsx", "docx"}, paths
    assert any(p.endswith("/report.pdf") for p in paths), paths  # the TCO report
