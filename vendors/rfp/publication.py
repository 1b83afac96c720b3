"""Publishing the RFP and changing it afterwards: the only writer of `RfpVersion`.

The first invitation publishes version 1 (`publish_first_version`): the facts the
pack is assembled from (requirement, workloads, the plan's minimums, weights,
deadline, opening rule) are frozen, and the pack and the portal serve them from then
on. After that the settings change only through a numbered addendum
(`issue_addendum`, 澄清或者修改) that carries the diff, reaches every invited vendor
(e-mail in both languages, a portal notice they acknowledge) and is audited.

The notice period (`RfpSettings.addendum_notice_days`, 15 by default) is the rule of
《中华人民共和国政府采购法实施条例》第三十一条第二款: "采购人或者采购代理机构可以对已发出的
招标文件进行必要的澄清或者修改。澄清或者修改的内容可能影响投标文件编制的，采购人或者采购代理机构
应当在投标截止时间至少15日前，以书面形式通知所有获取招标文件的潜在投标人；不足15日的，
采购人或者采购代理机构应当顺延提交投标文件的截止时间。" and, for 招标投标, of
《中华人民共和国招标投标法实施条例》第二十一条: "招标人可以对已发出的资格预审文件或者招标文件
进行必要的澄清或者修改。澄清或者修改的内容可能影响资格预审申请文件或者投标文件编制的，招标人
应当在提交资格预审申请文件截止时间至少3日前，或者投标截止时间至少15日前，以书面形式通知所有
获取资格预审文件或者招标文件的潜在投标人；不足3日或者15日的，招标人应当顺延提交资格预审申请
文件或者投标文件的截止时间。" So an addendum that may affect how bids are prepared,
issued less than that many days before the deadline, moves the deadline to that many
days after the addendum; a published deadline is never shortened, and nothing
changes after the deadline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, require
from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.rfp_diff import Change, as_records, only_later_deadline, rfp_changes
from ..models import AuditAction, Invitation, RfpSettings, RfpVersion
from ..portal.notices import notify_addendum
from ..services import stages
from ..services.audit import record_audit
from . import services
from .content import assemble_rfp
from .facts import live_rfp_facts
from .versions import encode_facts, latest_version, version_facts

NOTE_MAX_CHARS = 4000
# Links stay usable this long after a (moved) deadline, as at invitation.
EXPIRY_AFTER_DEADLINE = timedelta(days=30)
UNSET = object()


def _content(facts: dict) -> dict:
    return assemble_rfp(
        facts, include_weights=bool(facts["settings"]["publish_weights"])
    )


def changes_between(old_facts: dict, new_facts: dict) -> list[Change]:
    """The diff in the active language."""
    return rfp_changes(_content(old_facts), _content(new_facts))


def version_changes(version: RfpVersion) -> list[Change]:
    """What ``version`` changed against the one before, in the active language."""
    if version.number == 1:
        return []
    before = RfpVersion.objects.get(
        procurement_id=version.procurement_id, number=version.number - 1
    )
    return changes_between(version_facts(before), version_facts(version))


def live_changes(procurement: Procurement) -> list[Change]:
    """How the live plan differs from the published version (none before publication):
    the buyer's page offers an addendum when this is not empty."""
    version = latest_version(procurement)
    if version is None:
        return []
    return changes_between(version_facts(version), live_rfp_facts(procurement))


def _audit_settings(row: RfpSettings) -> dict:
    return {
        "deadline": row.deadline.isoformat() if row.deadline else None,
        "two_person_opening": row.two_person_opening,
        "publish_weights": row.publish_weights,
        "addendum_notice_days": row.addendum_notice_days,
    }


def publish_first_version(
    procurement: Procurement, user, *, now: datetime
) -> RfpVersion:
    """Version 1, frozen, when the first vendor is invited (inside the invitation's
    transaction); the version already published when there is one."""
    services.rfp_settings_for(procurement)
    row = RfpSettings.objects.select_for_update().get(procurement=procurement)
    version = latest_version(procurement)
    if version is not None:
        return version
    version = RfpVersion.objects.create(
        procurement=procurement,
        number=1,
        kind=RfpVersion.Kind.PUBLICATION,
        facts=encode_facts(live_rfp_facts(procurement)),
        deadline=row.deadline,
        two_person_opening=row.two_person_opening,
        published_by=user,
        published_at=now,
    )
    row.issued_at = now
    row.save(update_fields=["issued_at"])
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.RFP,
        target="version 1 published",
        old="",
        new=_audit_settings(row),
    )
    stages.on_rfp_published(procurement, user)
    return version


@dataclass(frozen=True)
class AddendumResult:
    version: RfpVersion
    deadline_moved: bool
    notified: int  # invitations e-mailed


def _check_open_to_change(row: RfpSettings, now: datetime) -> None:
    if row.is_open:
        raise ServiceError(
            _("The RFP was opened; its settings can no longer change."), "deadline"
        )
    if row.deadline is not None and now >= row.deadline:
        raise ServiceError(
            _("The deadline has passed: the RFP can no longer change."), "deadline"
        )


def _new_deadline(row: RfpSettings, deadline, now: datetime):
    """The deadline asked for: never shorter than the published one, never removed."""
    if deadline is UNSET:
        return row.deadline
    if deadline is None:
        if row.deadline is not None:
            raise ServiceError(
                _("A published deadline cannot be removed; extend it instead."),
                field="deadline",
            )
        return None
    if timezone.is_naive(deadline):
        raise ServiceError(_("Give the deadline with its time zone."), "deadline")
    if row.deadline is not None and deadline < row.deadline.replace(second=0):
        raise ServiceError(
            _(
                "A published deadline cannot be brought forward (vendors prepare "
                "their bids for it); keep it or extend it."
            ),
            field="deadline",
        )
    if row.deadline is not None and deadline.replace(second=0, microsecond=0) == (
        row.deadline.replace(second=0, microsecond=0)
    ):
        return row.deadline
    if deadline <= now:
        raise ServiceError(_("The deadline must be in the future."), field="deadline")
    return deadline


def _notice_floor(now: datetime, days: int) -> datetime:
    """``days`` after ``now``, rounded up to the next whole minute."""
    floor = now + timedelta(days=days)
    seconds = floor.second + floor.microsecond / 1e6
    return floor.replace(second=0, microsecond=0) + timedelta(
        minutes=math.ceil(seconds / 60)
    )


def _clean_note(note: str) -> str:
    note = (note or "").strip()
    if not note:
        raise ServiceError(
            _("Say what the addendum clarifies or changes, and why."), field="note"
        )
    if len(note) > NOTE_MAX_CHARS:
        raise ServiceError(
            _("At most %(n)s characters.") % {"n": f"{NOTE_MAX_CHARS:,}"}, "note"
        )
    return note


def _apply(row: RfpSettings, *, deadline, values: dict) -> list[str]:
    changed = []
    for name, value in (("deadline", deadline), *values.items()):
        if getattr(row, name) != value:
            setattr(row, name, value)
            changed.append(name)
    if changed:
        row.save(update_fields=changed)
    return changed


def _settings_values(row: RfpSettings, **given) -> dict:
    values = {k: v for k, v in given.items() if v is not None}
    if "instructions" in values:
        values = services.clean_settings(row, values)
    return {k: bool(v) if k != "instructions" else v for k, v in values.items()}


@transaction.atomic
def issue_addendum(
    procurement: Procurement,
    user,
    *,
    note: str,
    request_base_url: str,
    deadline=UNSET,
    two_person_opening: bool | None = None,
    publish_weights: bool | None = None,
    instructions: str | None = None,
    affects_bids: bool = True,
    now: datetime | None = None,
) -> AddendumResult:
    """Addendum n+1: the settings given, and the live plan's requirement, minimums and
    weights as they stand, published with their diff to every invited vendor."""
    require(user, Capability.EDIT_VENDORS)
    now = now or timezone.now()
    previous = latest_version(procurement)
    if previous is None:
        raise ServiceError(
            _("The RFP is not published yet: change its settings directly."), "note"
        )
    row = RfpSettings.objects.select_for_update().get(procurement=procurement)
    _check_open_to_change(row, now)
    note = _clean_note(note)
    asked = _new_deadline(row, deadline, now)
    values = _settings_values(
        row,
        two_person_opening=two_person_opening,
        publish_weights=publish_weights,
        instructions=instructions,
    )
    published_deadline = row.deadline
    _apply(row, deadline=asked, values=values)
    old_facts = version_facts(previous)
    moved = _move_for_notice(
        procurement, row, old_facts, published_deadline, asked, affects_bids, now
    )
    facts = live_rfp_facts(procurement)
    with translation.override("en"):
        changes = changes_between(old_facts, facts)
    version = RfpVersion.objects.create(
        procurement=procurement,
        number=previous.number + 1,
        kind=RfpVersion.Kind.ADDENDUM,
        facts=encode_facts(facts),
        changes=as_records(changes),
        note=note,
        deadline=row.deadline,
        requested_deadline=asked if moved else None,
        two_person_opening=row.two_person_opening,
        published_by=user,
        published_at=now,
    )
    _extend_links(procurement, row, now)
    notified = notify_addendum(version, request_base_url=request_base_url, now=now)
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.RFP,
        target=f"addendum {version.number}",
        old=_audit_settings_of(previous),
        new={
            **_audit_settings(row),
            "note": note,
            "changes": as_records(changes),
            "deadline_moved_from": asked.isoformat() if moved and asked else None,
            "notified": notified,
        },
    )
    return AddendumResult(
        version=version, deadline_moved=bool(moved), notified=notified
    )


def _move_for_notice(
    procurement, row, old_facts, published_deadline, asked, affects_bids, now
) -> datetime | None:
    """The deadline the notice rule gives when the addendum may affect how bids are
    prepared and leaves fewer than the notice days (None when it need not move)."""
    if not affects_bids or asked is None:
        return None
    with translation.override("en"):
        changes = changes_between(old_facts, live_rfp_facts(procurement))
    later = published_deadline is not None and asked > published_deadline
    if only_later_deadline(changes, later=later):
        return None
    floor = _notice_floor(now, row.addendum_notice_days)
    if asked >= floor:
        return None
    _apply(row, deadline=floor, values={})
    return floor


def _audit_settings_of(version: RfpVersion) -> dict:
    return {
        "version": version.number,
        "deadline": version.deadline.isoformat() if version.deadline else None,
        "two_person_opening": version.two_person_opening,
    }


def _extend_links(procurement: Procurement, row: RfpSettings, now) -> None:
    """A later deadline keeps every active link usable past it, as at invitation."""
    if row.deadline is None:
        return
    Invitation.objects.filter(
        procurement=procurement,
        revoked=False,
        expires_at__gt=now,
        expires_at__lt=row.deadline + EXPIRY_AFTER_DEADLINE,
    ).update(expires_at=row.deadline + EXPIRY_AFTER_DEADLINE)
