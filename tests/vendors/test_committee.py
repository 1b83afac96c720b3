"""The committee's roster per regime (87号令 第四十七条), independent scoring, the mean
of the submitted members, changes after summation (第六十四条) and dissent."""

from decimal import Decimal as D

import pytest
from django.utils import translation

from clusterbuy.services import ServiceError
from tests.vendors import committee_support
from tests.vendors.committee_support import MARKS, mark_all, score_and_submit
from tests.vendors.tender_support import set_regime
from vendors.models import AuditEntry, CommitteeScore, ScoreChange
from vendors.services import committee, committee_scoring

h200_plan = committee_support.h200_plan  # fixtures
tender_world = committee_support.tender_world
gov_world = committee_support.gov_world
seated = committee_support.seated
experts = committee_support.experts


def _users(buyer, manager, experts):
    return [buyer, manager, *experts]


def test_gov_committee_of_seven_with_five_experts_is_valid(seated):
    procurement, _bids = seated
    status = committee.committee_status(procurement)
    # 40 M CNY budget >= 10 M: at least 7 (87号令 第四十七条); 5 of 7 experts >= 2/3.
    assert status["min_size"] == 7
    assert status["valid"] and status["violations"] == []
    members = committee.members_of(committee.committee_of(procurement))
    assert [m.role for m in members].count("expert") == 5
    assert [m.is_chair for m in members] == [True] + [False] * 6


def test_gov_committee_of_five_with_two_experts_is_refused(
    gov_world, buyer, manager, experts, it_lead
):
    procurement, _bids = gov_world
    seats = [
        committee.Seat(buyer, "buyer_rep"),
        committee.Seat(manager, "buyer_rep"),
        committee.Seat(it_lead, "buyer_rep"),
        committee.Seat(experts[0], "expert"),
        committee.Seat(experts[1], "expert"),
    ]
    with translation.override("en"), pytest.raises(committee.CommitteeInvalid) as error:
        committee.set_committee(procurement=procurement, user=buyer, seats=seats)
    messages = error.value.errors["members"]
    assert messages == [
        "The committee has 5 members; at least 7 are required (budget of 10 M CNY "
        "or more, complex or high-impact project). (《政府采购货物和服务招标投标管理办法》"
        "第四十七条)",
        "Experts must be at least two thirds of the committee (2 of 5). "
        "(《政府采购货物和服务招标投标管理办法》第四十七条)",
    ]
    with (
        translation.override("zh-hans"),
        pytest.raises(committee.CommitteeInvalid) as zh,
    ):
        committee.set_committee(procurement=procurement, user=buyer, seats=seats)
    assert zh.value.errors["members"][1].startswith(
        "评审专家不得少于成员总数的三分之二（5 人中 2 人）。"
    )
    assert committee.committee_of(procurement) is None or not committee.members_of(
        committee.committee_of(procurement)
    )


def test_small_budget_needs_five_and_commercial_has_no_minimum(
    gov_world, buyer, experts
):
    procurement, _bids = gov_world
    procurement.budget_max = D(5_000_000)
    procurement.save(update_fields=["budget_max"])
    seats = [committee.Seat(buyer, "buyer_rep")] + [
        committee.Seat(e, "expert") for e in experts[:4]
    ]
    committee.set_committee(procurement=procurement, user=buyer, seats=seats)
    assert committee.committee_status(procurement)["min_size"] == 5
    set_regime(procurement, buyer, "commercial")
    committee.set_committee(
        procurement=procurement, user=buyer, seats=[committee.Seat(buyer, "buyer_rep")]
    )
    status = committee.committee_status(procurement)
    assert status["min_size"] == 0 and status["valid"]


def test_an_outsider_cannot_sit_on_the_committee(gov_world, buyer, outsider):
    procurement, _bids = gov_world
    with pytest.raises(ServiceError) as error:
        committee.set_committee(
            procurement=procurement,
            user=buyer,
            seats=[committee.Seat(outsider, "expert")],
        )
    assert error.value.field == "members"


def test_a_member_sees_only_their_own_marks_before_submitting(
    seated, buyer, manager, experts
):
    procurement, bids = seated
    mark_all(procurement, experts[0], bids["A"], 4)
    mark_all(procurement, experts[1], bids["A"], 2)
    visible = committee_scoring.visible_members(procurement, experts[1])
    assert [m.user for m in visible] == [experts[1]]
    for name in "BC":
        mark_all(procurement, experts[0], bids[name], 3)
    committee_scoring.submit_member_scores(procurement=procurement, user=experts[0])
    # expert 1 has not submitted: still only their own; expert 0 sees the submitted.
    assert [
        m.user for m in committee_scoring.visible_members(procurement, experts[1])
    ] == [experts[1]]
    assert [
        m.user for m in committee_scoring.visible_members(procurement, experts[0])
    ] == [experts[0]]
    # a non-member sees no marks before summation
    assert committee_scoring.visible_members(procurement, buyer.__class__()) == []


def test_the_invalid_bid_is_not_on_the_board_and_submission_needs_every_mark(
    seated, experts
):
    procurement, bids = seated
    board = committee_scoring.board(procurement=procurement, user=experts[0])
    assert sorted(b.label for b in board) == ["A", "B", "C"]
    mark_all(procurement, experts[0], bids["A"], 4)
    with pytest.raises(ServiceError) as error:
        committee_scoring.submit_member_scores(procurement=procurement, user=experts[0])
    assert error.value.field == "points"


def test_pre_scores_are_advice_and_the_committee_score_is_the_members_mean(
    seated, buyer, manager, experts
):
    procurement, bids = seated
    board = {
        b.label: b for b in committee_scoring.board(procurement=procurement, user=buyer)
    }
    assert board["A"].advice  # the automatic pre-scores are shown ...
    users = _users(buyer, manager, experts)
    score_and_submit(procurement, bids, users)
    results = committee_scoring.committee_results(
        procurement, [b.pk for b in bids.values()]
    )
    # ... and never counted: A = mean(80, 80, 60, 80, 100, 80, 80) = 560 / 7 = 80.00;
    # B = (60 x 5 + 80 + 40) / 7 = 420 / 7 = 60.00; C = (100 + 80 x 6) / 7 = 82.857 -> 82.86
    assert results[bids["A"].pk]["mean"] == D("80.00")
    assert results[bids["B"].pk]["mean"] == D("60.00")
    assert results[bids["C"].pk]["mean"] == D("82.86")
    assert sorted(results[bids["A"].pk]["members"].values()) == [
        D(60),
        D(80),
        D(80),
        D(80),
        D(80),
        D(80),
        D(100),
    ]
    assert results[bids["O"].pk]["mean"] is None
    assert committee_scoring.is_summed(procurement)
    assert len(committee_scoring.visible_members(procurement, experts[0])) == 7
    assert MARKS["A"][4] == 5


def test_a_change_after_summation_needs_a_lawful_reason_and_is_recorded(
    seated, buyer, manager, experts
):
    procurement, bids = seated
    score_and_submit(procurement, bids, _users(buyer, manager, experts))
    member = committee.member_for(procurement, experts[0])
    with pytest.raises(ServiceError) as error:
        committee_scoring.record_member_scores(
            procurement=procurement,
            user=experts[0],
            bid=bids["A"],
            marks=[committee_scoring.Mark("arch_scenario", 5)],
        )
    assert error.value.field == "points"
    with pytest.raises(ServiceError) as error:
        committee_scoring.change_score(
            procurement=procurement,
            user=experts[0],
            member=member,
            bid=bids["A"],
            criterion="arch_scenario",
            points=5,
            reason="",
        )
    assert error.value.field == "reason"
    assert "第六十四条" in error.value.message
    assert not ScoreChange.objects.exists()
    change = committee_scoring.change_score(
        procurement=procurement,
        user=experts[0],
        member=member,
        bid=bids["A"],
        criterion="arch_scenario",
        points=5,
        reason="out_of_range",
        explanation="The range of the standard was misread.",
    )
    assert (change.old_points, change.new_points, change.reason) == (
        3,
        5,
        "out_of_range",
    )
    assert change.changed_by == experts[0] and change.changed_at is not None
    assert (
        CommitteeScore.objects.get(
            member=member, bid=bids["A"], criterion__code="arch_scenario"
        ).points
        == 5
    )
    entry = AuditEntry.objects.filter(
        action="committee", target="expert-1:arch_scenario"
    ).get()
    assert (entry.old_value, entry.new_value) == ("3", "5 (out_of_range)")
    # another expert (not the chair) may not change expert 3's mark
    with pytest.raises(ServiceError):
        committee_scoring.change_score(
            procurement=procurement,
            user=experts[1],
            member=member,
            bid=bids["A"],
            criterion="arch_scenario",
            points=4,
            reason="abnormal_score",
        )


def test_dissent_is_recorded_with_its_text(seated, experts):
    procurement, _bids = seated
    with pytest.raises(ServiceError) as error:
        committee_scoring.record_dissent(
            procurement=procurement, user=experts[4], text=" "
        )
    assert error.value.field == "dissent"
    member = committee_scoring.record_dissent(
        procurement=procurement, user=experts[4], text="C's delivery plan is unproven."
    )
    assert member.dissent == "C's delivery plan is unproven." and member.dissent_at


def test_the_expert_role_scores_on_the_committee_and_nothing_else(
    seated, experts, viewer, buyer, manager
):
    from clusterbuy.access import Capability, can

    expert = experts[0]
    assert can(expert, Capability.SCORE_COMMITTEE)
    for capability in (
        Capability.SCORE_BIDS,
        Capability.CONFIGURE_EVALUATION,
        Capability.EDIT_VENDORS,
        Capability.DECIDE,
    ):
        assert not can(expert, capability)
    assert not can(viewer, Capability.SCORE_COMMITTEE)
    assert can(buyer, Capability.SCORE_COMMITTEE) and can(
        manager, Capability.SCORE_COMMITTEE
    )
    procurement, bids = seated
    # a viewer who is not on the committee cannot score on it
    with pytest.raises(ServiceError) as error:
        mark_all(procurement, viewer, bids["A"], 3)
    assert error.value.field == "member"


def test_tendering_recommends_at_most_three_candidates(
    tender_world, org, buyer, experts
):
    """招标投标法: five members, four of them experts (4/5 >= 2/3); four valid bids,
    three ranked candidates (实施条例 第五十三条)."""
    from tests.vendors.tender_support import priced_bid
    from vendors.services import evaluation_report

    procurement = tender_world
    set_regime(procurement, buyer, "tendering")
    bids = {
        name: priced_bid(procurement, org, name, price)
        for name, price in (
            ("A", 30_000_000),
            ("B", 32_000_000),
            ("C", 36_000_000),
            ("D", 38_000_000),
        )
    }
    seats = [committee.Seat(buyer, "buyer_rep", True)] + [
        committee.Seat(e, "expert") for e in experts[:4]
    ]
    committee.set_committee(procurement=procurement, user=buyer, seats=seats)
    assert committee.committee_status(procurement)["min_size"] == 5
    for user in [buyer, *experts[:4]]:
        for bid in bids.values():
            mark_all(procurement, user, bid, 4)
        committee_scoring.submit_member_scores(procurement=procurement, user=user)
    context = evaluation_report.report_context(procurement=procurement, user=buyer)
    ranking = context["ranking"]
    # equal technical scores (80): the lower price ranks higher
    assert [r["label"] for r in ranking] == ["A", "B", "C", "D"]
    assert [r["candidate"] for r in ranking] == [True, True, True, False]
    assert context["max_candidates"] == 3


def test_the_chair_sums_when_the_roster_changed_after_the_last_submission(
    seated, buyer, manager, experts
):
    procurement, bids = seated
    users = [buyer, *experts[:4]]
    for user in users:
        for name in "ABC":
            mark_all(procurement, user, bids[name], 4)
        committee_scoring.submit_member_scores(procurement=procurement, user=user)
    with translation.override("en"), pytest.raises(ServiceError) as error:
        committee_scoring.close_summation(procurement=procurement, user=buyer)
    assert error.value.message == "Still to submit: mona-manager, expert-5."
    # the two who did not submit leave; the commercial regime has no minimum size
    set_regime(procurement, buyer, "commercial")
    seats = [committee.Seat(buyer, "buyer_rep", True)] + [
        committee.Seat(e, "expert") for e in experts[:4]
    ]
    committee.set_committee(procurement=procurement, user=buyer, seats=seats)
    assert not committee_scoring.is_summed(procurement)
    with pytest.raises(ServiceError):
        committee_scoring.close_summation(procurement=procurement, user=experts[0])
    committee_scoring.close_summation(procurement=procurement, user=buyer)
    assert committee_scoring.is_summed(procurement)
    results = committee_scoring.committee_results(procurement, [bids["A"].pk])
    assert results[bids["A"].pk]["mean"] == D("80.00")


def test_once_summed_the_ranking_counts_the_committee_mean(
    seated, buyer, manager, experts
):
    """The tender review's technical term is the committee's mean once its marks are
    summed, never the pre-scores: 政府采购 at a 30 % price weight, 低价优先法 on the
    评标价 (B's 32 M less the SME 10 % = 28.8 M is the base): price points A 28.8,
    B 30, C 24; totals = mean x 0.7 + price points: A 80 x 0.7 + 28.8 = 84.80,
    C 82.86 x 0.7 + 24 = 82.002, B 60 x 0.7 + 30 = 72.00."""
    from vendors import comparison

    procurement, bids = seated
    before = comparison.build_comparison(procurement=procurement, user=buyer).tender
    assert before.technical_source == "evaluation"
    score_and_submit(procurement, bids, _users(buyer, manager, experts))
    review = comparison.build_comparison(procurement=procurement, user=buyer).tender
    assert review.technical_source == "committee"
    by_label = {b.label: b for b in review.bids}
    assert by_label["A"].total == D("84.80")
    assert by_label["C"].total == D("82.002")
    assert by_label["B"].total == D("72.00")
    assert [by_label[n].rank for n in ("A", "C", "B")] == [1, 2, 3]
    assert by_label["O"].rank is None  # over the budget: invalid, out of the rank
