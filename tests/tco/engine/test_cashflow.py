"""Hand-computed TCO of the conftest scenario (arithmetic in the comments)."""

import json

import numpy as np
import numpy_financial as npf
import pytest

from tco.engine import ENGINE_VERSION, OPEX_CATEGORIES, compute, inputs_from_dict
from tco.engine.cashflow import monthly_opex

# capex total = 1,000,000 + 200,000 + 100,000 + 50,000 + 30,000 + 20,000 = 1,400,000
# hardware    = 1,000,000 + 200,000 + 100,000                            = 1,300,000
# energy/yr   = 10 kW x 0.5 x 1.2 x 8760 h x 1.0                         =    52,560
# support     = 1,300,000 x 0.10 in year 3 only (warranty 2 years)       =   130,000
# software    = 12,000/yr; staff = 0.5 x 200,000                         =   100,000
# failures    = 1,300,000 x 0.05 x 0.4                                   =    26,000
# residual    = 1,300,000 x 0.2, at the end of year 3                    =   260,000
# year 1 = year 2 = 52,560 + 12,000 + 100,000 + 26,000                   =   190,560
# year 3 = 190,560 + 130,000 - 260,000                                   =    60,560
# total = 1,400,000 + 190,560 + 190,560 + 60,560                         = 1,841,680
YEAR_TOTALS = [1_400_000, 190_560, 190_560, 60_560]


def test_year_table_matches_hand_computation(hand_inputs):
    rows = compute(hand_inputs).years
    assert [r["year"] for r in rows] == [0, 1, 2, 3]
    assert [r["total"] for r in rows] == pytest.approx(YEAR_TOTALS)
    assert rows[0]["gpu_servers"] == 1_000_000
    assert rows[0]["installation"] == 30_000
    assert rows[1]["energy"] == pytest.approx(52_560)
    assert rows[1]["support"] == 0
    assert rows[3]["support"] == pytest.approx(130_000)
    assert rows[2]["failures"] == pytest.approx(26_000)
    assert rows[3]["staff"] == pytest.approx(100_000)
    assert rows[3]["residual"] == -260_000


def test_total_and_cost_per_gpu_hour(hand_inputs):
    result = compute(hand_inputs)
    assert result.total_cost == pytest.approx(1_841_680)
    assert result.capex_total == 1_400_000
    assert result.hardware_capex == 1_300_000
    # useful hours = 8 x 8760 x 0.5 x 3 = 105,120; 1,841,680 / 105,120 = 17.51979...
    assert result.useful_gpu_hours == pytest.approx(105_120)
    assert result.cost_per_gpu_hour == pytest.approx(1_841_680 / 105_120)
    # 10 x 0.5 x 1.2 x 8760 / 1000 = 52.56 MWh
    assert result.energy_mwh_per_year == pytest.approx(52.56)


def test_npv_matches_numpy_financial(hand_inputs):
    # 1,400,000 + 190,560/1.1 + 190,560/1.21 + 60,560/1.331 = 1,776,223.59
    result = compute(hand_inputs)
    assert result.npv_cost == pytest.approx(npf.npv(0.10, YEAR_TOTALS))
    assert result.npv_cost == pytest.approx(1_776_223.59, abs=0.01)


def test_cloud_options(hand_inputs):
    cloud = compute(hand_inputs).cloud
    # useful hours/yr = 35,040; on-demand 35,040 x 40 = 1,401,600/yr x 3 = 4,204,800
    assert cloud["on_demand"]["total"] == pytest.approx(4_204_800)
    assert cloud["on_demand"]["npv"] == pytest.approx(
        npf.npv(0.10, [0, 1_401_600, 1_401_600, 1_401_600])
    )
    assert cloud["reserved"]["total"] == pytest.approx(2_102_400)  # 35,040 x 20 x 3
    # spot buys 20 % more hours: 35,040 x 1.2 x 15 = 630,720/yr x 3 = 1,892,160
    assert cloud["spot"]["total"] == pytest.approx(1_892_160)
    assert cloud["spot"]["per_gpu_hour"] == pytest.approx(18.0)
    assert cloud["spot"]["gpu_hours"] == pytest.approx(105_120 * 1.2)


def test_break_even_months(hand_inputs):
    be = compute(hand_inputs).break_even_month
    # on-demand: 1,400,000 + 15,880 m <= 116,800 m  ->  m >= 13.87  -> month 14
    assert be["on_demand"] == 14
    # reserved: month 35 on-prem 2,074,966.67 > cloud 2,044,000; month 36 2,101,680 -
    # 260,000 residual = 1,841,680 <= 2,102,400
    assert be["reserved"] == 36
    # spot: only the residual at month 36 makes on-prem (1,841,680) <= 1,892,160
    assert be["spot"] == 36


def test_break_even_is_none_when_cloud_stays_cheaper(hand_data):
    hand_data["cloud_spot_per_gpu_hour"] = 1.0
    assert compute(inputs_from_dict(hand_data)).break_even_month["spot"] is None


def test_cumulative_series_ends_at_totals(hand_inputs):
    result = compute(hand_inputs)
    cum = result.cumulative
    assert cum["month"] == list(range(37))
    assert cum["onprem"][0] == 1_400_000
    assert cum["onprem"][12] == pytest.approx(1_400_000 + 190_560)
    assert cum["onprem"][-1] == pytest.approx(1_841_680)
    assert cum["on_demand"][0] == 0
    assert cum["on_demand"][-1] == pytest.approx(4_204_800)


def test_hybrid_scales_onprem_and_bursts_to_spot(hand_inputs):
    hybrid = compute(hand_inputs).hybrid
    # 0.75 x 1,841,680 = 1,381,260; 0.25 x 1,892,160 = 473,040
    assert hybrid["onprem_total"] == pytest.approx(1_381_260)
    assert hybrid["cloud_total"] == pytest.approx(473_040)
    assert hybrid["total"] == pytest.approx(1_854_300)


def test_escalation_and_colocation(hand_data):
    hand_data |= {
        "electricity_escalation": 0.10,
        "staff_escalation": 0.05,
        "colocation_per_kw_month": 100,
    }
    rows = compute(inputs_from_dict(hand_data)).years
    # energy: 52,560; x 1.1 = 57,816; x 1.21 = 63,597.6
    assert [r["energy"] for r in rows[1:]] == pytest.approx([52_560, 57_816, 63_597.6])
    # staff: 100,000 x 1.05^2 = 110,250 in year 3
    assert rows[3]["staff"] == pytest.approx(110_250)
    # colocation: 10 kW x 100 x 12 = 12,000 a year
    assert rows[1]["colocation"] == pytest.approx(12_000)


def test_fractional_warranty_pays_support_for_the_remaining_months(hand_data):
    hand_data["warranty_years"] = 2.5
    rows = compute(inputs_from_dict(hand_data)).years
    assert rows[3]["support"] == pytest.approx(65_000)  # 130,000 x 6/12


def test_to_dict_is_json_and_rounded(hand_inputs):
    data = compute(hand_inputs).to_dict()
    json.dumps(data)
    assert data["engine_version"] == ENGINE_VERSION == "tco-2.0.0"
    assert data["total_cost"] == 1_841_680.0
    assert data["npv_cost"] == 1_776_223.59
    assert data["break_even_month"] == {"on_demand": 14, "reserved": 36, "spot": 36}
    assert data["years"][3]["residual"] == -260_000.0


def test_one_opex_model_for_a_scenario_and_for_monte_carlo_draws(hand_inputs):
    scenario = monthly_opex(hand_inputs)
    draws = {
        "pue": np.array([1.2, 2.4]),
        "hardware_capex": np.array([1_300_000.0, 2_600_000.0]),
    }
    drawn = monthly_opex(hand_inputs, draws)

    assert set(drawn) == set(OPEX_CATEGORIES) == set(scenario)
    assert scenario["energy"].shape == (36,)
    assert drawn["energy"].shape == drawn["failures"].shape == (2, 36)
    for category in OPEX_CATEGORIES:  # draw 0 sits at the scenario values
        assert np.array_equal(
            np.broadcast_to(drawn[category], (2, 36))[0], scenario[category]
        )
    # 10 kW x 0.5 x 2.4 x 8760 h x 1.0 / 12 = 8,760 a month
    assert drawn["energy"][1] == pytest.approx(np.full(36, 8_760))
    # 2,600,000 x 0.05 x 0.4 / 12 = 4,333.33 a month
    assert drawn["failures"][1] == pytest.approx(np.full(36, 52_000 / 12))
    assert drawn["staff"].shape == (36,)  # no drawn input: the same for every draw
