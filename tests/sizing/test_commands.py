import io
import json

import pytest
from django.core.management import CommandError, call_command

from sizing import services

BODY = {
    "workload": {
        "kind": "training",
        "model": {"preset": "llama-2-7b"},
        "tokens_b": 100,
        "target_days": 30,
    },
    "accelerator": "h100-sxm-80gb",
    "constraints": {"region": "global"},
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def test_size_prints_the_same_json_as_the_estimate_api(client, catalog, tmp_path):
    path = tmp_path / "body.json"
    path.write_text(json.dumps(BODY))
    out = io.StringIO()
    call_command("size", str(path), stdout=out)
    api = client.post("/api/v1/sizing/estimate", BODY, content_type="application/json")
    assert api.status_code == 200
    assert json.loads(out.getvalue()) == api.json()


def test_size_names_the_field_of_bad_input(catalog, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({**BODY, "workload": {**BODY["workload"], "tokens_b": -1}})
    )
    with pytest.raises(CommandError, match="workload.tokens_b"):
        call_command("size", str(path), stdout=io.StringIO())


def test_size_rejects_a_file_that_is_not_json(catalog, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("size", str(path), stdout=io.StringIO())
