"""Real-browser fixtures: one headless Debian Chromium per module, a context per journey.

The server is pytest-django's ``live_server`` (a thread on the test database), so the
data a journey sets up must be committed: every browser test runs on
``transactional_db``. Playwright's sync API runs an event loop in the test thread,
which Django's async-safety check would take for async code touching the ORM: the
``browser`` fixture sets DJANGO_ALLOW_ASYNC_UNSAFE while it runs (and only then).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES, ROOT

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 900}
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
        if REQUIRE_SERVICES:
            pytest.fail(f"required service missing: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Only while this module's browser runs: other tests keep Django's check.
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def base_url(live_server, transactional_db, settings) -> str:
    # Logins through the form hash passwords in the server thread: keep them cheap.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return live_server.url


def new_page(browser, base_url: str, language: str = "en"):
    """A fresh context (own cookies) whose browser asks for ``language`` first."""
    context = browser.new_context(
        base_url=base_url,
        locale="zh-CN" if language.startswith("zh") else "en-US",
        extra_http_headers={"Accept-Language": language},
        viewport=VIEWPORT,
        accept_downloads=True,
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.js_errors = []
    return page


@pytest.fixture
def page_en(browser, base_url):
    page = new_page(browser, base_url, "en")
    yield page
    page.context.close()


@pytest.fixture
def page_zh(browser, base_url):
    page = new_page(browser, base_url, "zh-hans")
    yield page
    page.context.close()


STEADY_AT_TOP = """() => {
  const top = window.scrollY === 0 && window.innerHeight === HEIGHT;
  window.__steadyFrames = top ? (window.__steadyFrames || 0) + 1 : 0;
  return window.__steadyFrames >= 5;
}""".replace("HEIGHT", str(VIEWPORT["height"]))


class Shots:
    """Full-page screenshots under test-artifacts/<journey>/NN-<step>.png."""

    def __init__(self, journey: str):
        self.dir = ARTIFACTS / journey
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0

    def __call__(self, page, step: str) -> Path:
        self.n += 1
        slug = re.sub(r"[^a-z0-9]+", "-", step.lower()).strip("-")
        path = self.dir / f"{self.n:02d}-{slug}.png"
        # A full-page capture resizes the viewport and Chromium restores the scroll
        # position a few frames later: a click in between lands on the wrong element.
        # Capture from the top and wait until the page is back there, steady.
        page.evaluate("() => { window.scrollTo(0, 0); window.__steadyFrames = 0; }")
        page.screenshot(path=str(path), full_page=True)
        page.wait_for_function(STEADY_AT_TOP, polling="raf", timeout=5_000)
        return path


@pytest.fixture
def shots(request):
    name = request.node.name.removeprefix("test_")
    return Shots(re.sub(r"[^a-z0-9_]+", "-", name.lower()))


@pytest.fixture
def catalog(transactional_db):
    from django.core.management import call_command

    call_command("load_catalog", verbosity=0)
