"""403, 404 and 500 answer a styled page in the user's language (issue 13)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.utils import translation

from clusterbuy import views

pytestmark = pytest.mark.django_db

CASES = {
    # language: (403 title, the role's reason, 404 title, 500 title)
    "zh-hans": ("无权操作", "您的角色无权执行此操作。", "未找到", "服务器错误"),
    "en": (
        "Not allowed",
        "Your role does not allow this action.",
        "Not found",
        "Server error",
    ),
}


@pytest.mark.parametrize("language", CASES)
def test_refused_action_answers_the_translated_403_page_with_the_reason(
    client_for, viewer, language
):
    title, reason, _, _ = CASES[language]
    response = client_for(viewer).get(
        "/procurements/new/", headers={"accept-language": language}
    )
    assert response.status_code == 403
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert f'<h1 id="error-title">{title}</h1>' in html
    assert reason in html
    assert 'href="/static/css/app.css"' in html  # styled: the site's layout


@pytest.mark.parametrize("language", CASES)
def test_unknown_page_answers_the_translated_404_page(client_for, viewer, language):
    title = CASES[language][2]
    response = client_for(viewer).get(
        "/procurements/999999/", headers={"accept-language": language}
    )
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<h1 id="error-title">{title}</h1>' in html
    assert 'class="card narrow error-page"' in html


@pytest.mark.parametrize("language", CASES)
def test_server_error_page_is_translated_and_styled(viewer, language):
    request = RequestFactory().get("/procurements/")
    request.user = viewer
    request.LANGUAGE_CODE = language
    with translation.override(language):
        response = views.server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert f'<h1 id="error-title">{CASES[language][3]}</h1>' in html
    assert 'class="card narrow error-page"' in html


def test_server_error_page_falls_back_to_plain_bilingual_text(viewer, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("database down")

    monkeypatch.setattr(views, "render", broken)
    request = RequestFactory().get("/procurements/")
    request.user = viewer
    response = views.server_error(request)
    assert response.status_code == 500
    assert "服务器错误" in response.content.decode()
    assert "Server error" in response.content.decode()


def test_api_errors_stay_json(client_for, viewer):
    response = client_for(viewer).get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "<html" not in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/procurements/999999/decision/memo.pdf?format=pdf",
        "/api/v1/procurements/999999/rfp/pack.pdf?format=pack",
    ],
)
def test_api_errors_stay_json_where_a_file_was_asked_for(client_for, viewer, url):
    # Found by schemathesis (tests/proof/test_api_fuzz.py): a 404 rendered by the
    # PDF renderer was labelled application/pdf while its body is JSON.
    response = client_for(viewer).get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert "detail" in response.json()
