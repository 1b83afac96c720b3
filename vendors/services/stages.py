"""The procurement's stage follows what happened to its tender: the RFP published
moves it to stage 2, the opening of the bids to the evaluation (stage 3), the
evaluation closed (scoring closed) to the decision (stage 5); a decision is recorded
only at stage 5. Each move is a `StageChange` with the
event as its note (`clusterbuy.services.advance_stage_on_event`)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement, Stage
from clusterbuy.registry import CheckResult
from clusterbuy.services import advance_stage_on_event

from ..models import EvaluationSettings


def on_rfp_published(procurement: Procurement, user) -> None:
    advance_stage_on_event(
        procurement=procurement,
        user=user,
        to_stage=Stage.SHORTLIST,
        note=_("RFP version 1 published to the invited vendors."),
    )


def on_opened(procurement: Procurement, user) -> None:
    advance_stage_on_event(
        procurement=procurement,
        user=user,
        to_stage=Stage.TECHNICAL_EXCHANGE,
        note=_("Sealed bids opened: the evaluation starts."),
    )


def on_evaluation_closed(procurement: Procurement, user) -> None:
    advance_stage_on_event(
        procurement=procurement,
        user=user,
        to_stage=Stage.DECISION,
        note=_("Evaluation closed: the decision may be recorded."),
    )


def evaluation_closed(procurement: Procurement) -> bool:
    return EvaluationSettings.objects.filter(
        procurement=procurement, scoring_closed=True
    ).exists()


def decision_refusal(procurement: Procurement) -> str | None:
    """Why no decision can be recorded now, or None: only at stage 5, which the
    procurement reaches when the evaluation closes (the scoring closed, or the buyer
    moving on from stage 4, whose check asks for the scoring closed)."""
    if procurement.stage != Stage.DECISION:
        return _(
            "The procurement is at stage %(stage)s: the decision is recorded at stage "
            "5."
        ) % {"stage": procurement.get_stage_display()}
    return None


def evaluation_closed_check(procurement: Procurement) -> CheckResult:
    """Leaving the evaluation (stages 3 and 4) for the decision needs it closed."""
    return CheckResult(
        _("Evaluation closed"),
        evaluation_closed(procurement),
        _("Close the scoring on the comparison page first."),
    )
