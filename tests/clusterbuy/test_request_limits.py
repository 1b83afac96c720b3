"""Hostile request shapes answer 4xx, never a 500."""

import io
import json
import math

import pytest
from django.test import Client
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from clusterbuy.models import Procurement
from clusterbuy.parsers import BoundedJSONParser, json_nesting_depth


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ("[]", 1),
        ('[{"a": {}}]', 3),
        ('{"a": "[[[[{{{{"}', 1),  # brackets inside strings are text
        (r'["\"[[[", "\\", []]', 2),  # escaped quotes and backslashes
        ("[[[[", 4),  # malformed text still gets a number
    ],
)
def test_json_nesting_depth(text, depth):
    assert json_nesting_depth(text) == depth


def _nested(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


@pytest.mark.parametrize(
    "body",
    ["[" * 1000 + "]" * 1000, _nested(1000), '{"name": ' + "[" * 33 + "]" * 33 + "}"],
)
def test_deeply_nested_json_is_refused_with_400_on_every_endpoint(it_lead, body):
    api = APIClient()
    api.force_authenticate(it_lead)
    for url in ("/api/v1/sizing/estimate", "/api/v1/procurements/"):
        response = api.generic("POST", url, body, content_type="application/json")
        assert response.status_code == 400, url
        assert response.json() == {
            "detail": "The JSON body nests deeper than 32 levels."
        }
    assert not Procurement.objects.exists()


def test_anonymous_deep_json_is_refused_too(db):
    response = Client().post(
        "/api/v1/sizing/estimate", "[" * 5000, content_type="application/json"
    )
    assert response.status_code == 400


def test_json_body_over_the_size_limit_is_refused_with_400(settings, it_lead):
    settings.API_BODY_MAX_BYTES = 1024
    api = APIClient()
    api.force_authenticate(it_lead)
    body = json.dumps({"name": "x", "description": "y" * 2000})
    response = api.generic(
        "POST", "/api/v1/procurements/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "The request body is larger than 1 KB."}
    assert not Procurement.objects.exists()


def test_json_within_the_limits_is_parsed_as_before(it_lead):
    api = APIClient()
    api.force_authenticate(it_lead)
    body = json.dumps({"name": "Cluster [[{{", "description": "}}]]"})
    response = api.generic(
        "POST", "/api/v1/procurements/", body, content_type="application/json"
    )
    assert response.status_code == 201
    assert Procurement.objects.get().name == "Cluster [[{{"
    for bad in ('{"name": NaN}', '{"name": "x"', "\xff"):
        response = api.generic(
            "POST", "/api/v1/procurements/", bad, content_type="application/json"
        )
        assert response.status_code == 400
        assert response.json()["detail"].startswith("JSON parse error")


@pytest.mark.parametrize(
    "path",
    [
        "/vendors/line-item-template.xlsx%00",
        "/procurements/%00/",
        "/procurements/1%0a/",
        "/login/%7f",
    ],
)
def test_paths_with_control_characters_are_not_found(client_for, it_lead, path):
    response = client_for(it_lead).get(path)
    assert response.status_code == 404


def test_api_paths_with_control_characters_answer_json_404(api_for, it_lead):
    response = api_for(it_lead).get("/api/v1/procurements/%00/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert list(response.json()) == ["detail"]


def test_a_lenient_subclass_still_lets_nan_through_within_the_limits():
    class LenientParser(BoundedJSONParser):
        strict = False

    data = LenientParser().parse(io.BytesIO(b'{"gpu_count": NaN}'), parser_context={})
    assert math.isnan(data["gpu_count"])
    with pytest.raises(ParseError):
        LenientParser().parse(io.BytesIO(b"[" * 40), parser_context={})
