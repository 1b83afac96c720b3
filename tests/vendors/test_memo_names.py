"""The decision memo names things as a person reads them (issue 20, item 4): the
catalogue's accelerator and model names, the fabric and precision as written, the cost
categories and their sources by their shown names, and a 3.5 TB store as 3.5 TB."""

from __future__ import annotations

import io
import subprocess

import pytest
from django.core.management import call_command
from django.utils import translation

from vendors.models import Decision
from vendors.services.decision_memo import decision_memo_pdf, memo_context

pytestmark = pytest.mark.django_db


def _column(bid: int) -> dict:
    return {
        "bid": bid,
        "label": "Vendor A",
        "vendor": "Vendor A",
        "accelerator": "h20-sxm-96gb",
        "gpu_count": 64,
        "quoted_total": "12000000.00",
        "normalized_tco": "15500000.50",
        "hidden_costs": [],
        "compliance": [],
        "pitfalls": [],
        "sections": {},
        "automatic": {},
        "technical_100": 80.0,
        "price_100": 90.0,
        "weighted_total": 84.0,
        "rank": 1,
        "excluded": False,
        "complete": True,
        "unscored_sections": [],
        "partial_sections": [],
        "invalid": [],
        "tco_breakdown": [
            {
                "code": "energy",
                "category": "energy",
                "amount": "900000.00",
                "source": "default",
                "basis": "",
            },
            {
                "code": "quoted_one_off",
                "category": "gpu_servers",
                "amount": "12000000.00",
                "source": "bid",
                "basis": "1 line(s)",
            },
        ],
    }


def _decision() -> Decision:
    snapshot = {
        "version": 1,
        "chosen_bid": 7,
        "blind": False,
        "prices_hidden": False,
        "requirement": {
            "name": "LLM cluster",
            "description": "",
            "currency": "CNY",
            "budget_min": None,
            "budget_max": "20000000",
            "horizon_years": 5,
            "deployment_site": "colocation",
            "city": "",
            "workloads": [
                {
                    "name": "Serving",
                    "kind": "inference",
                    "model_name": "",
                    "model_preset": "qwen3-235b-a22b",
                    "precision": "fp8",
                }
            ],
        },
        "plan": {
            "accelerator": "h20-sxm-96gb",
            "gpu_count": 64,
            "nodes": 8,
            "fabric": "roce",
            "storage_tb": 3.5,
            "it_power_kw": 72.4,
            "cooling": "air",
        },
        "weights": {},
        "sections": [],
        "columns": [_column(7)],
    }
    return Decision(snapshot=snapshot, rationale="")


@pytest.fixture
def catalogue():
    call_command("load_catalog", verbosity=0, stdout=io.StringIO())


def _text(pdf: bytes, tmp_path) -> str:
    (tmp_path / "memo.pdf").write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", str(tmp_path / "memo.pdf"), "-"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout


def test_the_memo_shows_display_names_not_keys(catalogue, tmp_path):
    with translation.override("en"):
        text = _text(decision_memo_pdf(_decision()), tmp_path)
    # accelerators.csv and model_presets.json name these rows so.
    assert "NVIDIA HGX H20 96GB (China-specific) × 64" in text
    assert "Qwen3-235B-A22B" in text and "FP8" in text and "RoCE" in text
    for key in ("h20-sxm-96gb", "qwen3-235b-a22b", "roce", "fp8"):
        assert key not in text, key
    assert "Energy" in text and "ClusterBuy default, the same for every bid" in text
    assert "15,500,001" in text  # 15,500,000.50 rounded half up to the yuan


def test_the_memo_keeps_the_half_terabyte(catalogue):
    with translation.override("zh-hans"):
        plan = memo_context(_decision())["plan"]
    assert plan["storage_tb"] == "3.5"
    assert plan["fabric"] == "RoCE"


def test_a_breakdown_line_count_reads_in_the_language():
    from tco.labels import shown_basis

    with translation.override("en"):
        assert shown_basis("1 line(s)") == "1 price line"
        assert shown_basis("3 line(s)") == "3 price lines"
        assert shown_basis("8,760 h x 1.3") == "8,760 h x 1.3"
    with translation.override("zh-hans"):
        assert shown_basis("3 line(s)") == "3 条报价行"
