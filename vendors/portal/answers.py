"""The buyer's side of the RFP's Q&A: reading the vendors' questions (with who asked:
the buyer may know it, the vendors never see it) and answering them once for all."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, require
from clusterbuy.bounds import LONG_TEXT_MAX_CHARS
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..models import AuditAction, RfpQuestion
from ..services.audit import record_audit
from ..visibility import Visibility


def questions_for_buyer(
    procurement: Procurement, shown: Visibility
) -> list[RfpQuestion]:
    """Every question of the procurement's RFP, oldest first, with the asking vendor;
    under blind grading the bidders' names in the questions and answers read
    "[vendor]" (`Visibility.redact`: a vendor's question can name it)."""
    rows = RfpQuestion.objects.filter(procurement=procurement).select_related(
        "invitation__vendor", "answered_by"
    )
    return shown.mask_rows(rows, ("question", "answer"))


@transaction.atomic
def answer_question(question: RfpQuestion, user, text: str) -> RfpQuestion:
    """Answer (or correct the answer to) a question; every invited vendor reads it."""
    require(user, Capability.EDIT_VENDORS)
    text = (text or "").strip()
    if not text:
        raise ServiceError(_("Write an answer."), field="answer")
    if len(text) > LONG_TEXT_MAX_CHARS:
        raise ServiceError(
            _("Answers are limited to %(n)s characters.") % {"n": LONG_TEXT_MAX_CHARS},
            field="answer",
        )
    question = RfpQuestion.objects.select_for_update().get(pk=question.pk)
    old = question.answer
    question.answer = text
    question.answered_at = timezone.now()
    question.answered_by = user
    question.save(update_fields=["answer", "answered_at", "answered_by"])
    record_audit(
        procurement=question.procurement,
        actor=user,
        action=AuditAction.RFP,
        target=f"answer #{question.pk}",
        old=old,
        new=text,
    )
    return question
