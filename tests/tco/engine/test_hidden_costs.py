from tco.engine import hidden_cost_check, inputs_from_dict

CATEGORIES = [
    "installation",
    "software_licences",
    "support_after_warranty",
    "network",
    "storage",
    "facility",
    "staff",
]


def test_complete_purchase_has_no_warnings(hand_inputs):
    rows = hidden_cost_check(hand_inputs)
    assert [r["category"] for r in rows] == CATEGORIES
    assert {r["status"] for r in rows} == {"ok"}
    amounts = {r["category"]: r["amount"] for r in rows}
    # software: 20,000 once + 3 x 12,000 = 56,000; staff 3 x 100,000
    assert amounts["software_licences"] == 56_000
    assert amounts["staff"] == 300_000
    assert amounts["support_after_warranty"] == 130_000


def test_gpu_only_bid_is_flagged_for_every_missing_category():
    inputs = inputs_from_dict(
        {
            "capex": [{"category": "gpu_servers", "amount": 1_000_000}],
            "staff_fte": 0,
            "warranty_years": 5,
        }
    )
    status = {r["category"]: r["status"] for r in hidden_cost_check(inputs)}
    assert status == dict.fromkeys(CATEGORIES, "warning")
    assert all(r["message"] for r in hidden_cost_check(inputs))


def test_colocation_covers_facility():
    inputs = inputs_from_dict({"colocation_per_kw_month": 900})
    facility = next(r for r in hidden_cost_check(inputs) if r["category"] == "facility")
    assert facility["status"] == "ok"
