"""Requests for proposal and the supplier portal: what the buyer sends out, whom it
invites, what each vendor submits (sealed until opening) and the questions asked.

A submission is not a bid. It is stored apart from `Bid` and nothing of it reaches
a buyer role (page, API, export, comparison, count) until the procurement's RFP is
opened (`RfpSettings.opened_at`); opening turns each invitation's latest version into
a `Bid` (`Submission.bid`) and records it in the audit trail.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, text_limit
from clusterbuy.models import Procurement

from .bid_bounds import PROPOSAL_TEXT_MAX_CHARS
from .bids import Bid
from .evidence import purpose_field
from .vendors import Vendor

QUESTION_MAX_CHARS = 2000
INSTRUCTIONS_MAX_CHARS = LONG_TEXT_MAX_CHARS


def new_nonce() -> str:
    return secrets.token_urlsafe(16)


def submission_path(instance, filename: str) -> str:
    """portal/<procurement>/<invitation>/<name>: one folder per vendor's answer."""
    invitation = instance.invitation
    return f"portal/{invitation.procurement_id}/{invitation.pk}/{filename}"


class RfpSettings(models.Model):
    """The RFP of one procurement: its deadline, what it publishes and how it opens."""

    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="rfp"
    )
    deadline = models.DateTimeField(_("submission deadline"), null=True, blank=True)
    publish_weights = models.BooleanField(
        _("publish the evaluation weights"), default=False
    )
    two_person_opening = models.BooleanField(
        _("two-person opening"),
        default=False,
        help_text=_("Opening needs a second administrator to confirm."),
    )
    instructions = models.TextField(
        _("instructions to bidders"),
        blank=True,
        **text_limit(INSTRUCTIONS_MAX_CHARS),
    )
    addendum_notice_days = models.PositiveSmallIntegerField(
        _("addendum notice (days)"),
        default=15,
        help_text=_(
            "An addendum that may affect how bids are prepared, issued fewer days "
            "than this before the deadline, moves the deadline. 15 under government "
            "procurement and tendering."
        ),
    )
    issued_at = models.DateTimeField(null=True, blank=True)
    opening_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    opening_requested_at = models.DateTimeField(null=True, blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    opened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("request for proposal")
        verbose_name_plural = _("requests for proposal")

    @property
    def is_open(self) -> bool:
        """Opened: the submissions are bids and visible to the buyer."""
        return self.opened_at is not None


class Invitation(models.Model):
    """One vendor invited to one procurement's RFP, reached by a signed link
    (`vendors.portal.tokens`). Revoking it, or rotating ``nonce`` (a new link),
    stops the old links."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="invitations"
    )
    vendor = models.ForeignKey(
        Vendor, on_delete=models.PROTECT, related_name="invitations"
    )
    email = models.EmailField(_("e-mail address"))
    nonce = models.CharField(max_length=40, default=new_nonce, editable=False)
    expires_at = models.DateTimeField(_("link expires"))
    revoked = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "vendor"], name="invitation_one_per_vendor"
            )
        ]

    def __str__(self) -> str:
        return f"{self.vendor} <{self.email}>"


class Submission(models.Model):
    """One version of a vendor's answer. Versions are never edited: a revision before
    the deadline adds the next version; the latest one is opened as the bid.

    A version is made when its upload arrives (``received_at``: the start of the
    request, the time the deadline is judged by) with status CHECKING; its workbook is
    parsed and its feedback built by a background task (`vendors.portal.checking`),
    which sets READY. The opening waits for the versions still being checked."""

    class Status(models.TextChoices):
        CHECKING = "checking", _("received, checking")
        READY = "ready", _("checked")

    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, related_name="submissions"
    )
    version = models.PositiveIntegerField()
    # The bid's own fields by name (`vendors.fields.BID_FIELDS` less proposal_text),
    # already validated by the bid form's rules.
    fields = models.JSONField(default=dict)
    proposal_text = models.TextField(blank=True, **text_limit(PROPOSAL_TEXT_MAX_CHARS))
    # Parsed line-item rows of the uploaded workbook (the importer's output, as dicts).
    line_items = models.JSONField(default=list)
    workbook = models.FileField(upload_to=submission_path, blank=True)
    workbook_name = models.CharField(max_length=255, blank=True)
    # What the portal told the vendor at submit time (row errors, spec claims,
    # missing required items), kept as shown.
    feedback = models.JSONField(default=dict)
    submitted_at = models.DateTimeField(auto_now_add=True)
    # The number of the RFP version (`RfpVersion.number`) this answer was made under.
    rfp_version = models.PositiveIntegerField(null=True, blank=True)
    # When the upload began arriving (the request's start): the deadline's measure.
    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.READY, db_index=True
    )
    # Bytes this version added to storage (0 when it kept the previous workbook).
    workbook_bytes = models.PositiveBigIntegerField(default=0)
    bid = models.ForeignKey(
        Bid, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The vendor's policy declarations ({"sme", "domestic", "domestic_cost_share_pct"})
    # and the contact facts of its 投标函 ({"contact_person", "phone", "email",
    # "bond_account"}), validated by the portal's forms; carried into the bid
    # (claims) and its `BidContact` at opening.
    declarations = models.JSONField(default=dict, blank=True)
    contact = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["invitation_id", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["invitation", "version"], name="submission_unique_version"
            )
        ]


class SubmissionEvidence(models.Model):
    """A document (case-study PDF, datasheet) a vendor attached; it belongs to the
    invitation and is carried into the bid's attachments at opening."""

    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, related_name="evidence"
    )
    file = models.FileField(upload_to=submission_path)
    original_name = models.CharField(max_length=255)
    kind = models.CharField(max_length=10)  # "pdf" or "xlsx", from magic bytes
    size_bytes = models.PositiveIntegerField()
    purpose = purpose_field()
    uploaded_at = models.DateTimeField(auto_now_add=True)
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["uploaded_at", "id"]


class RfpQuestion(models.Model):
    """A vendor's question; the buyer's answer goes to every invited vendor without
    saying who asked."""

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="rfp_questions"
    )
    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, related_name="questions"
    )
    question = models.TextField(_("question"), **text_limit(QUESTION_MAX_CHARS))
    answer = models.TextField(
        _("answer"), blank=True, **text_limit(LONG_TEXT_MAX_CHARS)
    )
    # The question as the other vendors read it: the buyer's redaction of ``question``
    # (names and aliases masked, then edited) when publishing the answer.
    published_question = models.TextField(
        _("question as published"), blank=True, **text_limit(QUESTION_MAX_CHARS)
    )
    asked_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["asked_at", "id"]


def pack_file_path(instance, filename: str) -> str:
    """rfp/<procurement>/v<number>/<name>: the frozen files of one RFP version."""
    version = instance.version
    return f"rfp/{version.procurement_id}/v{version.number}/{filename}"


class RfpVersion(models.Model):
    """One published state of the RFP, frozen. Number 1 is published by the first
    invitation; every later number is an addendum (澄清或者修改) with what changed.

    ``facts`` is `vendors.rfp.facts.live_rfp_facts` as it stood (requirement,
    workloads, plan minimums, weights, deadline, opening rule), in JSON, so the pack
    and the portal are assembled from it in either language and never from the live
    plan. ``changes`` is the diff against the version before (empty for number 1)."""

    class Kind(models.TextChoices):
        PUBLICATION = "publication", _("Publication")
        ADDENDUM = "addendum", _("Addendum")

    procurement = models.ForeignKey(
        Procurement, on_delete=models.CASCADE, related_name="rfp_versions"
    )
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    facts = models.JSONField()
    changes = models.JSONField(default=list, blank=True)
    note = models.TextField(_("what and why"), blank=True, **text_limit(4000))
    deadline = models.DateTimeField(null=True, blank=True)
    # The deadline the buyer asked for when the notice rule moved it (else None).
    requested_deadline = models.DateTimeField(null=True, blank=True)
    two_person_opening = models.BooleanField(default=False)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    published_at = models.DateTimeField()

    class Meta:
        ordering = ["procurement_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["procurement", "number"], name="rfp_version_unique_number"
            )
        ]

    def __str__(self) -> str:
        return f"RFP {self.procurement_id} v{self.number}"


class RfpPackFile(models.Model):
    """One file of a version's pack (PDF, DOCX or the line-item XLSX, per language),
    stored as sent with its SHA-256, so a vendor can prove what it was given."""

    version = models.ForeignKey(
        RfpVersion, on_delete=models.CASCADE, related_name="pack_files"
    )
    language = models.CharField(max_length=10)  # "zh" or "en"
    fmt = models.CharField(max_length=5)  # "pdf", "docx" or "xlsx"
    name = models.CharField(max_length=120)
    file = models.FileField(upload_to=pack_file_path)
    sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveIntegerField()

    class Meta:
        ordering = ["version_id", "language", "fmt"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "language", "fmt"], name="rfp_pack_file_unique"
            )
        ]


class AddendumNotice(models.Model):
    """An addendum as it reached one invited vendor: e-mailed when, acknowledged in
    the portal when."""

    version = models.ForeignKey(
        RfpVersion, on_delete=models.CASCADE, related_name="notices"
    )
    invitation = models.ForeignKey(
        Invitation, on_delete=models.CASCADE, related_name="addendum_notices"
    )
    emailed_at = models.DateTimeField(null=True, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["version_id", "invitation_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "invitation"], name="addendum_notice_unique"
            )
        ]
