import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clusterbuy.models import Procurement
from vendors import comparison
from vendors.engine.compliance import requirement_value
from vendors.models import AuditEntry, Bid, BidLineItem, CaseStudy, Score, Vendor


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    procurement = Procurement.objects.get(name__startswith="大模型训练")
    buyer = get_user_model().objects.get(username="demo-buyer")
    return procurement, buyer


def counts():
    return tuple(
        m.objects.count()
        for m in (Vendor, Bid, BidLineItem, Score, CaseStudy, AuditEntry)
    )


def test_demo_is_idempotent(demo):
    before = counts()
    call_command("load_demo", stdout=open("/dev/null", "w"))
    assert counts() == before
    assert before[:2] == (3, 3)


def test_demo_bids_show_the_detectors_and_compliance_against_the_real_plan(demo):
    procurement, buyer = demo
    result = comparison.build_comparison(procurement=procurement, user=buyer)
    assert result.plan is not None, "the sizing demo computes a plan"
    by_name = {c.bid.vendor.name: c for c in result.columns}
    codes = {name: {str(p.code) for p in c.pitfalls} for name, c in by_name.items()}
    assert codes["智算集成 Balanced Compute Co."] == set()
    assert "gpu_only" in codes["卡多多服务器 GPU Box Ltd"]
    assert {"over_promising", "template_proposal", "closed_ecosystem"} <= codes[
        "承诺科技 Promise Tech"
    ]
    balanced = by_name["智算集成 Balanced Compute Co."]
    assert {i.status for i in balanced.compliance} == {"pass"}
    compute = balanced.compliance[0]
    # The balanced bid offers the plan's GPUs: the same effective compute (GPUs x
    # dense BF16 peak, PFLOPS) and the plan's own training days.
    plan_pflops = balanced.delivered["plan"]["compute_pflops"]
    assert plan_pflops == pytest.approx(result.plan.gpu_count * 989 / 1000)
    # required as the RFP states it (rounded toward the plan's side): the plan's own
    # compute passes it (issue 21, item 9)
    assert (compute.item, compute.required, compute.offered) == (
        "compute",
        requirement_value(plan_pflops, at_least=True),
        plan_pflops,
    )
    assert compute.offered >= compute.required
    promise = by_name["承诺科技 Promise Tech"]
    network = next(i for i in promise.compliance if i.item == "network_gbps_per_gpu")
    assert (network.status, network.offered) == ("fail", 200)
    assert balanced.rank == 1
    assert by_name["卡多多服务器 GPU Box Ltd"].hidden_costs
