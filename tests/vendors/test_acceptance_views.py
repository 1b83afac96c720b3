# ruff: noqa: F811 (the fixtures imported from the support modules)
"""The acceptance tab (issue 26): the plan, uploads and verdicts in zh and en, the
roles that may record and sign, and the procurement's visibility rule."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.vendors.acceptance_support import (  # noqa: F401 (fixture)
    NCCL_2NODE,
    decided,
    sample,
    wrong_elements,
)
from tests.vendors.test_prescoring import planned  # noqa: F401 (fixture)
from vendors.models import AcceptanceAttempt, AcceptancePlan

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def page(procurement):
    return reverse("vendors:acceptance", args=[procurement.pk])


def create(client, procurement):
    return client.post(
        reverse("vendors:acceptance-create", args=[procurement.pk]),
        {"burn_in_hours": 72},
    )


def upload(client, procurement, data, **fields):
    return client.post(
        reverse("vendors:acceptance-upload", args=[procurement.pk]),
        {"file": SimpleUploadedFile("all_reduce.txt", data), **fields},
        **EN,
    )


def test_the_it_lead_creates_the_plan_and_uploads_logs(
    decided, client_for, procurement, it_lead
):
    client = client_for(it_lead)
    before = client.get(page(procurement), **EN)
    assert before.status_code == 200
    assert b"Create the acceptance plan" in before.content
    create(client, procurement)
    assert AcceptancePlan.objects.get().basis == "bid"
    upload(
        client,
        procurement,
        wrong_elements(sample(NCCL_2NODE)),
        clause="nccl_all_reduce_fabric",
    )
    upload(
        client,
        procurement,
        sample(NCCL_2NODE),
        clause="nccl_all_reduce_fabric",
        note="GPU replaced",
    )
    text = client.get(page(procurement), **EN).content.decode()
    assert 'data-clause="nccl_all_reduce_fabric" data-status="passed"' in text
    assert "463.9 GB/s" in text and "&gt;= 423 GB/s" in text
    assert 'data-attempt="1"' in text and 'data-attempt="2"' in text
    assert "#wrong" in text and "GPU replaced" in text
    zh = client.get(page(procurement), **ZH).content.decode()
    assert "验收" in zh


def test_a_bad_log_is_said_and_saves_nothing(decided, client_for, procurement, it_lead):
    client = client_for(it_lead)
    create(client, procurement)
    response = upload(
        client, procurement, sample(NCCL_2NODE)[:2500], clause="nccl_all_reduce_fabric"
    )
    assert response.status_code == 302
    shown = client.get(page(procurement), **EN).content.decode()
    assert "This log cannot be graded" in shown
    assert not AcceptanceAttempt.objects.exists()


def test_a_viewer_cannot_record_and_a_manager_signs(
    decided, client_for, procurement, it_lead, viewer, manager
):
    create(client_for(it_lead), procurement)
    response = upload(
        client_for(viewer),
        procurement,
        sample(NCCL_2NODE),
        clause="nccl_all_reduce_fabric",
    )
    assert response.status_code == 403
    assert not AcceptanceAttempt.objects.exists()
    viewer_page = client_for(viewer).get(page(procurement), **EN).content
    assert b"Upload a test log" not in viewer_page and b"Sign the" not in viewer_page
    upload(
        client_for(it_lead),
        procurement,
        sample(NCCL_2NODE),
        clause="nccl_all_reduce_fabric",
    )
    signed = client_for(manager).post(
        reverse("vendors:acceptance-sign", args=[procurement.pk])
    )
    assert signed.status_code == 302
    assert AcceptancePlan.objects.get().signed_by == manager
    pdf = client_for(viewer).get(
        reverse("vendors:acceptance-certificate", args=[procurement.pk]), **ZH
    )
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


def test_another_organisation_gets_404(
    decided, client_for, procurement, it_lead, outsider
):
    create(client_for(it_lead), procurement)
    client = client_for(outsider)
    assert client.get(page(procurement)).status_code == 404
    response = upload(
        client, procurement, sample(NCCL_2NODE), clause="nccl_all_reduce_fabric"
    )
    assert response.status_code == 404
    assert (
        client.get(
            reverse("vendors:acceptance-certificate", args=[procurement.pk])
        ).status_code
        == 404
    )
    assert not AcceptanceAttempt.objects.exists()


def test_the_bid_and_the_vendor_pages_show_promised_against_measured(
    decided, client_for, procurement, it_lead
):
    client = client_for(it_lead)
    create(client, procurement)
    client.post(
        reverse("vendors:acceptance-delivery", args=[procurement.pk]),
        {"delivered_on": "2099-01-01"},
    )
    bid_page = client.get(
        reverse("vendors:bid-detail", args=[procurement.pk, decided.pk]), **EN
    ).content.decode()
    assert 'id="bid-acceptance"' in bid_page
    # 400 Gb/s per GPU promised, no ib_write_bw result yet
    assert 'data-item="network_gbps_per_gpu"' in bid_page
    assert 'data-item="delivery"' in bid_page and "2099-01-01" in bid_page
    vendor_page = client.get(
        reverse("vendors:vendor-detail", args=[decided.vendor_id]), **EN
    ).content.decode()
    assert 'id="vendor-track-record"' in vendor_page
    assert 'data-item="storage_read_gbs"' in vendor_page
