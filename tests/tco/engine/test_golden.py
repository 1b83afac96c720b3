"""The TCO engine's outputs over a fixed set of inputs, against ``golden/tco.json`` and
the ENGINE_VERSION it records (tests/golden.py: a changed output needs a version bump;
``UPDATE_GOLDEN=1`` regenerates after one). The inputs are given in full (the input
table's defaults are an engine output too: a changed default moves the figures)."""

from __future__ import annotations

from dataclasses import asdict
from decimal import Decimal
from pathlib import Path

from tco.engine import ENGINE_VERSION, inputs_from_dict
from tco.engine.analysis import full_analysis
from tco.engine.normalise import BidLine, normalise_tco
from tco.price_book import price_book
from tests.golden import check_golden
from tests.tco.conftest import HAND_INPUTS

GOLDEN = Path(__file__).parent / "golden"
SCENARIOS = {
    "hand_scenario": HAND_INPUTS,
    "defaults_512_gpus_usd": {"currency": "USD", "gpu_count": 512, "horizon_years": 5,
                              "capex": [{"category": "gpu_servers",
                                         "description": "64 x 8-GPU server",
                                         "amount": 16_000_000}]},
}  # fmt: skip
BID = [
    BidLine("gpu_servers", Decimal("12000000.00"), False),
    BidLine("network", Decimal("900000.00"), False),
    BidLine("support", Decimal("300000.00"), True),
]


def _outputs() -> dict:
    outputs = {}
    for name, data in SCENARIOS.items():
        analysis = full_analysis(inputs_from_dict(data), draws=500, seed=7)
        analysis.pop("defaults")  # the reasons and sources of the defaults used
        outputs[name] = analysis
    normalised = normalise_tco(
        BID,
        horizon_years=4,
        currency="CNY",
        gpu_count=256,
        it_power_kw=None,
        warranty_years=3,
        on_prem=True,
        price_book=price_book(),
    )
    outputs["bid_normalised"] = asdict(normalised)
    return outputs


def test_the_tco_outputs_match_their_engine_version():
    check_golden(
        GOLDEN / "tco.json",
        version=ENGINE_VERSION,
        where="tco/engine/version.py",
        outputs=_outputs(),
    )
