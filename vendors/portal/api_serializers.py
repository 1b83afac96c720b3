"""The portal API's input and output: a vendor's own submissions with their feedback
in the reader's language, its evidence, the questions (anonymised) and the RFP summary.
Nothing here names another vendor or any bid."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import Submission, SubmissionEvidence
from ..models.evidence import SUBMISSION_PURPOSE_CHOICES
from ..models.rfp import QUESTION_MAX_CHARS
from .feedback import shown_feedback


class PortalSubmissionInputSerializer(serializers.Serializer):
    """Documentation of the body: the bid fields as a ``fields`` object (JSON, or its
    text in a multipart form), or as the form's own keys."""

    fields = serializers.JSONField(
        required=False,
        help_text=(
            "the bid's fields by name (accelerator: catalog key or name, gpu_count, "
            "scheduler, network_gbps_per_gpu, storage_tb, response_hours {sev1..3}, "
            "frameworks [..], ...), with the bid API's bounds"
        ),
    )
    proposal_text = serializers.CharField(required=False, allow_blank=True)
    declarations = serializers.JSONField(
        required=False,
        help_text=(
            "policy declarations: declares_sme, declares_domestic (booleans), "
            "domestic_cost_share_pct (0-100, needed with declares_domestic); attach "
            "the evidence with purpose sme / domestic"
        ),
    )
    contact = serializers.JSONField(
        required=False,
        help_text="the bid letter's contact_person, phone, email and bond_account",
    )
    workbook = serializers.FileField(
        required=False,
        help_text="the bid XLSX template filled in; omitted: the latest version's lines",
    )


class PortalFeedbackSerializer(serializers.Serializer):
    complete = serializers.BooleanField(
        help_text="false: the workbook's rows could not be imported (no line items)"
    )
    import_errors = serializers.ListField(
        child=serializers.DictField(), help_text="{row, column, code, params, message}"
    )
    spec_claims = serializers.ListField(
        child=serializers.DictField(),
        help_text="{kind, claim, status, status_label, source, message}",
    )
    mismatches = serializers.IntegerField()
    missing = serializers.ListField(
        child=serializers.DictField(),
        help_text="{code, message, ...}: field_missing, no_line_items, no_proposal, "
        "plan_minimum (item, status, required, offered, unit)",
    )


class PortalSubmissionSerializer(serializers.ModelSerializer):
    """A version; ``status`` "checking" until its background check has run (its
    ``line_items`` and ``feedback`` are empty until then: poll ``receipt_url``)."""

    feedback = serializers.SerializerMethodField()
    receipt = serializers.IntegerField(source="version", read_only=True)

    class Meta:
        model = Submission
        fields = [
            "receipt",
            "version",
            "status",
            "received_at",
            "submitted_at",
            "fields",
            "proposal_text",
            "line_items",
            "workbook_name",
            "declarations",
            "contact",
            "feedback",
        ]

    @extend_schema_field(PortalFeedbackSerializer)
    def get_feedback(self, obj) -> dict:
        return shown_feedback(obj.feedback)


class PortalEvidenceSerializer(serializers.ModelSerializer):
    class Meta:
        model = SubmissionEvidence
        fields = ["id", "original_name", "kind", "purpose", "size_bytes", "uploaded_at"]


class PortalQuestionSerializer(serializers.Serializer):
    question = serializers.CharField()
    answer = serializers.CharField(help_text="empty until answered")
    asked_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)
    mine = serializers.BooleanField(help_text="you asked it (no one else's is named)")


class PortalQuestionInputSerializer(serializers.Serializer):
    question = serializers.CharField(max_length=QUESTION_MAX_CHARS)


class PortalFileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    purpose = serializers.ChoiceField(
        choices=SUBMISSION_PURPOSE_CHOICES,
        required=False,
        help_text="what the file proves (default general)",
    )


class PortalRequirementSerializer(serializers.Serializer):
    """One of the plan's minimums, as the RFP pack states it."""

    code = serializers.CharField()
    label = serializers.CharField()
    shown = serializers.CharField(help_text='the requirement as stated: "≥ 500 TB"')
    basis = serializers.CharField()


class PortalWeightSerializer(serializers.Serializer):
    code = serializers.CharField()
    title = serializers.CharField()
    weight_percent = serializers.FloatField()


class PortalRfpSummarySerializer(serializers.Serializer):
    procurement = serializers.CharField()
    vendor = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    deadline_shown = serializers.CharField(help_text="local time with its time zone")
    open_for_submissions = serializers.BooleanField()
    window_code = serializers.CharField(
        help_text='"" while open; late, opened or no_deadline'
    )
    window_message = serializers.CharField()
    questions_open = serializers.BooleanField()
    instructions = serializers.CharField()
    plan_message = serializers.CharField(help_text='"" when the plan is computed')
    requirements = PortalRequirementSerializer(many=True)
    weights_published = serializers.BooleanField()
    weights = PortalWeightSerializer(many=True, help_text="empty unless published")
    link_expires_at = serializers.DateTimeField()


class PortalSerializer(serializers.Serializer):
    rfp = PortalRfpSummarySerializer()
    submissions = serializers.ListField(child=serializers.DictField())
    evidence = serializers.ListField(child=serializers.DictField())
    questions = serializers.ListField(child=serializers.DictField())


class PortalRefusalSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
