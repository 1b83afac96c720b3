"""Procurement numbers and texts are bounded at the edge (issue 10, item 2): each
bound lives on its model field (clusterbuy.bounds), the form and the serializer
derive theirs, and a value beyond it is a 400 naming the field, never a 500."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.urls import reverse

from clusterbuy.bounds import (
    LONG_TEXT_MAX_CHARS,
    bounded,
    model_field_limits,
    stored_value_is_valid,
)
from clusterbuy.models import Procurement, StageChange


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"budget_max": "1e20"}, "budget_max"),
        ({"budget_min": 1e308}, "budget_min"),
        ({"horizon_years": 2**40}, "horizon_years"),
        ({"ops_staff_count": 2**40}, "ops_staff_count"),
        ({"ops_staff_count": 1e30}, "ops_staff_count"),
        ({"description": "x" * (LONG_TEXT_MAX_CHARS + 1)}, "description"),
    ],
)
def test_a_procurement_value_beyond_its_bound_is_a_400(
    api_for, it_lead, procurement, body, field
):
    before = Procurement.objects.values().get(pk=procurement.pk)
    response = api_for(it_lead).patch(
        f"/api/v1/procurements/{procurement.pk}/", body, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert Procurement.objects.values().get(pk=procurement.pk) == before


def test_the_procurement_form_names_a_description_too_long(
    client_for, it_lead, procurement
):
    response = client_for(it_lead).post(
        reverse("procurement-edit", args=[procurement.pk]),
        {
            "name": procurement.name,
            "currency": "CNY",
            "horizon_years": 5,
            "deployment_site": procurement.deployment_site,
            "data_sensitivity": procurement.data_sensitivity,
            "ops_staff_count": 0,
            "description": "x" * (LONG_TEXT_MAX_CHARS + 1),
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["description"]


def test_a_stage_note_beyond_its_bound_is_a_400(api_for, admin_user, procurement):
    response = api_for(admin_user).post(
        f"/api/v1/procurements/{procurement.pk}/stage/",
        {"to_stage": 2, "note": "x" * (LONG_TEXT_MAX_CHARS + 1)},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()) == ["note"]
    assert not StageChange.objects.exists()


def test_model_field_limits_reads_the_tightest_validators():
    assert model_field_limits(Procurement, "description") == {
        "max_length": LONG_TEXT_MAX_CHARS
    }
    # PostgreSQL's smallint range, added by Django to the field's validators
    assert model_field_limits(Procurement, "ops_staff_count") == {
        "min_value": 0,
        "max_value": 32767,
    }
    assert model_field_limits(Procurement, "budget_max") == {
        "max_digits": 16,
        "decimal_places": 2,
    }


def test_bounded_refuses_nan_and_infinity_which_min_and_max_let_through():
    finite, low, high = bounded(0, 10)
    assert (type(low), type(high)) == (MinValueValidator, MaxValueValidator)
    for bad in (float("nan"), float("inf")):
        low(bad)  # every comparison with NaN is false: min and max let it pass
        with pytest.raises(ValidationError):
            finite(bad)


def test_a_stored_text_longer_than_its_field_is_not_valid():
    field = StageChange._meta.get_field("note")
    assert stored_value_is_valid(field, "fine")
    assert not stored_value_is_valid(field, "x" * (LONG_TEXT_MAX_CHARS + 1))
