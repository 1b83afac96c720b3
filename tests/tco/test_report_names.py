"""The TCO report names the plan's accelerator by its catalogue name and keeps a
3.5 TB store at 3.5 TB (issue 20, item 4)."""

import io

import pytest
from django.core.management import call_command

from tco.report import _sizing_shown

pytestmark = pytest.mark.django_db


def test_the_plan_is_shown_by_names_and_unrounded_figures():
    call_command("load_catalog", verbosity=0, stdout=io.StringIO())
    shown = _sizing_shown(
        {"accelerator": "h20-sxm-96gb", "storage_tb": 3.5, "it_power_kw": 72.0}
    )
    # The name accelerators.csv gives the row h20-sxm-96gb.
    assert shown == {
        "accelerator": "NVIDIA HGX H20 96GB (China-specific)",
        "storage_tb": "3.5",
        "it_power_kw": "72",
    }


def test_a_snapshot_with_its_name_keeps_it():
    shown = _sizing_shown({"accelerator": "x", "accelerator_name": "Named"})
    assert shown["accelerator"] == "Named" and shown["storage_tb"] == "—"


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_methodology_names_inputs_and_categories_not_keys(lang):
    import re

    from django.utils import translation

    from tco.engine import CONVENTIONS
    from tco.report import _conventions, _formula_terms

    with translation.override(lang):
        texts = _conventions({"conventions": CONVENTIONS}, lang)
        terms = _formula_terms(lang)
    joined = " ".join(texts)
    for key in ("fx_usd_cny", "discount_rate", "gpu_servers", "it_power_kw"):
        assert key not in joined, key
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", joined), joined
    assert not {"energy", "staff", "failures", "residual"} & set(terms.values())
    if lang == "zh-hans":
        assert "“汇率（人民币/美元）”" in joined
        assert terms["capex"] == "资本支出"
