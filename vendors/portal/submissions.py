"""A vendor's submissions and evidence through the portal: the only code that writes
them. Every write first checks the submission window (an RFP with a deadline, not yet
passed, not opened) and refuses with a coded `PortalError` otherwise.

A submission is sealed (see `vendors.models.rfp`): nothing here touches a `Bid`.

Versions: each submit adds the next version under the invitation's row lock (and the
RFP's, so opening, which locks it too, never reads half a revision); the unique
(invitation, version) constraint backs the lock. The deadline is judged at receipt:
``now`` is when the upload began arriving (the views pass the request's start), and
the version records it as ``received_at``. The version is stored at once as CHECKING
and its workbook is parsed by a background task (`checking`), never by the web
worker that received it; per link and per procurement only a few may wait
(`quotas.pending_refusal`), and the portal's storage is bounded (`quotas`).

A workbook whose rows cannot be imported still makes a version — checked with its
row errors as feedback, no line items and ``feedback["complete"] = False`` — so the
vendor sees what to fix and the fixed workbook is the next version; the latest
version is the one opened. A file that is not an XLSX workbook at all (by content:
`attachments.content_kind`, the check of every upload path), or too large, is
refused and adds no version.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import formats, timezone
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from clusterbuy import task_runner
from clusterbuy.services import ServiceError

from ..engine.importing import (
    LineItemImportError,
    LineItemRow,
    RowError,
    parse_line_items,
)
from ..models import (
    BidLineItem,
    EvidencePurpose,
    Invitation,
    RfpSettings,
    Submission,
    SubmissionEvidence,
)
from ..models.evidence import DECLARATION_PURPOSES, SUBMISSION_PURPOSES
from ..rfp.versions import current_number
from ..services import plan_facts
from ..services.attachments import content_kind
from ..services.bids import _check_imported
from ..services.line_item_template import import_vocabulary
from . import quotas
from .forms import ContactForm, DeclarationsForm, SubmissionForm, form_data

logger = logging.getLogger(__name__)

CHECK_TASK_NAME = "vendors.tasks.check_submission"


class PortalError(ServiceError):
    """A portal write refused: ``code`` says why ("late", "opened", "no_deadline",
    "invalid", "too_large", "file_type", "too_many", "quota", "busy"); ``errors`` holds a form's field
    messages ({field: [message]}) when the input itself was at fault."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        field: str | None = None,
        errors: Mapping[str, list[str]] | None = None,
    ):
        super().__init__(message, field=field)
        self.code = code
        self.errors = dict(errors or {})


@dataclass(frozen=True)
class Window:
    """Whether the invitation may submit now, and the deadline it works to."""

    deadline: datetime.datetime | None
    is_open: bool
    code: str  # "" when open; else "no_deadline", "late" or "opened"


def time_text(deadline: datetime.datetime) -> str:
    """A deadline or an expiry as the portal says it: local date, time and zone (a
    vendor may sit in another time zone)."""
    local = timezone.localtime(deadline)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({local.tzname()})"


def window_for(invitation: Invitation, *, now=None, rfp=None) -> Window:
    now = now or timezone.now()
    if rfp is None:
        rfp = RfpSettings.objects.filter(
            procurement_id=invitation.procurement_id
        ).first()
    deadline = getattr(rfp, "deadline", None)
    if rfp is None or deadline is None:
        return Window(None, False, "no_deadline")
    if rfp.opened_at is not None:
        return Window(deadline, False, "opened")
    if now >= deadline:
        return Window(deadline, False, "late")
    return Window(deadline, True, "")


def window_message(window: Window) -> str:
    if window.code == "no_deadline":
        return _(
            "The buyer has not set a submission deadline yet; submissions open once it is set."
        )
    if window.code == "opened":
        return _("The submissions have been opened; no more changes are accepted.")
    if window.code == "late":
        return _(
            "The submission deadline was %(deadline)s; revisions are closed and this "
            "submission was not accepted."
        ) % {"deadline": time_text(window.deadline)}
    return ""


def _check_window(invitation: Invitation, *, now, rfp=None) -> None:
    window = window_for(invitation, now=now, rfp=rfp)
    if not window.is_open:
        raise PortalError(window_message(window), code=window.code)


def _lock(invitation: Invitation) -> tuple[Invitation, RfpSettings | None]:
    """The RFP and then the invitation, locked (the order opening uses too)."""
    rfp = (
        RfpSettings.objects.select_for_update()
        .filter(procurement_id=invitation.procurement_id)
        .first()
    )
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.revoked:
        raise PortalError(_("This invitation was revoked."), code="revoked")
    return locked, rfp


def _max_bytes() -> int:
    return settings.PORTAL_UPLOAD_MAX_BYTES


def _read_upload(upload, *, field: str) -> bytes:
    limit = _max_bytes()
    message = _("Files are limited to %(mb)s MB.") % {"mb": f"{limit / 1024 / 1024:g}"}
    if (getattr(upload, "size", None) or 0) > limit:
        raise PortalError(message, code="too_large", field=field)
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise PortalError(message, code="too_large", field=field)
    return data


def validated_values(fields: Mapping, proposal_text: str) -> dict:
    """The bid fields as the bid form cleans them (Python values), proposal included;
    PortalError("invalid") with the form's field messages otherwise."""
    data = form_data(fields)
    if hasattr(data, "copy"):
        data = data.copy()
    data["proposal_text"] = proposal_text or ""
    accelerator = data.get("accelerator")
    if isinstance(accelerator, str) and accelerator.strip():
        # the API may name it as shown ("NVIDIA H200 SXM 141GB"), as the bid API does
        data["accelerator"] = plan_facts.accelerator_key_for(accelerator) or accelerator
    form = SubmissionForm(data=data)
    if not form.is_valid():
        errors = {f: [str(m) for m in msgs] for f, msgs in form.errors.items()}
        raise PortalError(
            _("Check the highlighted fields."), code="invalid", errors=errors
        )
    return form.bid_values()


def validated_extras(
    declarations: Mapping | None, contact: Mapping | None
) -> tuple[dict, dict]:
    """The policy declarations and the 投标函 contact facts as a submission keeps
    them; PortalError("invalid") with the forms' field messages otherwise."""
    errors: dict[str, list[str]] = {}
    stored = []
    for form in (
        DeclarationsForm(data=declarations or {}),
        ContactForm(data=contact or {}),
    ):
        if form.is_valid():
            stored.append(form.stored())
        else:
            errors.update({f: [str(m) for m in ms] for f, ms in form.errors.items()})
    if errors:
        raise PortalError(
            _("Check the highlighted fields."), code="invalid", errors=errors
        )
    return stored[0], stored[1]


def _all_validated(fields, proposal_text, declarations, contact) -> tuple:
    """The bid fields, declarations and contact facts, every field's refusal at once."""
    errors: dict[str, list[str]] = {}
    values = extras = None
    try:
        values = validated_values(fields, proposal_text)
    except PortalError as error:
        errors.update(error.errors)
    try:
        extras = validated_extras(declarations, contact)
    except PortalError as error:
        errors.update(error.errors)
    if errors:
        raise PortalError(
            _("Check the highlighted fields."), code="invalid", errors=errors
        )
    return values, *extras


def _json_value(value):
    if isinstance(value, Decimal):
        return str(value)
    return value


def _line_items(rows: list[LineItemRow]) -> list[dict]:
    return [
        {
            "category": row.category,
            "description": row.description[:500],
            "quantity": str(row.quantity),
            "unit_price": str(row.unit_price),
            "recurring": row.recurring,
            "year_from": row.year_from,
            "year_to": row.year_to,
            "scope": list(row.scope),
        }
        for row in rows
    ]


def parse_workbook(data: bytes, name: str) -> tuple[list[dict], list[RowError]]:
    """(line items, row errors) of an uploaded workbook, with the buyer's import rules
    (`bids.import_line_items`: the parser, then each row against the line item's
    fields); either list is empty."""
    import io

    try:
        rows = parse_line_items(io.BytesIO(data), name, vocabulary=import_vocabulary())
        _check_imported(
            rows,
            [
                BidLineItem(
                    category=r.category,
                    description=r.description[:500],
                    quantity=r.quantity,
                    unit_price=r.unit_price,
                    recurring=r.recurring,
                    year_from=r.year_from,
                    year_to=r.year_to,
                    scope=list(r.scope),
                )
                for r in rows
            ],
        )
    except LineItemImportError as exc:
        return [], list(exc.errors)
    return _line_items(rows), []


def _workbook(upload) -> tuple[bytes, str] | None:
    if upload is None:
        return None
    data = _read_upload(upload, field="workbook")
    if content_kind(data) != "xlsx":
        raise PortalError(
            _("The workbook must be an XLSX file: fill in the bid template."),
            code="file_type",
            field="workbook",
        )
    name = get_valid_filename(getattr(upload, "name", "") or "bid.xlsx")[:200]
    return data, name


def _check_room(invitation: Invitation, *, adding_bytes: int, field: str) -> None:
    """The storage quotas (and, for a version, the check queue) under the lock."""
    reason = quotas.storage_refusal(invitation, adding_bytes=adding_bytes)
    if reason is not None:
        raise PortalError(reason, code="quota", field=field)


def send_check(submission: Submission) -> None:
    """Hand the version's check to the task runner (`checking.check_submission`).
    Called once the version is committed; a broker that cannot be reached leaves it
    CHECKING, and the sweep (`checking.sweep_checks`) sends it later."""
    try:
        task_runner.enqueue(CHECK_TASK_NAME, args=[submission.pk])
    except Exception:  # noqa: BLE001 - kombu's OperationalError and kin
        logger.exception("Check of submission %s not sent", submission.pk)


def submit(
    invitation: Invitation,
    *,
    fields: Mapping,
    proposal_text: str = "",
    workbook=None,
    declarations: Mapping | None = None,
    contact: Mapping | None = None,
    now=None,
) -> Submission:
    """Store the next version as received (CHECKING) and send its check; ``now`` is
    when the upload began arriving (the deadline is judged by it). ``declarations``
    and ``contact``: the declarations and 投标函 forms' data (`DeclarationsForm`,
    `ContactForm`)."""
    now = now or timezone.now()
    _check_window(invitation, now=now)
    values, declared, contact_facts = _all_validated(
        fields, proposal_text, declarations, contact
    )
    upload = _workbook(workbook)
    with transaction.atomic():
        locked, rfp = _lock(invitation)
        _check_window(locked, now=now, rfp=rfp)
        busy = quotas.pending_refusal(locked)
        if busy is not None:
            raise PortalError(busy, code="busy")
        _check_room(
            locked, adding_bytes=len(upload[0]) if upload else 0, field="workbook"
        )
        previous = locked.submissions.order_by("-version").first()
        submission = Submission(
            invitation=locked,
            version=(previous.version if previous else 0) + 1,
            fields={
                k: _json_value(v) for k, v in values.items() if k != "proposal_text"
            },
            proposal_text=values.get("proposal_text") or "",
            declarations=declared,
            contact=contact_facts,
            rfp_version=current_number(locked.procurement),
            received_at=now,
            status=Submission.Status.CHECKING,
        )
        if upload is not None:
            submission.workbook_name = upload[1]
            submission.workbook_bytes = len(upload[0])
            submission.workbook.save(upload[1], ContentFile(upload[0]), save=False)
        elif previous is not None and previous.workbook:
            # kept if the version before has lines (decided by the check)
            submission.workbook_name = previous.workbook_name
            submission.workbook = previous.workbook.name
        submission.save()
    # After the commit (this block is the outermost: no ATOMIC_REQUESTS), so a worker
    # finds the row; an eager runner (tests) checks it here.
    send_check(submission)
    submission.refresh_from_db()
    return submission


def submissions_of(invitation: Invitation) -> list[Submission]:
    """The invitation's own versions, newest first."""
    return list(invitation.submissions.order_by("-version"))


# --- evidence ---------------------------------------------------------------------


def evidence_of(invitation: Invitation) -> list[SubmissionEvidence]:
    return list(invitation.evidence.filter(removed=False))


def declaration_gaps(invitation: Invitation, declarations: Mapping) -> list[str]:
    """The declarations of ``declarations`` (a version's) with no evidence file of
    their purpose attached: "sme", "domestic" (the buyer cannot accept them)."""
    attached = set(
        invitation.evidence.filter(removed=False).values_list("purpose", flat=True)
    )
    return [
        kind
        for kind, purpose in DECLARATION_PURPOSES.items()
        if declarations.get(kind) and purpose not in attached
    ]


def add_evidence(
    invitation: Invitation, upload, *, purpose: str = "", now=None
) -> SubmissionEvidence:
    """Attach a PDF or XLSX (checked by content) within the size and count limits;
    ``purpose``: what it proves (`EvidencePurpose`, general when empty)."""
    now = now or timezone.now()
    _check_window(invitation, now=now)
    purpose = purpose or EvidencePurpose.GENERAL
    if purpose not in SUBMISSION_PURPOSES:
        raise PortalError(
            _("Choose what the file is for."), code="invalid_purpose", field="purpose"
        )
    data = _read_upload(upload, field="file")
    kind = content_kind(data)
    if kind is None:
        raise PortalError(
            _("Only PDF and XLSX files can be attached."),
            code="file_type",
            field="file",
        )
    name = get_valid_filename(getattr(upload, "name", "") or f"evidence.{kind}")
    with transaction.atomic():
        locked, rfp = _lock(invitation)
        _check_window(locked, now=now, rfp=rfp)
        limit = settings.PORTAL_EVIDENCE_MAX_FILES
        if locked.evidence.filter(removed=False).count() >= limit:
            raise PortalError(
                _("At most %(n)s evidence files: remove one first.") % {"n": limit},
                code="too_many",
                field="file",
            )
        _check_room(locked, adding_bytes=len(data), field="file")
        evidence = SubmissionEvidence(
            invitation=locked,
            original_name=name[:255],
            kind=kind,
            size_bytes=len(data),
            purpose=purpose,
        )
        stored = f"{name.rsplit('.', 1)[0] or 'evidence'}.{kind}"
        evidence.file.save(stored, ContentFile(data), save=False)
        evidence.save()
    return evidence


def remove_evidence(invitation: Invitation, evidence_id: int, *, now=None) -> None:
    """Withdraw one of the invitation's own files (kept, marked removed: it is not
    carried into the bid); another invitation's id is not found."""
    now = now or timezone.now()
    with transaction.atomic():
        locked, rfp = _lock(invitation)
        _check_window(locked, now=now, rfp=rfp)
        found = SubmissionEvidence.objects.filter(
            invitation=locked, pk=evidence_id, removed=False
        ).update(removed=True)
    if not found:
        raise PortalError(_("No such file."), code="not_found", field="file")
