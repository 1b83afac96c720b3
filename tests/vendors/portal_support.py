"""Shared builders for the supplier-portal tests (no tests here)."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from sizing.services.catalog import load_reference_catalog
from tests.vendors.test_support import make_vendor
from vendors.engine.importing import COLUMNS
from vendors.models import Invitation, RfpSettings
from vendors.portal.tokens import make_token

FIELDS = {
    "accelerator": "h100-sxm-80gb",
    "gpu_count": 64,
    "scheduler": "slurm",
    "network_gbps_per_gpu": 400,
    "storage_tb": 500,
    "storage_read_gbs": 80,
    "storage_write_gbs": 40,
    "cooling": "air",
    "peak_power_kw": 81.6,
    "delivery_weeks": 8,
    "warranty_years": "3",
    "sev1_hours": 1,
}
HONEST = "Each H100 SXM5 GPU has 80 GB of HBM3; DGX H100 server: 10.2 kW max."
WRONG_CLAIM = "We offer 64 H100 with 141 GB HBM3e each, on 400 Gb/s InfiniBand."
GOOD_ROWS = [
    ("gpu_servers", "8x H100 SXM server", 8, 2000000, "no"),
    ("support", "24x7 support, per year", 1, 300000, "yes"),
]
BAD_ROWS = [
    ("gpu_servers", "8x H100 SXM server", 8, 2000000, "no"),
    ("support", "24x7 support, per year", "十三", 300000, "yes"),
]


def workbook(rows, name="bid.xlsx") -> SimpleUploadedFile:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(COLUMNS))
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return SimpleUploadedFile(name, out.getvalue())


@pytest.fixture(name="catalog")
def catalog_fixture(db):
    load_reference_catalog()


def invite(procurement, vendor, *, expires_in=datetime.timedelta(days=14)):
    return Invitation.objects.create(
        procurement=procurement,
        vendor=vendor,
        email=f"bids@{vendor.pk}.example",
        expires_at=timezone.now() + expires_in,
    )


@pytest.fixture(name="rfp")
def rfp_fixture(procurement):
    return RfpSettings.objects.create(
        procurement=procurement, deadline=timezone.now() + datetime.timedelta(days=7)
    )


@pytest.fixture(name="invitation")
def invitation_fixture(catalog, org, procurement, rfp):
    return invite(procurement, make_vendor(org, "Quokka Systems"))


@pytest.fixture(name="token")
def token_fixture(invitation):
    return make_token(invitation)
