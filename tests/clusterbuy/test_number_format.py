"""Chinese pages group thousands like English ones; form inputs stay parseable."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from tests.factories import ProcurementFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_budget_is_shown_with_thousands_separators(client_for, org, viewer, language):
    ProcurementFactory(
        organisation=org,
        budget_min=Decimal("3839269"),
        budget_max=Decimal("20000000"),
    )
    html = client_for(viewer).get(
        "/procurements/", headers={"accept-language": language}
    )
    assert "CNY 3,839,269 – 20,000,000" in html.content.decode()


def test_form_inputs_keep_plain_numbers_on_chinese_pages(client_for, org, it_lead):
    procurement = ProcurementFactory(
        organisation=org, budget_min=Decimal("20000000"), budget_max=None
    )
    html = (
        client_for(it_lead)
        .get(
            f"/procurements/{procurement.pk}/edit/",
            headers={"accept-language": "zh-hans"},
        )
        .content.decode()
    )
    field = re.search(r'<input[^>]*name="budget_min"[^>]*>', html).group()
    assert re.search(r'value="20000000(\.0+)?"', field), field
