"""The Content-Security-Policy forbids inline scripts (``script-src 'self'``): an
inline ``on*=`` handler or a ``<script>`` without ``src`` is silently dead in the
browser (issue 13: the stage filter's ``onchange``). These tests read every template
and the rendered key pages and fail on either."""

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import ROOT

TEMPLATE_ROOTS = [ROOT / "templates"] + [
    path for path in ROOT.glob("*/templates") if ".venv" not in path.parts
]


class _InlineScriptFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        line = self.getpos()[0]
        for name, _value in attrs:
            if name.lower().startswith("on"):
                self.found.append(f"line {line}: <{tag} {name}=...>")
        if tag == "script" and not dict(attrs).get("src"):
            self.found.append(f"line {line}: <script> without src")


def inline_scripts(html: str) -> list[str]:
    finder = _InlineScriptFinder()
    finder.feed(html)
    return finder.found


def test_the_finder_catches_handlers_and_inline_scripts():
    html = (
        '<select name="stage" onchange="this.form.submit()"></select>'
        "<script>alert(1)</script><script src='/static/js/app.js'></script>"
        '<button data-onclick="x" type="submit">ok</button>'
    )

    assert inline_scripts(html) == [
        "line 1: <select onchange=...>",
        "line 1: <script> without src",
    ]


def _templates() -> list[Path]:
    return sorted(
        path
        for root in TEMPLATE_ROOTS
        for path in root.rglob("*.html")
        if path.is_file()
    )


def test_no_template_has_an_inline_handler_or_script():
    assert len(_templates()) > 20  # the scan really reads the project's templates
    found = {
        str(path.relative_to(ROOT)): hits
        for path in _templates()
        if (hits := inline_scripts(path.read_text(encoding="utf-8")))
    }

    assert found == {}


@pytest.mark.parametrize(
    "name, args",
    [
        ("procurement-list", []),
        ("procurement-detail", ["pk"]),
        ("sizing:requirements", ["pk"]),
        ("tco:tab", ["pk"]),
        ("sizing:quick", []),
        ("sizing:catalog", []),
    ],
)
def test_key_pages_render_without_inline_handlers_or_scripts(
    client_for, it_lead, procurement, name, args
):
    url = reverse(name, args=[procurement.pk for _ in args])
    response = client_for(it_lead).get(url)

    assert response.status_code == 200
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert inline_scripts(response.content.decode()) == []


def test_stage_filter_submits_through_the_static_script(
    client_for, it_lead, procurement
):
    html = client_for(it_lead).get(reverse("procurement-list")).content.decode()

    assert '<select name="stage" data-autosubmit>' in html
    assert "[data-autosubmit]" in (ROOT / "static/js/app.js").read_text()
