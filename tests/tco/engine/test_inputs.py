import json
import math
import re

import pytest

from tco.engine import (
    CAPEX_CATEGORIES,
    CONVENTIONS,
    CONVENTIONS_ZH,
    DEFAULTS,
    REASONS_ZH,
    SOURCES_ZH,
    TcoInputError,
    TcoInputs,
    conventions,
    default_reason,
    default_source,
    defaults_used,
    inputs_from_dict,
    inputs_to_dict,
)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"pue": 0.95}, "pue"),
        ({"electricity_price_per_kwh": -0.1}, "electricity_price_per_kwh"),
        ({"cloud_spot_per_gpu_hour": -1}, "cloud_spot_per_gpu_hour"),
        ({"utilization": 1.2}, "utilization"),
        ({"utilization": 0}, "utilization"),
        ({"hybrid_cloud_share": -0.1}, "hybrid_cloud_share"),
        ({"support_rate": 1.5}, "support_rate"),
        ({"horizon_years": 6}, "horizon_years"),
        ({"horizon_years": 2}, "horizon_years"),
        ({"discount_rate": math.nan}, "discount_rate"),
        ({"fx_usd_cny": math.inf}, "fx_usd_cny"),
        ({"staff_fte": "lots"}, "staff_fte"),
        ({"gpu_count": 0}, "gpu_count"),
        ({"gpu_count": 2.5}, "gpu_count"),
        ({"currency": "EUR"}, "currency"),
        ({"load_factor": True}, "load_factor"),
        ({"not_an_input": 1}, "not_an_input"),
        ({"capex": [{"category": "gpus", "amount": 1}]}, "capex.0.category"),
        (
            {
                "capex": [
                    {"category": "network", "amount": 1},
                    {"category": "storage", "amount": 2},
                    {"category": "gpu_servers", "amount": -5},
                ]
            },
            "capex.2.amount",
        ),
        ({"capex": [{"category": "network", "amount": math.nan}]}, "capex.0.amount"),
    ],
)
def test_bad_input_names_its_field(data, field):
    with pytest.raises(TcoInputError) as err:
        inputs_from_dict(data)
    assert err.value.field == field
    assert err.value.message


def test_empty_dict_gives_documented_defaults():
    inputs = inputs_from_dict({})
    assert inputs == TcoInputs()
    assert inputs.user_fields == frozenset()
    for name, default in DEFAULTS.items():
        assert default.reason and default.source
        if name != "capex":
            assert getattr(inputs, name) == pytest.approx(default.value)


def test_every_input_has_a_default():
    names = {f for f in inputs_to_dict(TcoInputs()) if f != "user_fields"}
    assert names == set(DEFAULTS)


def test_user_fields_are_recorded():
    inputs = inputs_from_dict({"pue": "1.25", "gpu_count": 16, "currency": None})
    assert inputs.user_fields == {"pue", "gpu_count"}
    assert inputs.pue == 1.25
    assert "pue" not in defaults_used(inputs)
    assert "electricity_price_per_kwh" in defaults_used(inputs)


def test_it_power_is_derived_from_gpu_count_when_not_given():
    # 16 GPUs x 10.2 kW / 8 = 20.4 kW
    assert inputs_from_dict({"gpu_count": 16}).it_power_kw == pytest.approx(20.4)
    assert inputs_from_dict({"gpu_count": 16, "it_power_kw": 30}).it_power_kw == 30


@pytest.mark.parametrize(("horizon", "residual"), [(3, 0.31), (4, 0.21), (5, 0.15)])
def test_residual_default_follows_horizon(horizon, residual):
    # (1 - 0.32)^3 = 0.3144, ^4 = 0.2138, ^5 = 0.1454
    assert inputs_from_dict({"horizon_years": horizon}).residual_value_rate == residual


def test_usd_scenario_converts_money_defaults_only():
    inputs = inputs_from_dict(
        {"currency": "USD", "fx_usd_cny": 7.2, "cloud_spot_per_gpu_hour": 2.5}
    )
    assert inputs.electricity_price_per_kwh == pytest.approx(0.0875)  # 0.63 / 7.2
    assert inputs.cloud_on_demand_per_gpu_hour == pytest.approx(6.8806)  # 49.54 / 7.2
    assert inputs.staff_cost_per_fte_year == pytest.approx(55_555.5556)
    assert inputs.cloud_spot_per_gpu_hour == 2.5  # user value, already in USD
    assert inputs.pue == 1.3  # not money


def test_round_trip_through_json(hand_data):
    original = inputs_from_dict(hand_data | {"currency": "USD"})
    again = inputs_from_dict(json.loads(json.dumps(inputs_to_dict(original))))
    assert again == original
    assert again.user_fields == original.user_fields


def test_capex_lines_are_grouped_by_category():
    inputs = inputs_from_dict(
        {
            "capex": [
                {"category": "gpu_servers", "description": "a", "amount": 100},
                {"category": "gpu_servers", "description": "b", "amount": "50.5"},
                {"category": "facility", "amount": 7},
            ]
        }
    )
    by_cat = inputs.capex_by_category()
    assert tuple(by_cat) == CAPEX_CATEGORIES
    assert by_cat["gpu_servers"] == 150.5
    assert inputs.hardware_capex == 150.5
    assert inputs.capex_total == 157.5


@pytest.mark.parametrize(
    "user_fields",
    [[["pue"]], [{"a": 1}], [1], [None], 5, "pue", {"pue": 1}, [["a"], "pue"]],
)
def test_user_fields_of_non_strings_is_an_input_error_not_a_type_error(user_fields):
    with pytest.raises(TcoInputError) as err:
        inputs_from_dict({"pue": 1.2, "user_fields": user_fields})
    assert err.value.field == "user_fields"
    assert err.value.message == "must be a list of input names"


def test_user_fields_with_an_unknown_name_is_an_input_error():
    with pytest.raises(TcoInputError) as err:
        inputs_from_dict({"user_fields": ["pue", "not_an_input"]})
    assert err.value.field == "user_fields"
    assert "not_an_input" in err.value.message


def test_user_fields_may_be_empty_or_null():
    assert inputs_from_dict({"user_fields": []}).user_fields == frozenset()
    assert inputs_from_dict({"user_fields": None}).user_fields == frozenset()
    assert inputs_from_dict({"user_fields": ("pue",)}).user_fields == {"pue"}


CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def test_every_default_has_a_chinese_reason_and_source():
    assert set(REASONS_ZH) == set(DEFAULTS) == set(SOURCES_ZH)
    for name in DEFAULTS:
        assert CJK.search(default_reason(name, "zh-hans")), name
        assert CJK.search(default_source(name, "zh-hans")), name
        assert default_reason(name, "en") == DEFAULTS[name].reason
        assert default_source(name, "en-us") == DEFAULTS[name].source


def test_chinese_reasons_carry_the_numbers_of_the_english_ones():
    # Numbers written as words: "tier-1 city" is 一线城市, "H2 2024" 2024 年下半年.
    worded = {"staff_cost_per_fte_year": {"1"}, "colocation_per_kw_month": {"2"}}
    for name, default in DEFAULTS.items():
        english = set(NUMBER.findall(default.reason)) - worded.get(name, set())
        assert english <= set(NUMBER.findall(REASONS_ZH[name])), name


def test_conventions_in_chinese_match_the_english_ones_item_by_item():
    assert conventions("en") == CONVENTIONS
    assert conventions("zh-hans") == CONVENTIONS_ZH
    assert len(CONVENTIONS_ZH) == len(CONVENTIONS)
    for english, chinese in zip(CONVENTIONS, CONVENTIONS_ZH, strict=True):
        assert CJK.search(chinese)
        assert set(NUMBER.findall(english)) <= set(NUMBER.findall(chinese))


# Issue 10: hostile magnitudes were an OverflowError (gpu_count 1e308) or an infinite
# total (staff_fte 1e308). Every number now has a finite ceiling in the input table.
@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"gpu_count": 1e308}, "gpu_count", "between 1 and 1,000,000"),
        ({"gpu_count": 1_000_001}, "gpu_count", "between 1 and 1,000,000"),
        ({"staff_fte": 1e308}, "staff_fte", "between 0 and 10,000"),
        ({"it_power_kw": 1e12}, "it_power_kw", "between 0 and 2,000,000"),
        (
            {"electricity_price_per_kwh": 1e14},
            "electricity_price_per_kwh",
            "between 0 and 10,000,000,000,000",
        ),
        ({"fx_usd_cny": 1e9}, "fx_usd_cny", "between 0 and 1,000"),
        (
            {"capex": [{"category": "network", "amount": 1e300}]},
            "capex.0.amount",
            "between 0 and 10,000,000,000,000",
        ),
    ],
)
def test_hostile_magnitudes_are_field_errors(data, field, message):
    with pytest.raises(TcoInputError) as err:
        inputs_from_dict(data)
    assert err.value.field == field
    assert message in err.value.message


def test_the_largest_allowed_values_still_compute_finite_totals():
    from tco.engine import compute

    result = compute(
        inputs_from_dict(
            {
                "gpu_count": 1_000_000,
                "staff_fte": 10_000,
                "it_power_kw": 2_000_000,
                "capex": [{"category": "gpu_servers", "amount": 1e13}],
            }
        )
    )
    assert math.isfinite(result.total_cost)
