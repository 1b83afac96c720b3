"""Who may see and do what: the only permission-checked fetches (Zulip's `access_*`).

One rule for visibility: an object is reachable when its organisation is the user's.
Anything else answers 404, so ids of other organisations leak nothing. Roles gate writes.
"""

from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Membership, Procurement, Role


class Capability(StrEnum):
    EDIT_PROCUREMENT = "edit_procurement"
    EDIT_REQUIREMENTS = "edit_requirements"
    EDIT_VENDORS = "edit_vendors"
    SCORE_BIDS = "score_bids"
    RUN_TCO = "run_tco"
    DOWNLOAD_REPORTS = "download_reports"
    ADVANCE_STAGE = "advance_stage"
    DECIDE = "decide"
    # Blind grading, sealed envelope, threshold, checklist: who runs the vendor side
    # (procurement) or decides (manager) sets how bids are evaluated.
    CONFIGURE_EVALUATION = "configure_evaluation"
    MANAGE_TOKENS = "manage_tokens"
    # Opening an RFP's sealed submissions (turning them into bids): administrators only.
    OPEN_SUBMISSIONS = "open_submissions"
    # Acceptance (验收): the IT lead (and admins) plan it and record the tools' results;
    # the manager (and admins) signs the 验收书.
    RECORD_ACCEPTANCE = "record_acceptance"
    SIGN_ACCEPTANCE = "sign_acceptance"
    # Scoring as a member of a procurement's evaluation committee (评标委员会); the
    # committee's own roster decides which procurements (`services.committee`).
    SCORE_COMMITTEE = "score_committee"


ROLE_CAPABILITIES: dict[str, frozenset[Capability]] = {
    Role.ADMIN: frozenset(Capability),
    Role.IT_LEAD: frozenset(
        {
            Capability.EDIT_PROCUREMENT,
            Capability.EDIT_REQUIREMENTS,
            Capability.SCORE_BIDS,
            Capability.RUN_TCO,
            Capability.ADVANCE_STAGE,
            Capability.RECORD_ACCEPTANCE,
            Capability.SCORE_COMMITTEE,
        }
    ),
    Role.PROCUREMENT: frozenset(
        {
            Capability.EDIT_PROCUREMENT,
            Capability.EDIT_VENDORS,
            Capability.CONFIGURE_EVALUATION,
            Capability.SCORE_BIDS,
            Capability.RUN_TCO,
            Capability.ADVANCE_STAGE,
            Capability.SCORE_COMMITTEE,
        }
    ),
    Role.MANAGER: frozenset(
        {
            Capability.EDIT_PROCUREMENT,
            Capability.SCORE_BIDS,
            Capability.RUN_TCO,
            Capability.DOWNLOAD_REPORTS,
            Capability.ADVANCE_STAGE,
            Capability.DECIDE,
            Capability.CONFIGURE_EVALUATION,
            Capability.SIGN_ACCEPTANCE,
            Capability.SCORE_COMMITTEE,
        }
    ),
    Role.VIEWER: frozenset(),
    Role.EXPERT: frozenset({Capability.SCORE_COMMITTEE}),
}


def membership_of(user) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.membership
    except Membership.DoesNotExist:
        return None


def can(user, capability: Capability) -> bool:
    membership = membership_of(user)
    return membership is not None and capability in ROLE_CAPABILITIES.get(
        membership.role, frozenset()
    )


def require(user, capability: Capability) -> None:
    if not can(user, capability):
        raise PermissionDenied(_("Your role does not allow this action."))


def is_technical_evaluator(user) -> bool:
    """Scores bids but neither manages vendors nor decides: the IT lead's seat, whose
    view of prices a sealed envelope closes until their technical scores are in."""
    return (
        can(user, Capability.SCORE_BIDS)
        and not can(user, Capability.EDIT_VENDORS)
        and not can(user, Capability.DECIDE)
    )


def organisation_of(user):
    membership = membership_of(user)
    if membership is None:
        raise PermissionDenied(_("You are not a member of any organisation."))
    return membership.organisation


def access_procurement(user, pk, capability: Capability | None = None) -> Procurement:
    """The procurement `pk` if the user's organisation owns it (else 404)."""
    try:
        procurement = (
            Procurement.objects.for_user(user).select_related("organisation").get(pk=pk)
        )
    except (Procurement.DoesNotExist, ValueError, TypeError):
        raise Http404(_("No such procurement.")) from None
    if capability is not None:
        require(user, capability)
    return procurement
