"""Acceptance (验收): the plan a delivered cluster is held to, the tools' logs uploaded
as attempts, the verdicts per clause and node, and the frozen 验收书.

A procurement has at most one plan. Its clauses are built by the pure engine
(`vendors.engine.acceptance.build_clauses`) from the decided bid (before a decision,
from the sizing plan), plus the bid's service terms; the buyer may tighten a
threshold, never loosen it (``derived_required`` is the floor). Every upload is an
attempt that keeps its raw bytes and their SHA-256: a rerun after a repair is a new
attempt, the failed one stays in the history. Signing freezes the 验收书's content into
``snapshot``; its PDF renders from that alone, so it reads the same ever after.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit
from clusterbuy.models import Procurement

from .bids import Bid

#: The largest log accepted (a 72 h DCGM or nccl-tests log is a few MB).
MAX_LOG_BYTES = 8 * 1024 * 1024
NODE_NAME_MAX_CHARS = 120


class PlanBasis(models.TextChoices):
    BID = "bid", _("The decided bid")
    SIZING = "sizing", _("The sizing plan")


class ClauseCategory(models.TextChoices):
    TECHNICAL = "technical", _("Technical")
    SERVICE = "service", _("Service")
    SAFETY = "safety", _("Safety")


class AcceptancePlan(models.Model):
    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="acceptance_plan"
    )
    basis = models.CharField(max_length=10, choices=PlanBasis.choices)
    # The decided bid the plan was built from (None: from the sizing plan).
    bid = models.ForeignKey(
        Bid, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The engine's AcceptanceInputs as JSON: what the thresholds were derived from.
    inputs = models.JSONField(default=dict, editable=False)
    burn_in_hours = models.PositiveIntegerField(_("burn-in (hours)"), default=72)
    delivered_on = models.DateField(_("delivered on"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    signed_at = models.DateTimeField(null=True, blank=True)
    # The 验收书 as signed (`vendors.services.acceptance.certificate_snapshot`).
    snapshot = models.JSONField(default=dict, blank=True, editable=False)

    @property
    def signed(self) -> bool:
        return self.signed_at is not None

    @property
    def signed_conclusion(self) -> str | None:
        """The conclusion frozen at the signature: "passed" (合格), "failed" (不合格)
        or "incomplete" (未完成); None while unsigned. Only "passed" is an
        acceptance: a signed "failed" record documents a failed one."""
        if not self.signed:
            return None
        return (self.snapshot.get("conclusion") or {}).get("code") or "incomplete"

    @property
    def accepted(self) -> bool:
        return self.signed_conclusion == "passed"


class AcceptanceClause(models.Model):
    plan = models.ForeignKey(
        AcceptancePlan, on_delete=models.CASCADE, related_name="clauses"
    )
    key = models.CharField(max_length=60)
    order = models.PositiveIntegerField()
    category = models.CharField(max_length=20, choices=ClauseCategory.choices)
    tool = models.CharField(max_length=30)
    metric = models.CharField(max_length=40)
    unit = models.CharField(max_length=20, blank=True)
    comparison = models.CharField(max_length=4)  # ">=", "<=", "pass"
    # The threshold the plan derived (the floor) and the one in force (tightened).
    derived_required = models.FloatField(null=True, blank=True)
    required = models.FloatField(_("threshold"), null=True, blank=True)
    scope = models.CharField(max_length=10)  # node | nic | cluster
    gpus = models.PositiveIntegerField(null=True, blank=True)  # the log must show
    operation = models.CharField(max_length=40, blank=True)  # collective it must be
    command = models.TextField(blank=True)
    source = models.TextField(blank=True)
    basis = models.TextField(blank=True)

    class Meta:
        ordering = ["order", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["plan", "key"], name="acceptance_clause_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def hand_recorded(self) -> bool:
        """Graded from a figure typed in (workload, burn-in, service, safety), not a
        tool's log."""
        return self.tool in ("workload", "burn_in", "manual")


class AcceptanceAttempt(models.Model):
    """One upload (or one hand-recorded figure): the raw log, its hash, what it
    graded."""

    plan = models.ForeignKey(
        AcceptancePlan, on_delete=models.CASCADE, related_name="attempts"
    )
    number = models.PositiveIntegerField()  # 1, 2, ... within the plan
    tool = models.CharField(max_length=30)
    tool_version = models.CharField(max_length=60, blank=True)
    operation = models.CharField(max_length=40, blank=True)
    node = models.CharField(max_length=NODE_NAME_MAX_CHARS, blank=True)
    hosts = models.JSONField(default=list, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    log = models.BinaryField(editable=False)
    sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveIntegerField(default=0)
    failures = models.JSONField(default=list, blank=True)
    skipped = models.JSONField(default=list, blank=True)
    stragglers = models.JSONField(default=list, blank=True)
    passed = models.BooleanField(default=False)
    note = models.TextField(
        _("note (what was repaired)"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["plan", "number"], name="acceptance_attempt_number"
            ),
        ]


class AcceptanceVerdict(models.Model):
    attempt = models.ForeignKey(
        AcceptanceAttempt, on_delete=models.CASCADE, related_name="verdicts"
    )
    clause = models.ForeignKey(
        AcceptanceClause, on_delete=models.CASCADE, related_name="verdicts"
    )
    node = models.CharField(max_length=NODE_NAME_MAX_CHARS, blank=True)
    measured = models.FloatField(null=True, blank=True)
    required = models.FloatField(null=True, blank=True)
    unit = models.CharField(max_length=20, blank=True)
    passed = models.BooleanField()
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["attempt__number", "id"]
