"""The ★ items in the RFP pack: none before tender settings are saved, the plan's
items with their thresholds after, in the DOCX as in the content, frozen with the
published version."""

import io

import docx
from django.utils import timezone, translation

from tests.vendors import tender_support
from tests.vendors.tender_support import set_regime
from vendors.rfp.content import rfp_content
from vendors.rfp.pack import rfp_pack
from vendors.rfp.publication import publish_first_version

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world


def _docx_rows(data: bytes) -> list[list[str]]:
    document = docx.Document(io.BytesIO(data))
    return [[c.text for c in row.cells] for t in document.tables for row in t.rows]


def test_no_star_items_in_the_pack_before_tender_settings(tender_world):
    with translation.override("en"):
        assert rfp_content(tender_world)["mandatory"] == []


def test_pack_prints_the_star_items_with_thresholds(tender_world, buyer):
    set_regime(tender_world, buyer, "gov_procurement")
    with translation.override("en"):
        rows = rfp_content(tender_world)["mandatory"]
    assert [(r["title"], r["required"]) for r in rows] == [
        ("★ delivered compute", "≥ 94.94 PFLOPS"),
        ("★ the model fits in memory", "required"),
        ("★ network per GPU", "≥ 400 Gbit/s"),
        ("★ storage capacity", f"{rows[3]['required']}"),
        ("★ open scheduler (Slurm or Kubernetes)", "required"),
    ]
    assert rows[3]["required"].startswith("≥ ") and rows[3]["required"].endswith("TB")
    data = rfp_pack(tender_world, "docx", language="zh-hans")[0]
    flat = _docx_rows(data)
    assert rows[0]["source"] == "sizing plan: delivered compute the workload needs"
    assert [
        "1",
        "★ 交付算力",
        "≥ 94.94 PFLOPS",
        "规模测算方案：负载所需的交付算力",
    ] in flat


def test_published_version_keeps_its_star_items(tender_world, buyer):
    set_regime(tender_world, buyer, "gov_procurement")
    version = publish_first_version(tender_world, buyer, now=timezone.now())
    assert [i["key"] for i in version.facts["mandatory"]][0] == "delivered_pflops"
    with translation.override("en"):
        rows = rfp_content(tender_world)["mandatory"]
    assert rows[0]["required"] == "≥ 94.94 PFLOPS"
