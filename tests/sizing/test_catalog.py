import csv
from pathlib import Path

import pytest
from django.core.management import call_command

from sizing import services
from sizing.models import (
    Accelerator,
    ModelPreset,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)
from sizing.reference_data import DATA_DIR

SHARED_CATALOG = (
    Path(__file__).resolve().parents[3] / "shared" / "reference" / "gpu_catalog.csv"
)


def _csv_rows(name: str) -> int:
    with (DATA_DIR / name).open(encoding="utf-8") as handle:
        return sum(1 for _ in csv.DictReader(handle))


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.mark.django_db
def test_load_catalog_twice_creates_each_row_once():
    call_command("load_catalog", stdout=open("/dev/null", "w"))  # noqa: SIM115
    first = [m.objects.count() for m in services.CATALOG_MODELS]
    call_command("load_catalog", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert [m.objects.count() for m in services.CATALOG_MODELS] == first
    assert Accelerator.objects.count() == _csv_rows("accelerators.csv") == 28
    assert ServerPlatform.objects.count() == _csv_rows("servers.csv")
    assert NetworkOption.objects.count() == _csv_rows("network.csv")
    assert StorageTier.objects.count() == _csv_rows("storage.csv")
    assert ModelPreset.objects.filter(key="llama-2-70b").exists()


def test_every_key_of_the_shared_reference_catalog_is_loaded(catalog):
    if not SHARED_CATALOG.exists():
        pytest.skip("shared/reference/gpu_catalog.csv not beside the checkout")
    with SHARED_CATALOG.open(encoding="utf-8") as handle:
        keys = {row["key"] for row in csv.DictReader(handle)}
    assert keys
    assert keys <= set(Accelerator.objects.values_list("key", flat=True))


def test_loaded_row_keeps_every_column_and_its_source(catalog):
    h100 = Accelerator.objects.get(key="h100-sxm-80gb")
    assert (h100.memory_gb, h100.memory_type, h100.mem_bw_tbs) == (80.0, "HBM3", 3.35)
    assert (h100.bf16_dense_tflops, h100.fp8_dense_tflops) == (989.0, 1979.0)
    assert (h100.tdp_w, h100.pcie_gen, h100.server_8gpu_max_kw) == (700.0, 5, 10.2)
    assert h100.cn_status == "restricted" and h100.global_status == "available"
    assert h100.source


def test_engine_catalog_from_the_database_equals_the_shipped_files(catalog):
    from sizing.reference_data import load_catalog

    files, db = load_catalog(), services.engine_catalog()
    assert db.accelerators == files.accelerators
    assert db.presets == files.presets
    assert db.servers == files.servers


def test_admin_edit_reaches_the_engine_and_an_unchanged_catalog_is_cached(catalog):
    first = services.engine_catalog()
    assert services.engine_catalog() is first
    h100 = Accelerator.objects.get(key="h100-sxm-80gb")
    h100.memory_gb = 96
    h100.save()
    edited = services.engine_catalog()
    assert edited is not first
    assert edited.accelerators["h100-sxm-80gb"].memory_gb == 96.0


def test_catalog_page_filters_by_vendor_memory_and_availability(client, catalog):
    page = client.get("/catalog/", {"vendor": "AMD", "min_memory_gb": "200"})
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="acc-mi325x-oam-256gb"' in html
    assert 'id="acc-mi300x-oam-192gb"' not in html  # 192 GB < 200
    assert 'id="acc-h100-sxm-80gb"' not in html
    cn = client.get("/catalog/", {"available_in": "cn"}).content.decode()
    assert 'id="acc-h100-sxm-80gb"' not in cn  # restricted in China
    assert 'id="acc-ascend910b-oam-64gb"' in cn


def test_catalog_page_shows_price_currency_date_and_estimate_marker(client, catalog):
    html = client.get("/catalog/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "USD 24,875" in html and "2020-05" in html  # A100 40GB server share
    assert 'class="badge warn">estimate' in html


@pytest.mark.parametrize(
    ("key", "fp4"),
    [
        ("b200-sxm-180gb", 9000.0),  # 18 PF FP4 with sparsity / 2 (NVIDIA HGX table)
        ("b300-sxm-288gb", 13500.0),  # HGX B300 108 PF dense / 8 GPUs
        ("gb200-nvl-186gb", 10000.0),  # 20 PF sparse / 2
        ("mi355x-oam-288gb", 10000.0),  # AMD dense MXFP4 ~10 PF
        ("h100-sxm-80gb", None),  # Hopper has no FP4 tensor cores
    ],
)
def test_fp4_dense_peak_is_loaded_where_the_part_has_it(catalog, key, fp4):
    assert Accelerator.objects.get(key=key).fp4_dense_tflops == fp4


def test_catalogue_page_shows_the_fp4_column(client, catalog):
    html = client.get("/catalog/").content.decode()
    assert "BF16 / FP8 / INT8 / FP4" in html
    assert "2250.0 / 4500.0 / 4500.0 / 9000.0" in html  # B200 dense BF16/FP8/INT8/FP4
