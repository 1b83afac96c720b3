"""The tender settings page (zh/en, errors on their fields, frozen ★ items) and the
tender review card and invalid-bid rank on the comparison page."""

from decimal import Decimal as D

from django.urls import reverse
from django.utils import timezone

from tests.vendors import tender_support
from tests.vendors.tender_support import (
    H20,
    attach_evidence,
    priced_bid,
    set_regime,
)
from vendors.models import RfpVersion, TenderSettings

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world


def _url(procurement):
    return reverse("vendors:tender", kwargs={"pk": procurement.pk})


def _form(**values):
    body = {
        "regime": "gov_procurement",
        "method": "comprehensive",
        "subject": "goods",
        "price_weight_pct": "30",
        "ceiling_cny": "",
        "sme_deduction_pct": "10",
        "domestic_deduction_pct": "20",
        "stacking": "sequential",
        "abnormally_low_pct": "20",
        "item_delivered_pflops": "on",
        "required_delivered_pflops": "94.94",
        "item_open_scheduler": "on",
    }
    body.update(values)
    return body


def test_page_shows_defaults_in_english_and_chinese(tender_world, client_for, buyer):
    client = client_for(buyer)
    en = client.get(_url(tender_world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Tender settings" in en and 'id="tender-unsaved"' in en
    assert 'value="94.94"' in en  # the plan's delivered compute, as the ★ threshold
    zh = client.get(_url(tender_world), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "招标评审设置" in zh and "实质性要求" in zh


def test_post_saves_and_a_low_price_weight_is_an_error_on_its_field(
    tender_world, client_for, buyer
):
    client = client_for(buyer)
    bad = client.post(
        _url(tender_world), _form(price_weight_pct="20"), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert bad.status_code == 200
    html = bad.content.decode()
    field = html[html.index('id="field-price_weight_pct"') :]
    assert "at least 30" in field[: field.index("</div>")]
    assert not TenderSettings.objects.exists()
    ok = client.post(_url(tender_world), _form(ceiling_cny="38000000"))
    assert ok.status_code == 302
    row = TenderSettings.objects.get()
    assert row.regime == "gov_procurement" and row.ceiling_cny == D(38_000_000)
    assert [i["key"] for i in row.mandatory_items] == [
        "delivered_pflops",
        "open_scheduler",
    ]


def test_viewer_cannot_save_and_items_freeze_after_publication(
    tender_world, client_for, buyer, viewer
):
    assert client_for(viewer).post(_url(tender_world), _form()).status_code == 403
    assert not TenderSettings.objects.exists()
    set_regime(tender_world, buyer, "gov_procurement")
    RfpVersion.objects.create(
        procurement=tender_world,
        number=1,
        kind=RfpVersion.Kind.PUBLICATION,
        facts={},
        published_at=timezone.now(),
    )
    client = client_for(buyer)
    html = client.get(_url(tender_world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="items-frozen"' in html
    # ticks are disabled: a post without them keeps the published items
    client.post(_url(tender_world), _form(item_open_scheduler=""))
    assert len(TenderSettings.objects.get().mandatory_items) == 5


def test_outsider_gets_404(tender_world, client_for, outsider):
    assert client_for(outsider).get(_url(tender_world)).status_code == 404


def test_comparison_shows_the_review_card_and_the_invalid_bid_out_of_rank(
    tender_world, client_for, buyer, org
):
    priced_bid(tender_world, org, "A", 30_000_000)
    priced_bid(tender_world, org, "B", 33_000_000)
    priced_bid(tender_world, org, "X", 12_000_000, accelerator=H20)
    set_regime(tender_world, buyer, "gov_procurement")
    url = reverse("vendors:comparison", kwargs={"pk": tender_world.pk})
    html = client_for(buyer).get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="tender-review"' in html and 'data-viable="no"' in html
    assert "《政府采购法》第三十六条" in html
    card = html[html.index('id="tender-review"') :]
    assert 'data-valid="no"' in card and "invalid bid" in card
    assert "★ delivered compute: offered 14.21, required 94.94 PFLOPS." in card
    assert 'id="tender-link"' in html
    zh = client_for(buyer).get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "无效投标" in zh


def test_declarations_form_ticks_the_bids(tender_world, client_for, buyer, org):
    a = priced_bid(tender_world, org, "A", 30_000_000)
    b = priced_bid(tender_world, org, "B", 31_000_000)
    attach_evidence(a, "sme", "a-sme-letter.pdf")
    url = reverse("vendors:tender-declarations", kwargs={"pk": tender_world.pk})
    response = client_for(buyer).post(url, {f"sme_{a.pk}": "on"})
    assert response.status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.sme_declared, b.sme_declared) == (True, False)
    html = client_for(buyer).get(_url(tender_world)).content.decode()
    assert f'name="sme_{a.pk}" aria-label' in html and "checked" in html
