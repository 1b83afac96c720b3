"""The API's explanation entries carry their label in the requested language beside
their key (issue 20, item 4), the same label the plan page shows."""

import pytest

from sizing import services
from sizing.messages import QUANTITY_LABELS
from tests.sizing.test_api import ESTIMATE, LLAMA2_70B_SERVE


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.mark.parametrize(
    ("language", "gpu_count_label"), [("en", "Number of GPUs"), ("zh-hans", "GPU 数量")]
)
def test_estimate_explanation_entries_carry_a_label(
    client, catalog, language, gpu_count_label
):
    response = client.post(
        ESTIMATE,
        LLAMA2_70B_SERVE,
        content_type="application/json",
        headers={"accept-language": language},
    )
    assert response.status_code == 200
    entries = response.json()["explanation"]
    by_key = {e["quantity"]: e["label"] for e in entries}
    assert by_key["gpu_count"] == gpu_count_label
    labelled = [e for e in entries if e["quantity"] in QUANTITY_LABELS]
    assert labelled and all(e["label"] for e in labelled)
