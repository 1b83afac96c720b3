"""A procurement under blind grading and a sealed envelope whose vendors and prices are
easy to spot anywhere (no tests here): the vendors' names are in their proposal texts,
line items, case studies, attachment and import file names, score notes and the
decision's rationale, and every price is a distinctive number."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import pdf_bytes
from tests.vendors.test_support import BALANCED_TEXT, at_decision_stage, line
from vendors.services import attachments, bids, decisions, evaluation, suppliers

ZEBRA = "Zebracorp"
QUOKKA = "Quokka Systems"
# Distinctive unit prices (CNY): a GPU-heavy quote (GPU servers are 97 % of its
# hardware cost, which the GPU-only detector reports as a share) and a balanced one.
ZEBRA_LINES = [
    line("gpu_servers", 1, 7_777_777, description="Zebracorp ZX-8 GPU server"),
    line("network", 1, 111_111, description="Zebracorp fabric"),
    line("storage", 1, 122_222, description="storage"),
    line("software", 1, 55_555, recurring=True, description="software"),
]
QUOKKA_LINES = [
    line("gpu_servers", 1, 3_141_592, description="Quokka Q8 GPU server"),
    line("network", 1, 1_414_213, description="network"),
    line("storage", 1, 2_718_281, description="storage"),
    line("software", 1, 161_803, description="software"),
]


def xlsx_bytes(rows) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _bid(procurement, vendor, lines, text, user):
    return bids.create_bid(
        procurement=procurement,
        vendor=vendor,
        user=user,
        line_items=lines,
        accelerator="h100-sxm-80gb",
        gpu_count=64,
        scheduler="slurm",
        proposal_text=text,
        network_gbps_per_gpu=400,
        storage_tb=500,
        storage_read_gbs=80,
        storage_write_gbs=40,
        cooling="air",
        peak_power_kw=81.6,
        warranty_years=Decimal(3),
        server_model=f"{vendor.name} X8",
    )


def _attach(bid, user, name, data):
    return attachments.add_attachment(
        bid=bid, user=user, upload=SimpleUploadedFile(name, data)
    )


def blind_sealed_bids(*, procurement, buyer, manager=None, admin=None) -> dict:
    """Two bids (Zebracorp, Quokka Systems) with case studies, attachments, an
    imported sheet, a buyer's score note and, with ``admin``, a decision; then blind
    grading and the sealed envelope switched on by the buyer."""
    org = procurement.organisation
    zebra_vendor = suppliers.create_vendor(organisation=org, name=ZEBRA)
    quokka_vendor = suppliers.create_vendor(organisation=org, name=QUOKKA)
    zebra = _bid(
        procurement,
        zebra_vendor,
        ZEBRA_LINES,
        f"{ZEBRA} proposes: {BALANCED_TEXT}",
        buyer,
    )
    quokka = _bid(
        procurement,
        quokka_vendor,
        QUOKKA_LINES,
        f"Quokka's team ({QUOKKA}) proposes: {BALANCED_TEXT}",
        buyer,
    )
    for vendor, bid in ((zebra_vendor, zebra), (quokka_vendor, quokka)):
        suppliers.create_case_study(
            vendor=vendor,
            bids=[bid],
            client_industry=f"Finance, built by {vendor.name}",
            scenario="LLM training",
            outcome_before="30 days",
            outcome_after="12 days",
            site_visit_done=True,
        )
    sheet = [["category", "description", "quantity", "unit_price", "recurring"]]
    sheet += [
        [li["category"], li["description"], 1, float(li["unit_price"]), li["recurring"]]
        for li in ZEBRA_LINES
    ]
    sheet.append(["installation", "Zebracorp racking", 1, 246_813, False])
    bids.import_line_items(
        bid=zebra,
        fileobj=io.BytesIO(xlsx_bytes(sheet)),
        filename="zebracorp-lines.xlsx",
        user=buyer,
    )
    _attach(zebra, buyer, "zebracorp_quote.xlsx", xlsx_bytes(sheet))
    _attach(quokka, buyer, "quokka-proposal.pdf", pdf_bytes())
    criterion = (
        evaluation.ensure_evaluation_settings(procurement=procurement)
        .template.sections.get(code="architecture")
        .criteria.first()
    )
    evaluation.record_score(
        bid=quokka,
        criterion=criterion,
        evaluator=buyer,
        points=4,
        note=f"{QUOKKA} answered every question",
    )
    if admin is not None:
        at_decision_stage(procurement)
        decisions.record_decision(
            procurement=procurement,
            user=admin,
            bid=zebra,
            rationale=f"{ZEBRA} fits the plan best",
            override_reason="The plan's fit outweighs the rank.",  # ranked second
        )
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True, sealed_envelope=True
    )
    return {
        "vendors": [zebra_vendor, quokka_vendor],
        "bids": [zebra, quokka],
        "case_studies": list(zebra_vendor.case_studies.all())
        + list(quokka_vendor.case_studies.all()),
        "attachments": list(zebra.attachments.all()) + list(quokka.attachments.all()),
    }
