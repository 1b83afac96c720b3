"""Abnormally low prices (87号令 第六十条): the written justification the committee asks
of a bid the tender review flags, the vendor's answer through its portal link (with
optional proof, an attachment of the bid) and the committee's judgement. A bid judged
not justified is an 无效投标 in the tender review (`vendors.comparison.tender`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit

from .bids import Bid, BidAttachment
from .rfp import Invitation

JUSTIFICATION_TEXT_MAX_CHARS = 2000


class Judgement(models.TextChoices):
    JUSTIFIED = "justified", _("Justified")
    NOT_JUSTIFIED = "not_justified", _("Not justified")


class PriceJustification(models.Model):
    bid = models.OneToOneField(
        Bid, on_delete=models.CASCADE, related_name="price_justification"
    )
    # The portal link that sees the request (None: a bid keyed in by the buyer).
    invitation = models.ForeignKey(
        Invitation,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="price_justifications",
    )
    request_note = models.TextField(
        _("what the committee asks"), **text_limit(JUSTIFICATION_TEXT_MAX_CHARS)
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    response = models.TextField(
        _("the vendor's justification"),
        blank=True,
        **text_limit(LONG_TEXT_MAX_CHARS),
    )
    proof = models.ForeignKey(
        BidAttachment,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    responded_at = models.DateTimeField(null=True, blank=True)
    judgement = models.CharField(
        _("judgement"), max_length=20, choices=Judgement.choices, blank=True
    )
    judgement_note = models.TextField(
        _("the committee's reasons"),
        blank=True,
        **text_limit(JUSTIFICATION_TEXT_MAX_CHARS),
    )
    judged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    judged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["requested_at", "id"]
        verbose_name = _("price justification")
        verbose_name_plural = _("price justifications")

    @property
    def state(self) -> str:
        """requested (waiting for the vendor), answered (waiting for the committee),
        or the judgement."""
        if self.judgement:
            return self.judgement
        return "answered" if self.responded_at else "requested"
