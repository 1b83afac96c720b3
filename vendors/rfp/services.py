"""The RFP settings of a procurement: deadline, published weights, two-person
opening and instructions to bidders. The only writer of `RfpSettings`' buyer fields
(opening is `vendors.portal.opening`'s); every change is audited (AuditAction.RFP)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..models import AuditAction, Invitation, RfpSettings, RfpVersion
from ..models.rfp import INSTRUCTIONS_MAX_CHARS
from ..services.audit import record_audit

RFP_FIELDS = (
    "deadline",
    "publish_weights",
    "two_person_opening",
    "instructions",
    "addendum_notice_days",
)
NOTICE_DAYS_MAX = 90


def rfp_settings_for(procurement: Procurement) -> RfpSettings:
    """The procurement's RFP settings, created with the defaults on first use."""
    row, _created = RfpSettings.objects.get_or_create(procurement=procurement)
    return row


def clean_settings(row: RfpSettings, values: dict, now: datetime | None = None) -> dict:
    """``values`` checked (names in RFP_FIELDS): the form's and the addendum's rules."""
    return _clean(row, values, now or timezone.now())


def _clean(row: RfpSettings, values: dict, now: datetime) -> dict:
    unknown = sorted(set(values) - set(RFP_FIELDS))
    if unknown:
        raise ServiceError(_("Unknown setting."), field=unknown[0])
    cleaned = dict(values)
    if "instructions" in cleaned:
        text = (cleaned["instructions"] or "").strip()
        if len(text) > INSTRUCTIONS_MAX_CHARS:
            raise ServiceError(
                _("Instructions are at most %(n)s characters.")
                % {"n": f"{INSTRUCTIONS_MAX_CHARS:,}"},
                field="instructions",
            )
        cleaned["instructions"] = text
    for flag in ("publish_weights", "two_person_opening"):
        if flag in cleaned:
            cleaned[flag] = bool(cleaned[flag])
    if "deadline" in cleaned:
        cleaned["deadline"] = _clean_deadline(row.deadline, cleaned["deadline"], now)
    if "addendum_notice_days" in cleaned:
        days = cleaned["addendum_notice_days"]
        if not isinstance(days, int) or isinstance(days, bool):
            raise ServiceError(
                _("Enter a whole number of days."), "addendum_notice_days"
            )
        if not 0 <= days <= NOTICE_DAYS_MAX:
            raise ServiceError(
                _("Between 0 and %(n)s days.") % {"n": NOTICE_DAYS_MAX},
                field="addendum_notice_days",
            )
    return cleaned


def _clean_deadline(
    stored: datetime | None, deadline: datetime | None, now: datetime
) -> datetime | None:
    """A new deadline lies in the future; the stored one may stay as it is (a form
    shows it to the minute, so the same minute is the same deadline); once passed it
    may be extended but not removed, which would reopen submissions without a date."""
    if deadline is None:
        if stored is not None and stored <= now:
            raise ServiceError(
                _("The deadline has passed: extend it instead of removing it."),
                field="deadline",
            )
        return None
    if timezone.is_naive(deadline):
        raise ServiceError(_("Give the deadline with its time zone."), "deadline")
    if stored is not None and _to_minute(stored) == _to_minute(deadline):
        return stored
    if deadline <= now:
        raise ServiceError(_("The deadline must be in the future."), field="deadline")
    return deadline


def _to_minute(value: datetime) -> datetime:
    return value.replace(second=0, microsecond=0)


@transaction.atomic
def update_rfp_settings(
    procurement: Procurement, user, *, now: datetime | None = None, **values
) -> RfpSettings:
    """Change the given settings (names in RFP_FIELDS). A deadline set or moved must
    lie in the future; nothing changes once the RFP was opened (the submissions are
    bids by then and the rules they were made under stay on record)."""
    rfp_settings_for(procurement)
    row = RfpSettings.objects.select_for_update().get(procurement=procurement)
    cleaned = _clean(row, values, now or timezone.now())
    changed = {
        name: value for name, value in cleaned.items() if getattr(row, name) != value
    }
    if changed and row.is_open:
        raise ServiceError(
            _("The RFP was opened; its settings can no longer change."),
            field=next(iter(changed)),
        )
    if changed and RfpVersion.objects.filter(procurement=procurement).exists():
        # Published: vendors were sent these rules; they change only by an addendum
        # they are told of (`vendors.rfp.publication.issue_addendum`).
        raise ServiceError(
            _(
                "The RFP is published to the invited vendors: this changes only "
                "through an addendum."
            ),
            field=next(iter(changed)),
        )
    for name, value in changed.items():
        record_audit(
            procurement=procurement,
            actor=user,
            action=AuditAction.RFP,
            target=name,
            old=_audited(getattr(row, name)),
            new=_audited(value),
        )
        setattr(row, name, value)
    if changed:
        row.save(update_fields=list(changed))
    return row


def _audited(value):
    return value.isoformat() if isinstance(value, datetime) else value


def stored_rfp_settings(procurement: Procurement) -> RfpSettings:
    """The settings for a page or an API read: the stored row, or an unsaved one with
    the defaults (a read writes nothing; `rfp_settings_for` creates it)."""
    row = RfpSettings.objects.filter(procurement=procurement).first()
    return row if row is not None else RfpSettings(procurement=procurement)


@dataclass(frozen=True)
class RfpProgress:
    """Where the RFP stands for the buyer's page: invitations and the deadline only;
    nothing of a submission, not even a count, before the opening."""

    invitations: int  # active (not revoked)
    revoked: int
    stage: str  # "no_deadline", "accepting", "awaiting_opening" or "opened"


def rfp_progress(
    procurement: Procurement, row: RfpSettings, *, now: datetime | None = None
) -> RfpProgress:
    revoked = dict(
        Invitation.objects.filter(procurement=procurement)
        .values_list("revoked")
        .annotate(n=models.Count("id"))
    )
    if row.is_open:
        stage = "opened"
    elif row.deadline is None:
        stage = "no_deadline"
    elif (now or timezone.now()) <= row.deadline:
        stage = "accepting"
    else:
        stage = "awaiting_opening"
    return RfpProgress(
        invitations=revoked.get(False, 0), revoked=revoked.get(True, 0), stage=stage
    )
