"""Ranking per method and regime, ★ items and 符合性审查, restrictive criteria."""

from decimal import Decimal as D

from vendors.engine.regimes import (
    CriterionText,
    DeductionPolicy,
    Method,
    PlanFacts,
    PriceInput,
    Regime,
    evaluated_prices,
    mandatory_from_plan,
    rank,
    restrictive_criteria,
    review_conformity,
    rules_for,
)

GOV = rules_for(Regime.GOV_PROCUREMENT)
TENDER = rules_for(Regime.TENDERING)


def _prices(**quoted):
    return evaluated_prices(
        [PriceInput(b, D(p), None, False, False) for b, p in quoted.items()],
        DeductionPolicy(),
    )


def _order(entries):
    return [(e.bid_id, e.rank) for e in entries]


def test_comprehensive_ties_go_to_the_lower_price_then_share_a_rank():
    prices = _prices(a=10_000_000, b=9_000_000, c=9_000_000, d=8_000_000)
    totals = {"a": D("85.004"), "b": D("85.001"), "c": D("85"), "d": D("70")}
    # a, b, c tie at 85.00 (2 decimals); b and c cheaper than a, b == c in price
    entries = rank(GOV, Method.COMPREHENSIVE, totals, prices, {"a", "b", "c", "d"})
    assert _order(entries) == [("b", 1), ("c", 1), ("a", 3), ("d", 4)]
    assert all(e.candidate for e in entries)  # 政府采购: no statutory cap


def test_invalid_bids_are_not_ranked():
    prices = _prices(a=10_000_000, x=1_000_000)
    entries = rank(GOV, Method.COMPREHENSIVE, {"a": D(80), "x": D(99)}, prices, {"a"})
    assert _order(entries) == [("a", 1)]


def test_lowest_price_method_ranks_by_evaluated_price_and_ties_share():
    prices = _prices(a=10_000_000, b=9_000_000, c=9_000_000)
    entries = rank(GOV, Method.LOWEST_PRICE, {}, prices, {"a", "b", "c"})
    assert _order(entries) == [("b", 1), ("c", 1), ("a", 3)]
    assert entries[0].total is None


def test_tendering_recommends_at_most_three_candidates():
    prices = _prices(a=1, b=2, c=3, d=4)
    entries = rank(TENDER, Method.LOWEST_PRICE, {}, prices, set(prices))
    assert [e.candidate for e in entries] == [True, True, True, False]
    assert TENDER.candidates_article.article == "第五十三条"


PLAN = PlanFacts(
    delivered_pflops=D("90"),
    network_gbps_per_gpu=D(400),
    storage_tb=D(2000),
    delivery_days=60,
)
H200_FACTS = {
    "delivered_pflops": D("94.9"),
    "memory_fit": True,
    "network_gbps_per_gpu": D(400),
    "storage_tb": D(2000),
    "delivery_days": D(60),
    "open_scheduler": True,
}


def test_mandatory_items_from_the_plan():
    items = mandatory_from_plan(PLAN)
    assert [(i.key, i.comparison, i.required) for i in items] == [
        ("delivered_pflops", "gte", D(90)),
        ("memory_fit", "true", True),
        ("network_gbps_per_gpu", "gte", D(400)),
        ("storage_tb", "gte", D(2000)),
        ("delivery_days", "lte", D(60)),
        ("open_scheduler", "true", True),
    ]


def test_h20_bid_fails_delivered_compute_and_is_invalid():
    items = mandatory_from_plan(PLAN)
    ok = review_conformity(
        items,
        H200_FACTS,
        budget_cny=D(40_000_000),
        ceiling_cny=None,
        price_cny=D(38_000_000),
        rules=GOV,
    )
    assert ok.valid and ok.failures == ()
    h20 = {**H200_FACTS, "delivered_pflops": D("14.2")}
    result = review_conformity(
        items,
        h20,
        budget_cny=D(40_000_000),
        ceiling_cny=None,
        price_cny=D(15_000_000),
        rules=GOV,
    )
    assert not result.valid
    (failure,) = result.failures
    assert (failure.code, failure.item_key, failure.offered, failure.required) == (
        "mandatory_not_met",
        "delivered_pflops",
        D("14.2"),
        D(90),
    )


def test_over_budget_or_ceiling_is_invalid_and_missing_fact_fails():
    items = mandatory_from_plan(PLAN)
    facts = {k: v for k, v in H200_FACTS.items() if k != "storage_tb"}
    result = review_conformity(
        items,
        facts,
        budget_cny=D(40_000_000),
        ceiling_cny=D(39_000_000),
        price_cny=D(40_000_001),
        rules=GOV,
    )
    assert [(f.code, f.item_key) for f in result.failures] == [
        ("missing_fact", "storage_tb"),
        ("over_budget", "budget_cny"),
        ("over_ceiling", "ceiling_cny"),
    ]
    assert result.failures[1].article.article == "第六十三条"
    tender = review_conformity(
        items,
        H200_FACTS,
        budget_cny=None,
        ceiling_cny=D(39_000_000),
        price_cny=D(39_500_000),
        rules=TENDER,
    )
    assert tender.failures[0].article.article == "第五十一条"


def test_default_checklist_similar_client_criterion_is_flagged():
    (violation,) = restrictive_criteria(
        GOV, [CriterionText("case_similar", "Similar client and scenario")]
    )
    assert violation.code == "restrict_similar_client"
    assert violation.article.article == "第二十条" and violation.article.primary


def test_restrictive_criteria_by_kind():
    criteria = [
        CriterionText("c1", "投标人须提供近三年本省高校同类客户案例，每个得2分"),
        CriterionText(
            "c2", "提供同等规模训练集群的交付案例（不限地区、行业），每个得2分"
        ),
        CriterionText("c3", "注册资本不低于5000万元"),
        CriterionText(
            "c4", "Comparable deployments of at least 64 GPUs with the same workload"
        ),
    ]
    found = {(v.field, v.code) for v in restrictive_criteria(GOV, criteria)}
    assert found == {
        ("c1", "restrict_similar_client"),
        ("c1", "restrict_client_region"),
        ("c1", "restrict_client_industry"),
        ("c3", "restrict_size"),
    }
    size = next(
        v for v in restrictive_criteria(GOV, criteria) if v.code == "restrict_size"
    )
    assert size.article.article == "第十七条"  # 87号令, secondary
    assert restrictive_criteria(rules_for(Regime.COMMERCIAL), criteria) == ()
    assert restrictive_criteria(TENDER, criteria[:1])[0].article.article == "第三十二条"
