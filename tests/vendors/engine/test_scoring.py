from decimal import Decimal

import pytest

from vendors.engine.scoring import (
    Criterion,
    EvaluatorMark,
    RankedBid,
    ScoringInputError,
    aggregate_criterion,
    apply_technical_threshold,
    evaluate_bid,
    evaluate_sealed_envelope,
    price_scores,
    rank_bids,
    section_score,
    weighted_total_100,
)

CRITERIA = (
    Criterion("performance", "technical", weight=2),
    Criterion("network", "technical", weight=1),
    Criterion("support", "service", weight=1),
)


def test_criterion_mean_spread_and_population_stdev():
    # marks 2, 4, 3: mean 3, spread 4-2 = 2, pstdev sqrt((1+1+0)/3) = 0.816497
    score = aggregate_criterion("performance", [2, 4, 3])
    assert score.mean_points == 3.0
    assert score.spread_points == 2
    assert score.stdev_points == pytest.approx(0.816497, abs=1e-6)
    assert score.evaluator_count == 3
    assert score.disagreement is False  # 2 is not above the 2-point threshold


def test_spread_above_two_points_is_a_disagreement():
    # 1 vs 4: spread 3 > 2
    assert aggregate_criterion("network", [1, 4]).disagreement is True
    assert (
        aggregate_criterion("network", [1, 4], disagreement_points=3).disagreement
        is False
    )


@pytest.mark.parametrize("marks", [[], [5.5], [-1], [float("nan")]])
def test_missing_or_out_of_range_marks_are_rejected(marks):
    with pytest.raises(ScoringInputError):
        aggregate_criterion("performance", marks)


def test_section_score_is_weighted_mean_of_its_criteria():
    # technical = (2*4 + 1*1) / 3 = 3.0; "support" belongs to another section
    score = section_score(
        "technical", {"performance": 4, "network": 1, "support": 0}, CRITERIA
    )
    assert score.points == 3.0


def test_section_score_without_marks_for_a_criterion_is_an_error():
    with pytest.raises(ScoringInputError, match="network"):
        section_score("technical", {"performance": 4}, CRITERIA)


def test_weighted_total_normalises_section_weights_to_0_100():
    # (3*4 + 1*2) / 4 = 3.5 points -> 3.5 / 5 * 100 = 70
    total = weighted_total_100(
        {"technical": 4, "service": 2}, {"technical": 3, "service": 1}
    )
    assert total == 70.0


def test_evaluate_bid_end_to_end_with_two_evaluators():
    marks = [
        EvaluatorMark("alice", "performance", 4),
        EvaluatorMark("bob", "performance", 5),  # mean 4.5
        EvaluatorMark("alice", "network", 1),
        EvaluatorMark("bob", "network", 4),  # mean 2.5, spread 3 -> disagreement
        EvaluatorMark("alice", "support", 3),
        EvaluatorMark("bob", "support", 3),  # mean 3
    ]
    result = evaluate_bid(marks, CRITERIA, {"technical": 0.7, "service": 0.3})
    # technical = (2*4.5 + 1*2.5) / 3 = 11.5/3 = 3.8333; service = 3
    # total = (0.7*3.8333 + 0.3*3) / 1.0 / 5 * 100 = (2.68333 + 0.9) * 20 = 71.6667
    assert [s.points for s in result.sections] == pytest.approx([11.5 / 3, 3.0])
    assert result.total_100 == pytest.approx(71.666667, abs=1e-6)
    assert result.disagreements == ("network",)


def test_evaluate_bid_rejects_marks_for_unknown_criteria():
    with pytest.raises(ScoringInputError, match="unknown criterion"):
        evaluate_bid(
            [EvaluatorMark("a", "colour", 3)], CRITERIA, {"technical": 1, "service": 1}
        )


def test_ranking_orders_by_score_and_ties_share_a_rank():
    ranking = rank_bids({"c": 80.0, "a": 90.0, "b": 80.0, "d": 70.0})
    assert ranking == [
        RankedBid("a", 90.0, 1),
        RankedBid("b", 80.0, 2),
        RankedBid("c", 80.0, 2),
        RankedBid("d", 70.0, 4),
    ]


def test_float_noise_does_not_split_a_tie():
    ranking = rank_bids({"x": 0.1 + 0.2, "y": 0.3})
    assert [r.rank for r in ranking] == [1, 1]


def test_tie_is_broken_by_the_lower_tco():
    ranking = rank_bids(
        {"a": 80.0, "b": 80.0},
        tie_break_cny={"a": Decimal("50000000"), "b": Decimal("45000000")},
    )
    assert [(r.bid_id, r.rank) for r in ranking] == [("b", 1), ("a", 2)]


def test_ranking_changes_when_section_weights_change():
    # bid "fast": technical 5, service 1; bid "kind": technical 3, service 5
    sections = {
        "fast": {"technical": 5, "service": 1},
        "kind": {"technical": 3, "service": 5},
    }

    def totals(weights):
        return {b: weighted_total_100(s, weights) for b, s in sections.items()}

    # technical-heavy 4:1 -> fast (4*5+1)/5*20 = 84, kind (4*3+5)/5*20 = 68
    tech_heavy = totals({"technical": 4, "service": 1})
    assert tech_heavy == {"fast": 84.0, "kind": 68.0}
    assert rank_bids(tech_heavy)[0].bid_id == "fast"
    # equal weights -> fast (5+1)/2*20 = 60, kind (3+5)/2*20 = 80
    equal = totals({"technical": 1, "service": 1})
    assert equal == {"fast": 60.0, "kind": 80.0}
    assert rank_bids(equal)[0].bid_id == "kind"


def test_price_score_lowest_tco_gets_full_marks_others_proportional():
    # 40M is lowest -> 100; 50M -> 100 * 40/50 = 80; 80M -> 50
    scores = price_scores(
        {"a": Decimal("40000000"), "b": Decimal("50000000"), "c": Decimal("80000000")}
    )
    assert scores == {"a": 100.0, "b": 80.0, "c": 50.0}


@pytest.mark.parametrize("tco", [Decimal(0), Decimal(-1), Decimal("NaN")])
def test_non_positive_tco_is_rejected(tco):
    with pytest.raises(ScoringInputError):
        price_scores({"a": tco})


def test_threshold_excludes_bids_below_and_keeps_bids_at_it():
    qualified, excluded = apply_technical_threshold(
        {"a": 60.0, "b": 59.99, "c": 75}, 60
    )
    assert qualified == ["a", "c"]
    assert excluded == ["b"]


def test_sealed_envelope_excluded_cheap_bid_does_not_set_the_price_baseline():
    technical = {"cheap": 50.0, "solid": 80.0, "premium": 90.0}
    tco = {
        "cheap": Decimal("20000000"),
        "solid": Decimal("40000000"),
        "premium": Decimal("50000000"),
    }
    result = evaluate_sealed_envelope(technical, tco, threshold_100=60)
    assert result.excluded == ("cheap",)
    # baseline is solid's 40M, not cheap's 20M: solid 100, premium 100*40/50 = 80
    assert result.price_100 == {"solid": 100.0, "premium": 80.0}
    # combined 0.6/0.4: solid 0.6*80 + 0.4*100 = 88; premium 0.6*90 + 0.4*80 = 86
    assert [(r.bid_id, round(r.score, 6), r.rank) for r in result.ranking] == [
        ("solid", 88.0, 1),
        ("premium", 86.0, 2),
    ]


def test_sealed_envelope_price_weight_can_flip_the_winner():
    technical = {"solid": 80.0, "premium": 90.0}
    tco = {"solid": Decimal("40000000"), "premium": Decimal("50000000")}
    # 0.9/0.1: solid 72 + 10 = 82; premium 81 + 8 = 89
    result = evaluate_sealed_envelope(
        technical, tco, threshold_100=60, technical_weight=0.9, price_weight=0.1
    )
    assert [r.bid_id for r in result.ranking] == ["premium", "solid"]
    assert result.ranking[0].score == pytest.approx(89.0)
