"""Malformed ids in query strings and paths answer 404 (or 400), never a 500.
Found by the hostile-input probe of issue 10 (`?plan=abc`, `?scenario=abc`,
`sizing-plans/null%2Cnull/`, `line-item-template.xlsx%00`)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "path",
    [
        "/procurements/{pk}/sizing/?plan=abc",
        "/procurements/{pk}/sizing/?plan=1e308",
        "/procurements/{pk}/tco/?scenario=abc",
        "/procurements/{pk}/tco/?scenario=99999999999999999999999",
    ],
)
def test_malformed_id_in_a_query_string_is_not_found(
    client_for, it_lead, procurement, path
):
    response = client_for(it_lead).get(path.format(pk=procurement.pk))
    assert response.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/procurements/{pk}/sizing-plans/null%2Cnull/",
        "/api/v1/procurements/{pk}/sizing-plans/abc/",
        "/api/v1/procurements/{pk}/workloads/1e5/",
        "/api/v1/procurements/{pk}/tco-scenarios/abc/",
        "/api/v1/procurements/{pk}/bids/abc/",
    ],
)
def test_malformed_id_in_an_api_path_is_not_found(api_for, it_lead, procurement, path):
    response = api_for(it_lead).get(path.format(pk=procurement.pk))
    assert response.status_code == 404


def test_a_catalog_key_with_dots_is_found(api_for, it_lead, db):
    # Issue 10, item 7: the preset key pattern rejected `llama-3.1-405b`.
    from sizing.services import load_reference_catalog

    load_reference_catalog()
    response = api_for(it_lead).get("/api/v1/model-presets/llama-3.1-405b/")
    assert response.status_code == 200
    assert response.json()["key"] == "llama-3.1-405b"


def test_the_schema_allows_dotted_catalog_keys(api_for, it_lead):
    schema = api_for(it_lead).get("/api/v1/schema/?format=json").json()
    assert "/api/v1/model-presets/{key}/" in schema["paths"]
    path = schema["paths"]["/api/v1/model-presets/{key}/"]["get"]
    pattern = path["parameters"][0]["schema"].get("pattern", "")
    assert pattern == "^[^/]+$"
