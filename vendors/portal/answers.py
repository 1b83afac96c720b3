"""The buyer's side of the RFP's Q&A: reading the vendors' questions (with who asked:
the buyer may know it, the vendors never see it) and answering them once for all,
after a redaction step: the question and the answer are published as the buyer
reviewed them, starting from the automatic masking of every vendor's names and
aliases (`redact_for_vendors`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, require
from clusterbuy.bounds import LONG_TEXT_MAX_CHARS
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.names import name_pattern
from ..models import AuditAction, RfpQuestion
from ..models.rfp import QUESTION_MAX_CHARS
from ..services.aliases import alias_terms, vendor_maskings
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
    return shown.mask_rows(rows, ("question", "published_question", "answer"))


@dataclass(frozen=True)
class Redaction:
    """A question and its answer as every invited vendor would read them: the names
    and aliases of the procurement's vendors masked (`services.aliases`), and the
    terms that were masked, for the buyer to review and edit before publishing."""

    published_question: str
    answer: str
    masked: list[str]


def redact_for_vendors(question: RfpQuestion, answer: str) -> Redaction:
    """The automatic masking of ``question`` and ``answer`` (issue 23: a vendor that
    names itself, or another, in a question reached every competitor)."""
    maskings = vendor_maskings(question.procurement)
    pattern = name_pattern(
        [m.vendor.name for m in maskings], aliases=alias_terms(maskings)
    )
    texts = (question.question, answer or "")
    if pattern is None:
        return Redaction(*texts, masked=[])
    masked = sorted({m.group(0) for t in texts for m in pattern.finditer(t)})
    mask = _("[vendor]")  # what a vendor's name reads as
    return Redaction(
        published_question=pattern.sub(mask, texts[0]),
        answer=pattern.sub(mask, texts[1]),
        masked=masked,
    )


def _checked(text: str, *, field: str, limit: int, empty: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ServiceError(empty, field=field)
    if len(text) > limit:
        raise ServiceError(_("At most %(n)s characters.") % {"n": limit}, field=field)
    return text


@transaction.atomic
def answer_question(
    question: RfpQuestion, user, text: str, *, published_question: str | None = None
) -> RfpQuestion:
    """Answer (or correct the answer to) a question; every invited vendor reads the
    question as ``published_question`` and the answer as ``text``, both as the buyer
    reviewed them (`redact_for_vendors` is the starting point). Without a reviewed
    question (an older client), both are published with the automatic masking."""
    require(user, Capability.EDIT_VENDORS)
    text = _checked(
        text, field="answer", limit=LONG_TEXT_MAX_CHARS, empty=_("Write an answer.")
    )
    if published_question is None:
        redaction = redact_for_vendors(question, text)
        text, published_question = redaction.answer, redaction.published_question
    published_question = _checked(
        published_question,
        field="published_question",
        limit=QUESTION_MAX_CHARS,
        empty=_("Give the question as the vendors will read it."),
    )
    question = RfpQuestion.objects.select_for_update().get(pk=question.pk)
    old = question.answer
    question.answer = text
    question.published_question = published_question
    question.answered_at = timezone.now()
    question.answered_by = user
    question.save(
        update_fields=["answer", "published_question", "answered_at", "answered_by"]
    )
    record_audit(
        procurement=question.procurement,
        actor=user,
        action=AuditAction.RFP,
        target=f"answer #{question.pk}",
        old=old,
        new=text,
    )
    return question
