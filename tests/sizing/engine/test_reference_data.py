import csv
from pathlib import Path

import pytest

from sizing import reference_data

REFERENCE = Path("/work/shared/reference/gpu_catalog.csv")


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared reference not mounted")
def test_accelerator_keys_are_the_reference_catalog_keys():
    with REFERENCE.open() as handle:
        keys = [row["key"] for row in csv.DictReader(handle)]
    assert [r["key"] for r in reference_data.read_accelerator_rows()] == keys


@pytest.mark.parametrize(
    "reader",
    [
        reference_data.read_accelerator_rows,
        reference_data.read_server_rows,
        reference_data.read_network_rows,
        reference_data.read_storage_rows,
        reference_data.read_preset_rows,
    ],
)
def test_every_reference_row_has_a_source(reader):
    rows = reader()
    assert rows and all(row["source"] for row in rows)


def test_rows_are_typed():
    h100 = {r["key"]: r for r in reference_data.read_accelerator_rows()}[
        "h100-sxm-80gb"
    ]
    assert h100["bf16_dense_tflops"] == 989.0  # dense, not the 1,979 sparse figure
    assert h100["fp8_dense_tflops"] == 1979.0
    assert h100["is_estimate"] is False
    assert h100["price_currency"] == "USD"
    ascend = {r["key"]: r for r in reference_data.read_accelerator_rows()}[
        "ascend910b-oam-64gb"
    ]
    assert ascend["is_estimate"] is True and ascend["price_currency"] == "CNY"


def test_servers_reference_known_accelerators(catalog):
    for server in catalog.servers.values():
        assert server.accelerator_key in catalog.accelerators


def test_presets_include_the_required_models(catalog):
    required = {
        "llama-2-7b",
        "llama-2-13b",
        "llama-2-70b",
        "llama-3-8b",
        "llama-3-70b",
        "llama-3.1-8b",
        "llama-3.1-70b",
        "llama-3.1-405b",
        "qwen2.5-7b",
        "qwen2.5-72b",
        "mixtral-8x7b",
        "deepseek-v3",
        "gpt-3-175b",
        "bert-large",
    }
    assert required <= set(catalog.presets)
