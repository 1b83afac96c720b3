"""Vendors' questions through the portal. A vendor sees its own questions, answered or
not, and every answered question of its procurement, never who asked them (the buyer
answers once for all invited vendors; `vendors.portal.answers` writes the answers)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Invitation, RfpQuestion
from ..models.rfp import QUESTION_MAX_CHARS
from .submissions import PortalError, window_for, window_message

#: Questions one invitation may ask: plenty for a real RFP, a bound on a flood.
QUESTIONS_PER_INVITATION_MAX = 50


@transaction.atomic
def ask_question(invitation: Invitation, text: str, *, now=None) -> RfpQuestion:
    """Record a question; refused once the deadline passed or the RFP was opened."""
    text = (text or "").strip()
    if not text:
        raise PortalError(_("Write your question."), code="invalid", field="question")
    if len(text) > QUESTION_MAX_CHARS:
        raise PortalError(
            _("A question is at most %(n)s characters.") % {"n": QUESTION_MAX_CHARS},
            code="invalid",
            field="question",
        )
    window = window_for(invitation, now=now or timezone.now())
    if window.code in ("late", "opened"):
        raise PortalError(window_message(window), code=window.code)
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.questions.count() >= QUESTIONS_PER_INVITATION_MAX:
        raise PortalError(
            _("At most %(n)s questions per vendor.")
            % {"n": QUESTIONS_PER_INVITATION_MAX},
            code="too_many",
            field="question",
        )
    return RfpQuestion.objects.create(
        procurement_id=locked.procurement_id, invitation=locked, question=text
    )


def questions_for(invitation: Invitation) -> list[dict]:
    """{question, answer, asked_at, answered_at, mine} in the order asked: the
    invitation's own questions and the procurement's answered ones (another vendor's
    question as the buyer published it, `answers.answer_question`); no row says which
    invitation asked (``mine`` only says whether this one did)."""
    rows = RfpQuestion.objects.filter(procurement_id=invitation.procurement_id).filter(
        invitation=invitation
    ) | RfpQuestion.objects.filter(
        procurement_id=invitation.procurement_id, answered_at__isnull=False
    )
    return [
        {
            # Another vendor's question as the buyer published it (redacted).
            "question": q.question
            if q.invitation_id == invitation.pk or not q.published_question
            else q.published_question,
            "answer": q.answer if q.answered_at else "",
            "asked_at": q.asked_at,
            "answered_at": q.answered_at,
            "mine": q.invitation_id == invitation.pk,
        }
        for q in rows.order_by("asked_at", "id").distinct()
    ]
