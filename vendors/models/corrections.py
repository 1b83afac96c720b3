"""Corrections of an opened bid: an arithmetic correction (算术修正) or a
clarification (澄清、说明或者补正) the buyer asks for and the vendor confirms or
declines through its portal link.

An opened bid is never edited by the buyer (`vendors.services.opened_bids`); a
correction the vendor confirms is applied as the bid's next version, with who asked,
why, and what the vendor answered, so the comparison and the audit trail can name the
version they show.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit

from .bids import Bid
from .rfp import Invitation

CORRECTION_TEXT_MAX_CHARS = 2000


class CorrectionKind(models.TextChoices):
    ARITHMETIC = "arithmetic", _("Arithmetic correction")
    CLARIFICATION = "clarification", _("Clarification")


class CorrectionStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the vendor")
    CONFIRMED = "confirmed", _("Confirmed by the vendor")
    DECLINED = "declined", _("Declined by the vendor")


class BidCorrection(models.Model):
    bid = models.ForeignKey(Bid, on_delete=models.CASCADE, related_name="corrections")
    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, related_name="corrections"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=CorrectionKind.choices)
    what = models.TextField(
        _("what is to be corrected or clarified"),
        **text_limit(CORRECTION_TEXT_MAX_CHARS),
    )
    why = models.TextField(_("why"), **text_limit(CORRECTION_TEXT_MAX_CHARS))
    # Arithmetic corrections: [{"line_item": id, "field": "quantity"|"unit_price",
    # "old": "8.00", "new": "0.80", "description": "..."}], Decimals as strings.
    changes = models.JSONField(default=list, blank=True)
    status = models.CharField(
        max_length=20, choices=CorrectionStatus.choices, default="pending"
    )
    response = models.TextField(
        _("the vendor's answer"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)
    # The bid version a confirmed correction produced (`Bid.version` after it).
    bid_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["requested_at", "id"]
        verbose_name = _("correction request")
        verbose_name_plural = _("correction requests")
