"""Independent scoring by the committee (实施条例 第四十一条: 独立评审).

* Each member marks each valid bid's technical criteria (the procurement's checklist,
  price sections excepted) in their own rows (`CommitteeScore`); before submitting,
  a member sees only their own marks.
* The automatic pre-scores are shown as advice and never counted: the committee's
  score is the mean of the submitted members' totals (`regimes.committee_scores`).
* When the last member submits, the marks are summed (汇总). After that a mark changes
  only for one of 87号令 第六十四条's four reasons, recorded in `ScoreChange` and the
  audit trail (the commercial regime: any change, still recorded).
* A member's dissent (不同意见, 实施条例 第四十一条) is recorded with its text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.regimes import ScoreChangeReason, rules_for
from ..models import (
    AuditAction,
    Bid,
    CommitteeMember,
    CommitteeScore,
    ScoreChange,
)
from . import evaluation
from .audit import record_audit
from .committee import committee_of, member_for, members_of, regime_of
from .committee_results import (  # noqa: F401 - the committee's API, re-exported
    committee_results,
    is_summed,
    member_scores,
    technical_criteria,
)


@dataclass(frozen=True)
class Mark:
    criterion: int | str  # an id (the page) or a code (the API)
    points: int
    note: str = ""


@dataclass
class BoardBid:
    """A valid bid the committee scores, with the pre-scores shown as advice."""

    bid_id: int
    label: str
    advice: dict[str, float] = field(default_factory=dict)


def board(*, procurement: Procurement, user, result=None) -> list[BoardBid]:
    """The bids the committee scores: the valid ones of the tender review (all bids
    before tender settings are saved), as ``user`` sees them. ``result``: that
    comparison, when the caller has already built it (the committee page)."""
    from ..comparison import build_comparison

    if result is None:
        result = build_comparison(procurement=procurement, user=user)
    invalid = set()
    if result.tender is not None:
        invalid = {b.bid_id for b in result.tender.bids if not b.valid}
    return [
        BoardBid(
            c.bid.pk,
            c.label,
            {code: auto.points for code, auto in (c.automatic or {}).items()},
        )
        for c in result.columns
        if c.bid.pk not in invalid
    ]


def _member(procurement: Procurement, user) -> CommitteeMember:
    member = member_for(procurement, user)
    if member is None or not can(user, Capability.SCORE_COMMITTEE):
        raise ServiceError(
            _("Only a member of the evaluation committee scores here."),
            field="member",
        )
    return member


def _check_points(points) -> None:
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 5:
        raise ServiceError(_("Points are a whole number from 0 to 5."), field="points")


@transaction.atomic
def record_member_scores(
    *, procurement: Procurement, user, bid: Bid, marks: Iterable[Mark]
) -> list[CommitteeScore]:
    """A member's own marks on one bid, all or none, until they submit."""
    member = _member(procurement, user)
    if bid.procurement_id != procurement.pk:
        raise ServiceError(_("No such bid."), field="bid")
    if member.submitted_at is not None:
        raise ServiceError(
            _(
                "You have submitted your scores; after summation a change needs a "
                "lawful reason."
            ),
            field="points",
        )
    if bid.pk not in {b.bid_id for b in board(procurement=procurement, user=user)}:
        raise ServiceError(
            _("Only valid bids are scored: this one is an invalid bid."), field="bid"
        )
    criteria, _weights = technical_criteria(procurement)
    saved = []
    for mark in marks:
        criterion = evaluation.criterion_for(mark.criterion, criteria)
        _check_points(mark.points)
        score, _created = CommitteeScore.objects.update_or_create(
            member=member,
            bid=bid,
            criterion=criterion,
            defaults={"points": mark.points, "note": mark.note},
        )
        saved.append(score)
    return saved


def own_marks(member: CommitteeMember) -> dict[tuple[int, str], CommitteeScore]:
    """(bid id, criterion code) -> the member's mark."""
    return {
        (s.bid_id, s.criterion.code): s
        for s in member.scores.select_related("criterion")
    }


@transaction.atomic
def submit_member_scores(*, procurement: Procurement, user) -> CommitteeMember:
    """Seal a member's marks; every valid bid must be marked on every criterion.
    The last member's submission sums the committee's marks."""
    member = _member(procurement, user)
    if member.submitted_at is not None:
        return member
    criteria, _w = technical_criteria(procurement)
    marks = own_marks(member)
    for entry in board(procurement=procurement, user=user):
        missing = [c for c in criteria if (entry.bid_id, c.code) not in marks]
        if missing:
            raise ServiceError(
                _("Score every criterion of %(bid)s before submitting.")
                % {"bid": entry.label},
                field="points",
            )
    member.submitted_at = timezone.now()
    member.save(update_fields=["submitted_at"])
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.COMMITTEE,
        target=f"scores:{user.get_username()}",
        old="",
        new="submitted",
    )
    committee = member.committee
    if not committee.members.filter(submitted_at__isnull=True).exists():
        _sum(committee, user)
    return member


def _sum(committee, user) -> None:
    committee.summed_at = timezone.now()
    committee.summed_by = user
    committee.save(update_fields=["summed_at", "summed_by"])
    record_audit(
        procurement=committee.procurement,
        actor=user,
        action=AuditAction.COMMITTEE,
        target="summation",
        old="",
        new="summed",
    )


@transaction.atomic
def close_summation(*, procurement: Procurement, user) -> None:
    """The chair (or who configures the evaluation) sums the marks when every member
    has submitted but no submission did it (the roster changed after the last one)."""
    committee = committee_of(procurement)
    if committee is None:
        raise ServiceError(_("No committee yet."), field="members")
    actor = member_for(procurement, user)
    if not (actor and actor.is_chair) and not can(
        user, Capability.CONFIGURE_EVALUATION
    ):
        raise ServiceError(
            _("The chair or who configures the evaluation sums the marks."),
            field="members",
        )
    if committee.summed_at is not None:
        return
    waiting = [m.name for m in members_of(committee) if m.submitted_at is None]
    if waiting:
        raise ServiceError(
            _("Still to submit: %(names)s.") % {"names": ", ".join(waiting)},
            field="members",
        )
    _sum(committee, user)


def visible_members(procurement: Procurement, viewer) -> list[CommitteeMember]:
    """Whose marks ``viewer`` may see: after summation everyone's; a member who has
    submitted sees the submitted members'; before that only their own."""
    committee = committee_of(procurement)
    members = members_of(committee)
    if committee is None:
        return []
    if committee.summed_at is not None:
        return members
    own = next((m for m in members if m.user_id == viewer.pk), None)
    if own is None:
        return []
    if own.submitted_at is None:
        return [own]
    return [m for m in members if m.submitted_at is not None]


@transaction.atomic
def change_score(
    *,
    procurement: Procurement,
    user,
    member: CommitteeMember,
    bid: Bid,
    criterion: int | str,
    points: int,
    reason: str,
    explanation: str = "",
) -> ScoreChange:
    """A mark changed after summation, by its member or the chair, for one of the
    regime's lawful reasons (87号令 第六十四条), recorded with who, when, old, new."""
    committee = committee_of(procurement)
    if committee is None or member.committee_id != committee.pk:
        raise ServiceError(_("No such member."), field="member")
    if committee.summed_at is None:
        raise ServiceError(
            _("The marks are not summed yet; the member changes their own marks."),
            field="points",
        )
    actor = member_for(procurement, user)
    if actor is None or (actor.pk != member.pk and not actor.is_chair):
        raise ServiceError(
            _("Only the member or the committee's chair changes a mark."),
            field="member",
        )
    rules = rules_for(regime_of(procurement))
    lawful = {r.value for r in rules.score_change_reasons}
    if lawful and reason not in lawful:
        citation = (
            rules.score_change_article.citation if rules.score_change_article else ""
        )
        raise ServiceError(
            (
                _(
                    "After summation a mark changes only for one of the lawful "
                    "reasons: a summation error, a score outside the range, "
                    "inconsistent objective scores or an abnormal score."
                )
                + (f" ({citation})" if citation else "")
            ),
            field="reason",
        )
    if reason and reason not in {r.value for r in ScoreChangeReason}:
        raise ServiceError(_("Unknown reason."), field="reason")
    criteria, _w = technical_criteria(procurement)
    found = evaluation.criterion_for(criterion, criteria)
    _check_points(points)
    score = (
        CommitteeScore.objects.select_for_update()
        .filter(member=member, bid=bid, criterion=found)
        .first()
    )
    if score is None:
        raise ServiceError(_("No such mark."), field="criterion")
    if score.points == points:
        raise ServiceError(
            _("The mark is already %(points)s.") % {"points": points}, field="points"
        )
    change = ScoreChange.objects.create(
        score=score,
        changed_by=user,
        old_points=score.points,
        new_points=points,
        reason=reason,
        explanation=explanation,
    )
    record_audit(
        procurement=procurement,
        bid=bid,
        actor=user,
        action=AuditAction.COMMITTEE,
        target=f"{member.user.get_username()}:{found.code}",
        old=score.points,
        new=f"{points} ({change.reason})" if change.reason else points,
    )
    score.points = points
    score.save(update_fields=["points", "updated_at"])
    return change


@transaction.atomic
def record_dissent(*, procurement: Procurement, user, text: str) -> CommitteeMember:
    """A member's dissent (不同意见) with its reasons, printed in the report."""
    member = _member(procurement, user)
    text = text.strip()
    if not text:
        raise ServiceError(_("Say what you disagree with and why."), field="dissent")
    old = member.dissent
    member.dissent = text
    member.dissent_at = timezone.now()
    member.save(update_fields=["dissent", "dissent_at"])
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.COMMITTEE,
        target=f"dissent:{user.get_username()}",
        old=old,
        new=text,
    )
    return member


def changes_of(procurement: Procurement) -> list[ScoreChange]:
    return list(
        ScoreChange.objects.filter(score__member__committee__procurement=procurement)
        .select_related("score__member__user", "score__criterion", "changed_by")
        .order_by("changed_at", "id")
    )
