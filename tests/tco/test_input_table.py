"""Everything that lists the TCO inputs is built from the engine's input table."""

import re

from django.utils import translation

from tco import api, forms, labels, services
from tco.engine import CAPEX_CATEGORIES, DEFAULTS, INPUT_TABLE, TcoInputs, convert_money

CJK = re.compile(r"[\u4e00-\u9fff]")
SCALAR = [spec.name for spec in INPUT_TABLE if spec.kind != "lines"]


def test_the_dataclass_and_the_defaults_have_one_field_per_row():
    names = [spec.name for spec in INPUT_TABLE]
    assert list(TcoInputs.__dataclass_fields__) == [*names, "user_fields"]
    assert list(DEFAULTS) == names


def test_every_scalar_input_is_in_exactly_one_form_section():
    in_sections = [name for _title, names in forms.SECTIONS for name in names]
    assert sorted(in_sections) == sorted(SCALAR)
    assert set(forms.SCALAR_INPUTS) == set(SCALAR)


def test_the_api_serializer_has_one_field_per_input():
    fields = api.TcoInputsSerializer().fields
    assert list(fields) == [spec.name for spec in INPUT_TABLE] + ["user_fields"]


def test_labels_follow_the_active_language():
    with translation.override("zh-hans"):
        assert str(labels.INPUT_LABELS["pue"]) == "PUE"
        assert str(labels.INPUT_LABELS["gpu_count"]) == "GPU 数量"
        assert all(CJK.search(str(labels.CAPEX_LABELS[c])) for c in CAPEX_CATEGORIES)
    with translation.override("en"):
        assert str(labels.INPUT_LABELS["gpu_count"]) == "Number of GPUs"
        assert str(labels.CAPEX_LABELS["facility"]) == "Power and cooling"


def test_the_services_expose_the_one_currency_conversion():
    assert services.convert_money is convert_money
