"""The live estimate validates field by field (issue 13): no scenario name needed, an
invalid field keeps its error next to it and is left out, the rest still counts."""

import re

from django.urls import reverse

from tco import services
from tco.engine import TcoInputError


def _form(**extra):
    data = {
        "name": "",
        "capex-TOTAL_FORMS": "3",
        "capex-INITIAL_FORMS": "0",
        "capex-MIN_NUM_FORMS": "0",
        "capex-MAX_NUM_FORMS": "50",
        "capex-0-category": "gpu_servers",
        "capex-0-description": "servers",
        "capex-0-amount": "1000000",
        "gpu_count": "8",
    }
    data.update(extra)
    return data


CAPEX = [{"category": "gpu_servers", "description": "servers", "amount": 1e6}]


def _total(**inputs) -> str:
    result = services.estimate(inputs={"gpu_count": 8, "capex": CAPEX, **inputs})
    return f"{result['result']['total_cost']:,.0f}"


def _preview(client, lang="en", **fields):
    return client.post(
        reverse("tco:preview", args=[client.procurement_pk]),
        _form(**fields),
        HTTP_ACCEPT_LANGUAGE=lang,
    )


def _slot(html: str, html_name: str) -> str:
    match = re.search(
        rf'<div id="errors-{html_name}" hx-swap-oob="true">(.*?)</div>', html
    )
    assert match, html_name
    return match.group(1)


def _client(client_for, user, procurement):
    client = client_for(user)
    client.procurement_pk = procurement.pk
    return client


def test_every_valid_field_counts_without_a_name(client_for, it_lead, procurement):
    client = _client(client_for, it_lead, procurement)

    plain = _preview(client).content.decode()
    priced = _preview(client, electricity_price_per_kwh="1.5").content.decode()

    assert _total() in plain
    assert _total(electricity_price_per_kwh=1.5) in priced
    assert _total() != _total(electricity_price_per_kwh=1.5)
    assert "data-partial" not in priced
    assert 'id="errors-name"' not in priced  # the name is not the preview's business


def test_an_out_of_range_field_is_left_out_and_named_with_its_range(
    client_for, it_lead, procurement
):
    client = _client(client_for, it_lead, procurement)

    html = _preview(client, pue="0.8", discount_rate="0.12").content.decode()

    # PUE falls back to its default; the valid discount rate still counts.
    assert _total(discount_rate=0.12) in html
    assert "PUE: Must be a number from 1 to 5." in _slot(html, "pue")
    assert _slot(html, "discount_rate") == ""
    assert "data-partial" in html  # the estimate is greyed
    assert "Not counted until corrected: PUE." in html


def test_a_field_the_browser_would_send_as_text_names_its_allowed_range(
    client_for, it_lead, procurement
):
    client = _client(client_for, it_lead, procurement)

    html = _preview(client, pue="abc").content.decode()

    # The range worded as the engine's range error is ("Must be a number from 1 to
    # 5."): one allowed-range sentence (issue 20).
    assert "PUE: Enter a number. (a number from 1 to 5)" in _slot(html, "pue")
    assert _total() in html


def test_errors_are_translated_with_the_label(client_for, it_lead, procurement):
    client = _client(client_for, it_lead, procurement)

    html = _preview(client, lang="zh-hans", pue="abc").content.decode()

    assert "PUE：请输入数字。（1 至 5 之间的数）" in _slot(html, "pue")
    assert "未计入，待更正：PUE。" in html


def test_a_bad_capex_line_is_left_out_and_marked_on_its_row(
    client_for, it_lead, procurement
):
    client = _client(client_for, it_lead, procurement)

    html = _preview(
        client, **{"capex-1-category": "network", "capex-1-amount": "-5"}
    ).content.decode()

    assert _total() in html  # the valid line alone
    assert "Capex line 2, Amount:" in _slot(html, "capex-1-amount")
    assert _slot(html, "capex-0-amount") == ""


def test_without_any_estimate_the_last_one_stays_greyed(
    client_for, it_lead, procurement, monkeypatch
):
    def refuse(*, inputs):
        raise TcoInputError("__all__", "inputs must be an object")

    monkeypatch.setattr(services, "estimate", refuse)
    client = _client(client_for, it_lead, procurement)

    response = _preview(client)

    html = response.content.decode()
    assert response["HX-Reswap"] == "none"
    assert (
        'id="tco-preview-note" aria-live="polite" hx-swap-oob="true" data-stale' in html
    )
    assert "inputs must be an object" in html
