"""An RFP with three invited vendors and sealed submissions written straight to the
models (the portal's submit service is not needed to test what the buyer sees):
Zebracorp revised once (two versions, evidence: one kept PDF, one removed, and its
workbook), Quokka Systems submitted once, Latecomer Ltd submitted nothing. Every
figure and text of a submission is distinctive, so any leak is easy to spot."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlparse

from django.core import mail
from django.core.files.base import ContentFile
from django.utils import timezone, translation
from django.utils.formats import date_format

from tests.factories import pdf_bytes
from tests.vendors.blind_support import xlsx_bytes
from vendors.models import (
    Invitation,
    RfpSettings,
    Submission,
    SubmissionEvidence,
    Vendor,
)

ZEBRA = "Zebracorp"
QUOKKA = "Quokka Systems"
LATE = "Latecomer Ltd"
ZEBRA_V1_TEXT = "ZEBRA-DRAFT-PROPOSAL-alpha"
ZEBRA_V2_TEXT = "ZEBRA-FINAL-PROPOSAL-omega"
QUOKKA_TEXT = "QUOKKA-SEALED-PROPOSAL-kappa"
ZEBRA_PRICE = "9876543"
QUOKKA_PRICE = "4242421"
SEALED_MARKERS = (
    ZEBRA_V1_TEXT,
    ZEBRA_V2_TEXT,
    QUOKKA_TEXT,
    ZEBRA_PRICE,
    "9,876,543",
    QUOKKA_PRICE,
    "4,242,421",
    "zebra-evidence",
    "zebra-quote",
)
BASE_URL = "http://testserver/"


def fields(gpu_count: int) -> dict:
    return {
        "accelerator": "h100-sxm-80gb",
        "gpu_count": gpu_count,
        "scheduler": "slurm",
        "network_gbps_per_gpu": 400,
        "storage_tb": 500,
        "storage_read_gbs": 80,
        "storage_write_gbs": 40,
        "cooling": "air",
        "peak_power_kw": "81.6",
        "warranty_years": "3",
    }


def items(gpu_price: str) -> list[dict]:
    return [
        {
            "category": "gpu_servers",
            "description": "GPU server",
            "quantity": "8",
            "unit_price": gpu_price,
            "recurring": False,
        },
        {
            "category": "network",
            "description": "fabric",
            "quantity": "1",
            "unit_price": "1200000",
            "recurring": False,
        },
        {
            "category": "software",
            "description": "support subscription",
            "quantity": "1",
            "unit_price": "100000",
            "recurring": True,
        },
    ]


def submit(invitation, *, version, text, gpu_count, price, at, workbook=False):
    row = Submission(
        invitation=invitation,
        version=version,
        fields=fields(gpu_count),
        proposal_text=text,
        line_items=items(price),
        feedback={},
    )
    if workbook:
        row.workbook.save(
            "zebra-quote.xlsx",
            ContentFile(xlsx_bytes([["category", "description"]])),
            save=False,
        )
        row.workbook_name = "zebra-quote.xlsx"
    row.save()
    Submission.objects.filter(pk=row.pk).update(submitted_at=at, received_at=at)
    row.refresh_from_db()
    return row


def evidence(invitation, name, *, removed=False):
    data = pdf_bytes()
    row = SubmissionEvidence(
        invitation=invitation,
        original_name=name,
        kind="pdf",
        size_bytes=len(data),
        removed=removed,
    )
    row.file.save(name, ContentFile(data), save=False)
    row.save()
    return row


def sealed_rfp(procurement, *, deadline_passed=True, two_person=False) -> dict:
    """The RFP, its invitations and submissions; the deadline an hour ago (or a day
    ahead). Submission times are 13 minutes off any other time shown."""
    now = timezone.now().replace(second=0, microsecond=0)
    deadline = now - timedelta(hours=1) if deadline_passed else now + timedelta(days=1)
    rfp = RfpSettings.objects.create(
        procurement=procurement, deadline=deadline, two_person_opening=two_person
    )
    org = procurement.organisation
    invitations = {}
    for name in (ZEBRA, QUOKKA, LATE):
        vendor = Vendor.objects.create(organisation=org, name=name)
        invitations[name] = Invitation.objects.create(
            procurement=procurement,
            vendor=vendor,
            email=f"bids@{name.split()[0].lower()}.example",
            expires_at=deadline + timedelta(days=30),
        )
    first = now - timedelta(days=2, minutes=13)
    second = now - timedelta(days=1, hours=3, minutes=13)
    zebra, quokka = invitations[ZEBRA], invitations[QUOKKA]
    versions = [
        submit(zebra, version=1, text=ZEBRA_V1_TEXT, gpu_count=32, price="1111111",
               at=first),
        submit(zebra, version=2, text=ZEBRA_V2_TEXT, gpu_count=64, price=ZEBRA_PRICE,
               at=second, workbook=True),
        submit(quokka, version=1, text=QUOKKA_TEXT, gpu_count=48, price=QUOKKA_PRICE,
               at=first),
    ]  # fmt: skip
    evidence(zebra, "zebra-evidence.pdf")
    evidence(zebra, "zebra-withdrawn.pdf", removed=True)
    return {
        "rfp": rfp,
        "invitations": invitations,
        "versions": versions,
        "times": [timezone.localtime(v.submitted_at) for v in versions],
    }


def shown_times(at) -> set[str]:
    """The ways a page or an export can show a submission time."""
    local = timezone.localtime(at)
    shown = {local.strftime("%H:%M"), local.isoformat()[:16], at.isoformat()[:16]}
    for language in ("en", "zh-hans"):
        with translation.override(language):
            shown |= {
                date_format(local, "SHORT_DATETIME_FORMAT"),
                date_format(local, "DATETIME_FORMAT"),
            }
    return shown


def link_in(message) -> str:
    """The portal address an invitation e-mail carries."""
    return re.search(r"https?://\S+/portal/\S+/", message.body).group(0)


def token_of(link: str) -> str:
    return urlparse(link).path.rstrip("/").rsplit("/", 1)[-1]


def outbox():
    return mail.outbox
