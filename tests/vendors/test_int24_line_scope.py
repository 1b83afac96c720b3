"""Issue 24, one rule for a lump sum's scope (vendors.engine.line_scope): the TCO
honours a description that states what a line includes when its scope field is
empty, the same reading gpu_only uses; a declared scope wins."""

from decimal import Decimal

from tests.vendors.test_support import line, make_bid, make_vendor
from vendors.comparison import pricing


def _package(procurement, org, *, description, scope=None):
    package = line("other", 1, 9_000_000, description=description)
    if scope is not None:
        package["scope"] = scope
    return make_bid(
        procurement,
        make_vendor(org),
        lines=[line("gpu_servers", 8, 2_000_000), package],
    )


def _added(bid, procurement):
    tco = pricing.bid_tco(
        bid, pricing.bid_lines(bid), procurement=procurement, plan=None
    )
    return [h["category"] for h in tco.hidden_costs]


def test_a_package_that_states_its_scope_in_words_is_not_filled_in_again(
    db, org, procurement
):
    bid = _package(procurement, org, description="服务包，含网络、存储及安装")
    assert [li.scope for li in pricing.bid_lines(bid)] == [
        (),
        ("network", "storage", "installation"),
    ]
    added = _added(bid, procurement)
    assert not {"network", "storage", "installation"} & set(added)


def test_a_package_without_a_stated_scope_leaves_the_fill_ins(db, org, procurement):
    bid = _package(procurement, org, description="服务包")
    added = _added(bid, procurement)
    # without a plan there is no storage need to fill in (storage_cost: None)
    assert {"network", "installation"} <= set(added)


def test_the_declared_scope_wins_over_the_description(db, org, procurement):
    bid = _package(
        procurement, org, description="服务包，含网络、存储及安装", scope=["network"]
    )
    assert pricing.bid_lines(bid)[1].scope == ("network",)
    added = _added(bid, procurement)
    assert "network" not in added
    assert "installation" in added
    assert pricing.bid_lines(bid)[1].amount == Decimal(9_000_000)
