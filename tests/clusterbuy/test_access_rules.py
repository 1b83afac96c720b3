"""The role rules in one place: evaluation settings and the technical evaluator."""

import pytest
from django import forms

from clusterbuy.access import Capability, can, is_technical_evaluator
from clusterbuy.forms import add_service_error
from clusterbuy.models import Role
from clusterbuy.services import ServiceError
from tests.factories import member


@pytest.mark.parametrize("role", list(Role))
def test_configuring_the_evaluation_is_for_who_manages_vendors_or_decides(org, role):
    user = member(org, role, f"user-{role}")
    assert can(user, Capability.CONFIGURE_EVALUATION) == (
        can(user, Capability.EDIT_VENDORS) or can(user, Capability.DECIDE)
    )
    assert is_technical_evaluator(user) == (role == Role.IT_LEAD)


class _NameForm(forms.Form):
    name = forms.CharField()


def test_service_error_lands_on_its_field_or_above_the_form():
    form = _NameForm({"name": "x"})
    form.is_valid()
    add_service_error(form, ServiceError("taken", field="name"))
    add_service_error(form, ServiceError("elsewhere", field="budget"))
    add_service_error(form, ServiceError("mapped", field="a.b"), field="name")
    assert form.errors == {"name": ["taken", "mapped"], "__all__": ["elsewhere"]}
