"""TCO scenarios of a procurement and the runs of the full analysis.

A scenario holds the inputs as ``tco.engine.inputs_to_dict`` writes them; a run
snapshots those inputs and the sizing plan summary they were made from, so editing the
scenario or computing a new plan later never changes an earlier run or its report.
"""

from __future__ import annotations

from collections.abc import Collection

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement


class TcoScenarioQuerySet(models.QuerySet):
    def for_user(self, user) -> TcoScenarioQuerySet:
        return self.filter(procurement__in=Procurement.objects.for_user(user))

    def for_procurement(self, procurement: Procurement) -> TcoScenarioQuerySet:
        return self.filter(procurement=procurement)


class ScenarioSource(models.TextChoices):
    """Where a scenario's capex came from (tco.sources)."""

    HAND = "", _("entered by hand")
    BID = "bid", _("a vendor's bid")
    SIZING_PLAN = "sizing_plan", _("the sizing plan")


class TcoScenario(models.Model):
    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="tco_scenarios"
    )
    name = models.CharField(_("name"), max_length=200)
    inputs = models.JSONField(_("inputs"), default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: Started from a bid or the sizing plan (its id; no foreign key: tco does not
    #: know the vendors app). Nullable or database defaults: see TcoRun.queue.
    source_kind = models.CharField(
        _("started from"),
        max_length=20,
        blank=True,
        choices=ScenarioSource.choices,
        default="",
        db_default="",
    )
    source_id = models.PositiveIntegerField(null=True, blank=True)
    #: What a derived capex is computed from: {"gpu_count": the source's count,
    #: "capex": its lines, "it_power_kw": its IT power or null}; capex and IT power
    #: follow the GPU count in proportion while ``capex_is_derived`` (tco.sources).
    derivation = models.JSONField(null=True, blank=True)
    capex_is_derived = models.BooleanField(default=False, db_default=False)

    objects = TcoScenarioQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("TCO scenario")
        verbose_name_plural = _("TCO scenarios")
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "name"], name="tco_scenario_unique_name"
            )
        ]

    def __str__(self) -> str:
        return self.name


QUEUE_UNAVAILABLE_NOTICE = _(
    "The task queue is unavailable right now. Your run is saved and will start "
    "when the queue is back."
)


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")


class TcoRunQuerySet(models.QuerySet):
    def for_user(self, user) -> TcoRunQuerySet:
        """Runs of the user's organisation (the one access rule, via the procurement)."""
        return self.filter(scenario__procurement__in=Procurement.objects.for_user(user))

    def for_procurement(self, procurement: Procurement) -> TcoRunQuerySet:
        return self.filter(scenario__procurement=procurement)

    def finished(self) -> TcoRunQuerySet:
        return self.filter(status__in=[RunStatus.SUCCEEDED, RunStatus.FAILED])

    def with_related(self) -> TcoRunQuerySet:
        return self.select_related("scenario", "scenario__procurement", "requested_by")

    def on_queues(self, queues: Collection[str], *, default: str) -> TcoRunQuerySet:
        """Runs whose messages go to one of ``queues`` (a blank queue is ``default``)."""
        names = set(queues)
        if default in names:
            names.add("")
        return self.filter(queue__in=names)


def run_pdf_path(run: TcoRun, filename: str) -> str:
    """Deterministic: one file per run and language, overwritten, never duplicated."""
    return f"tco/run-{run.pk}-{run.lang}.pdf"


class TcoRun(models.Model):
    scenario = models.ForeignKey(
        TcoScenario, on_delete=models.CASCADE, related_name="runs"
    )
    inputs = models.JSONField(_("inputs snapshot"))
    #: ``sizing.services.plan_summary(...).as_dict()`` when the run was requested
    #: (None: no plan); the report shows this, never the procurement's current plan.
    sizing_plan = models.JSONField(
        _("sizing plan snapshot"), null=True, blank=True, encoder=DjangoJSONEncoder
    )
    engine_version = models.CharField(max_length=20)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=RunStatus.choices,
        default=RunStatus.QUEUED,
        db_index=True,
    )
    progress_pct = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    lang = models.CharField(_("language"), max_length=10, default="zh-hans")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    error_message = models.TextField(_("error"), blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    pdf = models.FileField(_("PDF report"), upload_to=run_pdf_path, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: New columns are nullable or have a database default: the previous release
    #: keeps inserting runs while the migration is applied (docs/deployment.md).
    #: The Celery queue the run's task message goes to (blank: the default queue);
    #: a worker's in-process sweep looks after the runs of the queues it consumes.
    queue = models.CharField(max_length=100, blank=True, db_default="")
    #: When the run was last handed over to be executed (its task message given to
    #: the broker, or run in-process by the caller); None while nothing is known to
    #: carry it (the broker was unreachable), so the sweep sends a message.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    #: The current claim (tco.claims): a new token per claim, the worker that holds
    #: it, and when that worker last showed it is alive. Every write of a run's
    #: outcome filters on the token, so a worker that lost its claim writes nothing.
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_by = models.CharField(max_length=200, blank=True, db_default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    objects = TcoRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("TCO run")
        verbose_name_plural = _("TCO runs")
        constraints = [
            models.CheckConstraint(
                condition=Q(progress_pct__lte=100), name="tco_run_progress_le_100"
            ),
            models.CheckConstraint(
                condition=~Q(status="succeeded") | Q(result__isnull=False),
                name="tco_run_succeeded_has_result",
            ),
        ]

    def __str__(self) -> str:
        return f"TCO run {self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (RunStatus.SUCCEEDED, RunStatus.FAILED)

    @property
    def waits_for_queue(self) -> bool:
        """Saved and queued, but the broker was unreachable: no worker has it yet."""
        return self.status == RunStatus.QUEUED and self.enqueued_at is None

    @property
    def queue_notice(self) -> str:
        """What the user is told while the run waits for the queue (UI and API)."""
        if not self.waits_for_queue:
            return ""
        return str(QUEUE_UNAVAILABLE_NOTICE)

    @property
    def procurement(self) -> Procurement:
        return self.scenario.procurement

    @property
    def duration_s(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None
