"""The vendor audit trail: who changed a score, weight, bid or decision, and how."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement

from .bids import Bid


class AuditAction(models.TextChoices):
    SCORE = "score", _("Score")
    OVERRIDE = "override", _("Automatic score overridden")
    WEIGHT = "weight", _("Weight")
    DECISION = "decision", _("Decision")
    SETTINGS = "settings", _("Evaluation settings")
    SUBMISSION = "submission", _("Technical scores submitted")
    BID = "bid", _("Bid change")
    LINE_ITEM = "line_item", _("Line items")
    RFP = "rfp", _("Request for proposal")
    INVITATION = "invitation", _("Invitation")
    OPENING = "opening", _("Opening of submissions")
    ACCEPTANCE = "acceptance", _("Acceptance")
    COMMITTEE = "committee", _("Evaluation committee")


class AuditEntry(models.Model):
    """Who changed which score, weight, bid field, line item or decision, when, from
    what to what."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="vendor_audit"
    )
    bid = models.ForeignKey(
        Bid, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=AuditAction.choices)
    target = models.CharField(max_length=200)
    old_value = models.TextField(blank=True)
    new_value = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
