"""The check of a received version, off the web workers: parse its workbook, build
its feedback and mark it READY (`Submission.Status`).

A 5,000-row workbook costs a web worker about 13 s to parse; a link sending its
maximum used to hold every worker and every buyer's page waited. `submissions.submit`
now stores the version as CHECKING and answers at once with the receipt;
`submissions.send_check` hands the check to ``clusterbuy.task_runner.enqueue`` (a Celery
worker in production), bounded per link and per procurement (`quotas`).

Safe to run twice: the version is claimed with a conditional UPDATE of its status,
and a version that is not CHECKING any more is left alone. Earlier versions of the
same invitation still waiting are checked first, so a revision without a workbook
carries the lines of the version before it. A check whose message was lost (broker
down when it was sent) is sent again by `sweep_checks`.
"""

from __future__ import annotations

import datetime
import logging

from django.utils import timezone

from ..models import Submission
from . import feedback, submissions
from .submissions import PortalError, parse_workbook, validated_values

logger = logging.getLogger(__name__)
#: A version CHECKING for longer than this had its message lost: the sweep resends it
#: (a 5,000-row workbook checks in about 15 s).
STALE_CHECK_S = 120


def _carried_lines(submission: Submission) -> list[dict]:
    """A revision without a workbook keeps the version before it's lines and file."""
    previous = (
        Submission.objects.filter(
            invitation_id=submission.invitation_id, version__lt=submission.version
        )
        .order_by("-version")
        .first()
    )
    return list(previous.line_items) if previous is not None else []


def check_submission(*, submission_id: int) -> bool:
    """Check one CHECKING version (and earlier ones first); True when this call did."""
    submission = (
        Submission.objects.select_related("invitation__procurement")
        .filter(pk=submission_id, status=Submission.Status.CHECKING)
        .first()
    )
    if submission is None:
        return False
    earlier = Submission.objects.filter(
        invitation_id=submission.invitation_id,
        version__lt=submission.version,
        status=Submission.Status.CHECKING,
    ).order_by("version")
    for pending in earlier.values_list("pk", flat=True):
        check_submission(submission_id=pending)
    row_errors: list = []
    workbook_name = submission.workbook_name
    workbook = submission.workbook.name
    if submission.workbook_bytes:
        with submission.workbook.open("rb") as handle:
            line_items, row_errors = parse_workbook(handle.read(), workbook_name)
    else:
        line_items = _carried_lines(submission)
        if not line_items:
            workbook_name, workbook = "", ""
    try:
        values = validated_values(submission.fields, submission.proposal_text)
    except PortalError:  # stored from the same form's cleaned values: not expected
        logger.exception("Submission %s: stored fields no longer valid", submission.pk)
        values = {"proposal_text": submission.proposal_text}
    shown = feedback.build_feedback(
        procurement=submission.invitation.procurement,
        values=values,
        line_items=line_items,
        row_errors=row_errors,
    )
    return bool(
        Submission.objects.filter(
            pk=submission.pk, status=Submission.Status.CHECKING
        ).update(
            line_items=line_items,
            feedback=shown,
            workbook=workbook,
            workbook_name=workbook_name,
            status=Submission.Status.READY,
        )
    )


def sweep_checks(*, now: datetime.datetime | None = None) -> int:
    """Resend the checks of versions CHECKING for longer than `STALE_CHECK_S`."""
    cutoff = (now or timezone.now()) - datetime.timedelta(seconds=STALE_CHECK_S)
    stale = list(
        Submission.objects.filter(
            status=Submission.Status.CHECKING, received_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for pk in stale:
        submissions.send_check(Submission(pk=pk))
    return len(stale)


def checks_pending_before(procurement_id: int, deadline: datetime.datetime) -> int:
    """How many versions received by the deadline still wait for their check (the
    opening waits for them: each is a version the vendor was told was received)."""
    return Submission.objects.filter(
        invitation__procurement_id=procurement_id,
        invitation__revoked=False,
        status=Submission.Status.CHECKING,
        received_at__lte=deadline,
    ).count()
