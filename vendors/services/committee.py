"""The evaluation committee's roster: who sits on it, in which seat, who chairs it,
judged by the procurement's regime (`regimes.validate_committee`: 87号令 第四十七条 for
政府采购, 招标投标法 第三十七条 for 依法必须招标; the commercial regime has no rule).

`set_committee` replaces the roster at once, all or nothing, so a committee is never
stored half-composed; once the marks are summed the roster is frozen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Membership, Procurement
from clusterbuy.services import ServiceError

from ..engine.regimes import (
    CommitteeSeat,
    Regime,
    RuleViolation,
    required_committee_size,
    rules_for,
    validate_committee,
)
from ..models import AuditAction, Committee, CommitteeMember, SeatRole
from .audit import record_audit
from .tender import tender_settings_for


class CommitteeInvalid(ServiceError):
    """A roster the regime refuses: ``errors`` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        first = next(iter(errors.values()))[0]
        super().__init__(first, field=next(iter(errors)))
        self.errors = errors


@dataclass(frozen=True)
class Seat:
    user: object  # a user of the procurement's organisation
    role: str  # SeatRole
    is_chair: bool = False


def committee_of(procurement: Procurement) -> Committee | None:
    return Committee.objects.filter(procurement=procurement).first()


def members_of(committee: Committee | None) -> list[CommitteeMember]:
    if committee is None or committee.pk is None:
        return []
    return list(committee.members.select_related("user"))


def member_for(procurement: Procurement, user) -> CommitteeMember | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        CommitteeMember.objects.filter(committee__procurement=procurement, user=user)
        .select_related("committee", "user")
        .first()
    )


def regime_of(procurement: Procurement) -> str:
    return tender_settings_for(procurement=procurement).regime


def _budget(procurement: Procurement) -> Decimal:
    return Decimal(procurement.budget_max or 0)


def violation_message(violation: RuleViolation) -> str:
    """A composition rule broken, in the reader's language, with its article."""
    p = dict(violation.params)
    texts = {
        "committee_too_small": _(
            "The committee has %(size)s members; at least %(min_size)s are required."
        ),
        "committee_too_small_large_project": _(
            "The committee has %(size)s members; at least %(min_size)s are required "
            "(budget of 10 M CNY or more, complex or high-impact project)."
        ),
        "committee_not_odd": _(
            "The committee must have an odd number of members (has %(size)s)."
        ),
        "committee_too_few_experts": _(
            "Experts must be at least two thirds of the committee "
            "(%(experts)s of %(size)s)."
        ),
    }
    text = texts.get(violation.code, violation.message_en)
    message = text % {k: p.get(k) for k in ("size", "min_size", "experts")}
    if violation.article is not None:
        message = f"{message} ({violation.article.citation})"
    return message


def composition_violations(
    procurement: Procurement,
    seats: Iterable[str],
    *,
    complex_project: bool,
    high_social_impact: bool,
) -> tuple[RuleViolation, ...]:
    rules = rules_for(regime_of(procurement))
    return validate_committee(
        rules,
        [CommitteeSeat(role) for role in seats],
        _budget(procurement),
        complex_project,
        high_social_impact=high_social_impact,
    )


def committee_status(procurement: Procurement) -> dict:
    """What the page and the API show above the roster: the minimum size and every
    rule the stored roster breaks (empty: lawful)."""
    committee = committee_of(procurement)
    members = members_of(committee)
    complex_project = bool(committee and committee.complex_project)
    impact = bool(committee and committee.high_social_impact)
    regime = regime_of(procurement)
    rules = rules_for(regime)
    found = composition_violations(
        procurement,
        [m.role for m in members],
        complex_project=complex_project,
        high_social_impact=impact,
    )
    return {
        "regime": regime,
        "statutory": regime != Regime.COMMERCIAL,
        "min_size": required_committee_size(
            rules, _budget(procurement), complex_project, high_social_impact=impact
        ),
        "article": rules.committee_article.citation if rules.committee_article else "",
        "violations": [violation_message(v) for v in found],
        "valid": bool(members) and not found,
    }


def _check_seats(procurement: Procurement, seats: list[Seat]) -> None:
    if not seats:
        raise ServiceError(_("Name at least one member."), field="members")
    users = [s.user for s in seats]
    if len({u.pk for u in users}) != len(users):
        raise ServiceError(_("A user sits on the committee once."), field="members")
    org_users = set(
        Membership.objects.filter(
            organisation=procurement.organisation, user__in=users
        ).values_list("user_id", flat=True)
    )
    if any(u.pk not in org_users for u in users):
        raise ServiceError(_("No such user in your organisation."), field="members")
    if any(s.role not in SeatRole.values for s in seats):
        raise ServiceError(_("Unknown seat."), field="role")
    if sum(1 for s in seats if s.is_chair) > 1:
        raise ServiceError(_("The committee has one chair."), field="is_chair")


@transaction.atomic
def set_committee(
    *,
    procurement: Procurement,
    user,
    seats: list[Seat],
    complex_project: bool | None = None,
    high_social_impact: bool | None = None,
) -> Committee:
    """The committee's roster replaced by ``seats`` (members kept keep their marks),
    refused when the regime's composition rules break or the marks were summed."""
    committee, _created = Committee.objects.select_for_update().get_or_create(
        procurement=procurement
    )
    if committee.summed_at is not None:
        raise ServiceError(
            _("The marks were summed; the committee can no longer change."),
            field="members",
        )
    _check_seats(procurement, seats)
    if complex_project is not None:
        committee.complex_project = complex_project
    if high_social_impact is not None:
        committee.high_social_impact = high_social_impact
    found = composition_violations(
        procurement,
        [s.role for s in seats],
        complex_project=committee.complex_project,
        high_social_impact=committee.high_social_impact,
    )
    if found:
        errors: dict[str, list[str]] = {}
        for v in found:
            errors.setdefault(v.field, []).append(violation_message(v))
        raise CommitteeInvalid(errors)
    committee.save()
    old = {m.user_id: m for m in members_of(committee)}
    before = _describe(old.values())
    keep = {s.user.pk for s in seats}
    CommitteeMember.objects.filter(committee=committee).exclude(
        user_id__in=keep
    ).delete()
    CommitteeMember.objects.filter(committee=committee).update(is_chair=False)
    for position, seat in enumerate(seats):
        CommitteeMember.objects.update_or_create(
            committee=committee,
            user=seat.user,
            defaults={
                "role": seat.role,
                "is_chair": seat.is_chair,
                "position": position,
            },
        )
    after = _describe(members_of(committee))
    if before != after:
        record_audit(
            procurement=procurement,
            actor=user,
            action=AuditAction.COMMITTEE,
            target="members",
            old=before,
            new=after,
        )
    return committee


def _describe(members: Iterable[CommitteeMember]) -> str:
    return "; ".join(
        f"{m.user.get_username()} ({m.role}{', chair' if m.is_chair else ''})"
        for m in members
    )


def seats_from_ids(*, procurement: Procurement, rows: list[dict]) -> list[Seat]:
    """API/form rows ``{"user": id, "role", "is_chair"}`` as seats (unknown or other
    organisations' users refused as one)."""
    ids = [r["user"] for r in rows]
    users = {
        u.pk: u
        for u in get_user_model().objects.filter(
            pk__in=ids, membership__organisation=procurement.organisation
        )
    }
    if any(i not in users for i in ids):
        raise ServiceError(_("No such user in your organisation."), field="members")
    return [Seat(users[r["user"]], r["role"], bool(r.get("is_chair"))) for r in rows]
