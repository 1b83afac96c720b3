"""Use cases of the core: the only code that writes organisations and procurements."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from . import registry
from .models import (
    Membership,
    Organisation,
    Procurement,
    Role,
    Stage,
    StageChange,
    TaskPing,
)


class ServiceError(Exception):
    """A use case refused: `field` names the input at fault (None for the whole form)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class ConflictError(ServiceError):
    """A use case refused because the data changed since the caller read it: the API
    answers 409 with the message and `details` (what changed, by whom, when), a page
    shows the message above its form."""

    def __init__(self, message: str, details: dict | None = None):
        super().__init__(message, field=None)
        self.details = details or {}


@dataclass(frozen=True)
class OrganisationSetup:
    organisation: Organisation
    admin: object
    created: bool


@transaction.atomic
def create_organisation(
    *, name: str, admin_username: str, password: str
) -> OrganisationSetup:
    """Create an organisation and its first admin; running it again changes nothing."""
    organisation, org_created = Organisation.objects.get_or_create(name=name)
    User = get_user_model()
    user, user_created = User.objects.get_or_create(username=admin_username)
    if user_created:
        user.set_password(password)
        user.save()
    membership = Membership.objects.filter(user=user).first()
    if membership is None:
        Membership.objects.create(user=user, organisation=organisation, role=Role.ADMIN)
    elif membership.organisation_id != organisation.id:
        raise ServiceError(
            _("User %(user)s already belongs to another organisation.")
            % {"user": admin_username},
            field="admin",
        )
    return OrganisationSetup(organisation, user, org_created or user_created)


@transaction.atomic
def add_member(*, organisation: Organisation, username: str, password: str, role: str):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.save()
    Membership.objects.update_or_create(
        user=user, defaults={"organisation": organisation, "role": role}
    )
    return user


PROCUREMENT_FIELDS = (
    "name",
    "description",
    "currency",
    "budget_min",
    "budget_max",
    "horizon_years",
    "deployment_site",
    "city",
    "region",
    "data_sensitivity",
    "ops_staff_count",
    "slurm_experience",
    "kubernetes_experience",
)


def _check_procurement_values(values: dict) -> None:
    low, high = values.get("budget_min"), values.get("budget_max")
    if low is not None and high is not None and low > high:
        raise ServiceError(
            _("The budget's upper bound must not be below its lower bound."),
            field="budget_max",
        )
    horizon = values.get("horizon_years")
    if horizon is not None and not 3 <= horizon <= 5:
        raise ServiceError(
            _("The planning horizon is 3 to 5 years."), field="horizon_years"
        )


def _save_unique(procurement: Procurement) -> None:
    try:
        with transaction.atomic():
            procurement.save()
    except IntegrityError as exc:
        raise ServiceError(
            _("A procurement with this name already exists in your organisation."),
            field="name",
        ) from exc


@transaction.atomic
def create_procurement(*, organisation: Organisation, user, **values) -> Procurement:
    _check_procurement_values(values)
    procurement = Procurement(
        organisation=organisation,
        created_by=user,
        **{k: v for k, v in values.items() if k in PROCUREMENT_FIELDS},
    )
    _save_unique(procurement)
    StageChange.objects.create(
        procurement=procurement,
        from_stage=None,
        to_stage=procurement.stage,
        changed_by=user,
    )
    return procurement


@transaction.atomic
def update_procurement(*, procurement: Procurement, user, **values) -> Procurement:
    merged = {f: getattr(procurement, f) for f in PROCUREMENT_FIELDS}
    merged.update({k: v for k, v in values.items() if k in PROCUREMENT_FIELDS})
    _check_procurement_values(merged)
    for field, value in merged.items():
        setattr(procurement, field, value)
    _save_unique(procurement)
    return procurement


def _core_checks(procurement: Procurement) -> list[registry.CheckResult]:
    if procurement.stage != Stage.INTERNAL_REVIEW:
        return []
    return [
        registry.CheckResult(
            _("Budget range set"),
            procurement.budget_max is not None,
            _("Enter at least the budget's upper bound."),
        ),
        registry.CheckResult(
            _("Team capability described"),
            procurement.ops_staff_count > 0
            or procurement.slurm_experience
            or procurement.kubernetes_experience,
            _("Say how many ops staff you have and their scheduler experience."),
        ),
    ]


def stage_checklist(procurement: Procurement) -> list[registry.CheckResult]:
    """What the current stage needs done before the procurement moves on."""
    results = _core_checks(procurement)
    results += [
        check(procurement) for check in registry.stage_checks(procurement.stage)
    ]
    return results


@transaction.atomic
def change_stage(
    *, procurement: Procurement, user, to_stage: int, note: str = ""
) -> StageChange:
    """Move one stage forward (when the checklist passes) or any stage back."""
    procurement = Procurement.objects.select_for_update().get(pk=procurement.pk)
    if to_stage not in Stage.values:
        raise ServiceError(_("Unknown stage."), field="to_stage")
    if to_stage == procurement.stage:
        raise ServiceError(
            _("The procurement is already at this stage."), field="to_stage"
        )
    if to_stage > procurement.stage + 1:
        raise ServiceError(_("Stages are passed one at a time."), field="to_stage")
    if to_stage > procurement.stage:
        missing = [c for c in stage_checklist(procurement) if not c.ok]
        if missing:
            raise ServiceError(
                _("This stage is not complete: %(items)s")
                % {"items": "; ".join(str(c.label) for c in missing)},
                field="to_stage",
            )
    change = StageChange.objects.create(
        procurement=procurement,
        from_stage=procurement.stage,
        to_stage=to_stage,
        changed_by=user,
        note=note,
    )
    procurement.stage = to_stage
    procurement.save(update_fields=["stage", "updated_at"])
    return change


@transaction.atomic
def advance_stage_on_event(
    *, procurement: Procurement, user, to_stage: int, note: str
) -> StageChange | None:
    """Move the procurement forward to ``to_stage`` because something happened (the
    RFP was published, the bids were opened, the evaluation closed): recorded as a
    stage change with ``note``, the checklist not asked (the event is the proof).
    Never moves back; None when the procurement is already there or beyond."""
    procurement = Procurement.objects.select_for_update().get(pk=procurement.pk)
    if procurement.stage >= to_stage:
        return None
    change = StageChange.objects.create(
        procurement=procurement,
        from_stage=procurement.stage,
        to_stage=to_stage,
        changed_by=user,
        note=note,
    )
    procurement.stage = to_stage
    procurement.save(update_fields=["stage", "updated_at"])
    return change


def issue_api_token(*, organisation: Organisation, username: str) -> Token:
    """Create (or replace) the API token of a member of the organisation."""
    membership = (
        Membership.objects.select_related("user")
        .filter(organisation=organisation, user__username=username)
        .first()
    )
    if membership is None:
        raise ServiceError(_("No such member in your organisation."), field="username")
    Token.objects.filter(user=membership.user).delete()
    return Token.objects.create(user=membership.user)


def revoke_api_token(*, organisation: Organisation, user_id: int) -> None:
    deleted, _count = Token.objects.filter(
        user_id=user_id, user__membership__organisation=organisation
    ).delete()
    if not deleted:
        raise ServiceError(_("No such token in your organisation."), field="token")


def record_ping(*, token: str, hostname: str = "") -> None:
    TaskPing.objects.get_or_create(token=token, defaults={"worker_hostname": hostname})
