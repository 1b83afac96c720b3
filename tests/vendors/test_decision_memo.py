"""Stage 5: the decision freezes the comparison, and its memo (zh/en PDF) renders from
that snapshot, so later bid edits do not change it."""

import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.vendors.test_prescoring import planned  # noqa: F401 (fixture)
from tests.vendors.test_support import at_decision_stage, line, three_bids
from vendors import comparison
from vendors.models import Bid, BidLineItem, Decision
from vendors.services import bids, evaluation
from vendors.services.caching import bump_comparison_version
from vendors.services.opened_bids import OpenedBidError

RATIONALE = "均衡方案：网络与存储齐全，服务最好。Balanced design, best service."


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "memo.pdf"
    path.write_bytes(data)
    out = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"],
        capture_output=True,
        check=True,
        text=True,
    )
    return out.stdout


@pytest.fixture
def decided(planned, api_for, org, procurement, manager):  # noqa: F811
    gpu_only, promise, balanced = three_bids(procurement, org)
    at_decision_stage(procurement)
    response = api_for(manager).put(
        f"/api/v1/procurements/{procurement.pk}/decision/",
        {"bid": balanced.pk, "rationale": RATIONALE},
        format="json",
    )
    assert response.status_code == 200, response.content
    return gpu_only, promise, balanced, response.json()


def memo(api, procurement, lang):
    return api.get(
        f"/api/v1/procurements/{procurement.pk}/decision/memo.pdf",
        HTTP_ACCEPT_LANGUAGE=lang,
    )


def test_the_decision_freezes_the_comparison_as_the_decider_saw_it(
    decided, procurement, manager
):
    _gpu_only, promise, balanced, body = decided
    assert body["memo"].endswith(
        f"/api/v1/procurements/{procurement.pk}/decision/memo.pdf"
    )
    snap = Decision.objects.get().snapshot
    live = comparison.build_comparison(procurement=procurement, user=manager)
    assert snap["chosen_bid"] == balanced.pk
    assert snap["rationale"] == RATIONALE
    assert snap["decided_by"] == "mona-manager"
    assert snap["weights"] == live.weights
    assert [c["label"] for c in snap["columns"]] == [
        "GPU Box Ltd",
        "Promise Corp",
        "Balanced Systems",
    ]
    for frozen, column in zip(snap["columns"], live.columns, strict=True):
        assert frozen["normalized_tco"] == str(column.normalized_tco)
        assert frozen["rank"] == column.rank
        assert frozen["weighted_total"] == column.weighted_total
        assert frozen["complete"] is False
        assert [p["code"] for p in frozen["pitfalls"]] == [
            str(p.code) for p in column.pitfalls
        ]
    by_bid = {c["bid"]: c for c in snap["columns"]}
    assert by_bid[promise.pk]["pitfalls"][0]["reason_zh"]
    assert {i["item"] for i in by_bid[balanced.pk]["compliance"]} >= {"compute"}


def test_the_memo_pdf_reads_in_chinese_and_english(
    decided, api_for, buyer, procurement, tmp_path
):
    api = api_for(buyer)
    response = memo(api, procurement, "zh-hans")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    zh = pdf_text(response.content, tmp_path)
    snap = Decision.objects.get().snapshot
    chosen = next(c for c in snap["columns"] if c["bid"] == snap["chosen_bid"])
    tco = f"{Decimal(chosen['normalized_tco']):,.0f}"
    for text in (
        "决策备忘录",
        "选择及理由",
        "选定投标",
        "Balanced Systems",
        "均衡方案：网络与存储齐全，服务最好。",
        "mona-manager",
        "投标并列对比",
        "风险标记",
        "与配置方案的符合性",
        tco,
    ):
        assert text in zh, text
    en = pdf_text(memo(api, procurement, "en").content, tmp_path)
    for text in ("Decision memo", "The choice and why", "Bids side by side", tco):
        assert text in en, text
    assert "决策备忘录" not in en


def test_later_bid_edits_do_not_change_the_memo(
    decided, api_for, buyer, procurement, tmp_path
):
    _gpu_only, _promise, balanced, _body = decided
    before = pdf_text(memo(api_for(buyer), procurement, "en").content, tmp_path)
    frozen = Decision.objects.get().snapshot
    chosen = next(c for c in frozen["columns"] if c["bid"] == balanced.pk)
    old_tco = f"{Decimal(chosen['normalized_tco']):,.0f}"
    assert "h100-sxm-80gb × 64" in before and old_tco in before
    # After the decision the bids are frozen (issue 22): the service refuses ...
    with pytest.raises(OpenedBidError) as refused:
        bids.update_bid(bid=balanced, user=buyer, gpu_count=128)
    assert refused.value.code == "decided"
    # ... and even a change written past it (a raw UPDATE) leaves the memo as it was.
    Bid.objects.filter(pk=balanced.pk).update(gpu_count=128)
    BidLineItem.objects.filter(bid=balanced).delete()
    BidLineItem.objects.bulk_create(
        [
            BidLineItem(bid=balanced, **line("gpu_servers", 16, 3_000_000)),
            BidLineItem(bid=balanced, **line("network", 1, 2_000_000)),
        ]
    )
    bump_comparison_version()
    live = comparison.build_comparison(procurement=procurement, user=buyer)
    new_tco = next(c for c in live.columns if c.bid.pk == balanced.pk).normalized_tco
    assert f"{new_tco:,.0f}" != old_tco
    after = pdf_text(memo(api_for(buyer), procurement, "en").content, tmp_path)
    assert after == before
    assert "× 128" not in after and f"{new_tco:,.0f}" not in after
    assert Decision.objects.get().snapshot == frozen


def test_the_decision_page_links_the_memo_and_hides_it_from_a_blind_reader(
    planned,  # noqa: F811
    client_for,
    api_for,
    admin_user,
    buyer,
    it_lead,
    org,
    procurement,
    tmp_path,
):
    _gpu_only, _promise, balanced = three_bids(procurement, org)
    at_decision_stage(procurement)
    page = reverse("vendors:comparison", args=[procurement.pk])
    url = reverse("vendors:decision-memo", args=[procurement.pk])
    assert client_for(buyer).get(url).status_code == 404  # no decision yet
    evaluation.update_evaluation_settings(
        procurement=procurement, user=admin_user, blind_grading=True
    )
    response = client_for(admin_user).post(
        reverse("vendors:decision", args=[procurement.pk]),
        {"bid": balanced.pk, "rationale": "Balanced Systems serves us best."},
    )
    assert response.status_code == 302
    html = client_for(admin_user).get(page).content.decode()
    assert f'href="{url}"' in html
    download = client_for(admin_user).get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert download.status_code == 200
    assert "Balanced Systems" in pdf_text(download.content, tmp_path)
    # The admin saw vendor names; the IT lead grades blind: the memo would name them.
    assert client_for(it_lead).get(url).status_code == 403
    assert memo(api_for(it_lead), procurement, "en").status_code == 403
    assert memo(api_for(buyer), procurement, "en").status_code == 200


def test_an_outsider_gets_no_memo(decided, api_for, client_for, outsider, procurement):
    url = reverse("vendors:decision-memo", args=[procurement.pk])
    assert client_for(outsider).get(url).status_code == 404
    assert memo(api_for(outsider), procurement, "en").status_code == 404
