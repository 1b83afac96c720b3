"""Bid input and output: line items, attachments and, per viewer, blind labels,
redacted text, sealed prices and attachments (the `Visibility` in the serializer
context, from `visibility.visibility_for`)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _
from rest_framework import serializers

from .. import comparison
from ..fields import BID_FIELDS
from ..models import (
    MONITORING_ITEMS,
    SEVERITIES,
    SUPPORT_CHANNELS,
    Bid,
    BidAttachment,
    CaseStudy,
    Cooling,
    LineCategory,
    Scheduler,
    Vendor,
)
from ..visibility import Visibility


class LineItemSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    category = serializers.ChoiceField(choices=LineCategory.choices)
    description = serializers.CharField(max_length=500)
    quantity = serializers.DecimalField(
        max_digits=12, decimal_places=2, min_value=Decimal("0.01")
    )
    unit_price = serializers.DecimalField(
        max_digits=16, decimal_places=2, min_value=Decimal(0)
    )
    recurring = serializers.BooleanField(default=False)
    amount = serializers.DecimalField(max_digits=28, decimal_places=2, read_only=True)


class BidInputSerializer(serializers.Serializer):
    vendor = serializers.IntegerField()
    accelerator = serializers.CharField(max_length=64)
    gpu_count = serializers.IntegerField(min_value=1)
    nodes = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    server_model = serializers.CharField(
        max_length=200, required=False, allow_blank=True
    )
    scaleup_link = serializers.CharField(
        max_length=100, required=False, allow_blank=True
    )
    scaleup_domain_gpus = serializers.IntegerField(
        min_value=1, required=False, allow_null=True
    )
    network_fabric = serializers.CharField(
        max_length=100, required=False, allow_blank=True
    )
    network_gbps_per_gpu = serializers.FloatField(
        min_value=0, required=False, allow_null=True
    )
    storage_tb = serializers.FloatField(min_value=0, required=False, allow_null=True)
    storage_read_gbs = serializers.FloatField(
        min_value=0, required=False, allow_null=True
    )
    storage_write_gbs = serializers.FloatField(
        min_value=0, required=False, allow_null=True
    )
    cooling = serializers.ChoiceField(
        choices=Cooling.choices, required=False, allow_blank=True
    )
    peak_power_kw = serializers.FloatField(min_value=0, required=False, allow_null=True)
    delivery_weeks = serializers.IntegerField(
        min_value=0, required=False, allow_null=True
    )
    warranty_years = serializers.DecimalField(
        max_digits=4,
        decimal_places=1,
        min_value=Decimal(0),
        max_value=Decimal(10),
        required=False,
        allow_null=True,
    )
    support_channels = serializers.ListField(
        child=serializers.ChoiceField(choices=SUPPORT_CHANNELS), required=False
    )
    response_hours = serializers.DictField(
        child=serializers.FloatField(min_value=0), required=False
    )
    onsite_hours = serializers.FloatField(min_value=0, required=False, allow_null=True)
    availability_pct = serializers.FloatField(
        min_value=0, max_value=100, required=False, allow_null=True
    )
    monitoring = serializers.ListField(
        child=serializers.ChoiceField(choices=MONITORING_ITEMS), required=False
    )
    configurable_alerts = serializers.BooleanField(required=False)
    scheduler = serializers.ChoiceField(choices=Scheduler.choices)
    frameworks = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False
    )
    team_engineers = serializers.IntegerField(
        min_value=0, required=False, allow_null=True
    )
    team_dl_experience = serializers.BooleanField(required=False)
    team_scheduler_experience = serializers.BooleanField(required=False)
    promised_training_days = serializers.FloatField(
        min_value=0, required=False, allow_null=True
    )
    proposal_text = serializers.CharField(required=False, allow_blank=True)
    line_items = LineItemSerializer(many=True, required=False)
    case_studies = serializers.ListField(
        child=serializers.IntegerField(), required=False
    )
    version = serializers.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        required=False,
        help_text="the bid's version you read (its ETag); an older one answers 409",
    )

    def validate_vendor(self, value):
        vendor = Vendor.objects.filter(
            pk=value, organisation=self.context["procurement"].organisation
        ).first()
        if vendor is None:
            raise serializers.ValidationError(_("no such vendor"))
        return vendor

    def validate_response_hours(self, value):
        unknown = set(value) - set(SEVERITIES)
        if unknown:
            raise serializers.ValidationError(_("Use the severities sev1, sev2, sev3."))
        return value

    def validate(self, attrs):
        ids = attrs.get("case_studies")
        if ids is not None:
            vendor = attrs.get("vendor") or getattr(self.instance, "vendor", None)
            studies = list(CaseStudy.objects.filter(pk__in=ids, vendor=vendor))
            if len(studies) != len(set(ids)):
                raise serializers.ValidationError(
                    {"case_studies": [_("No such case study for this vendor.")]}
                )
            attrs["case_studies"] = studies
        return attrs


class AttachmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = BidAttachment
        fields = ["id", "original_name", "kind", "size_bytes", "uploaded_at"]


class BidOutputSerializer(serializers.ModelSerializer):
    """A bid as the requesting user may see it: under blind grading (until scoring
    closes, for whoever does not manage vendors) the vendor is "Vendor n" with a null
    id, case studies are withheld and the bidders' names in every text read
    "[vendor]"; under a sealed envelope (a technical evaluator before submitting)
    prices are null; under either, attachments are withheld."""

    vendor = serializers.SerializerMethodField(
        help_text='{"id", "name", "blind"}; id null and name "Vendor n" when blind'
    )
    line_items = serializers.SerializerMethodField(
        help_text="unit_price and amount null under a sealed envelope"
    )
    quoted_total = serializers.SerializerMethodField(
        help_text="null under a sealed envelope"
    )
    case_studies = serializers.SerializerMethodField(
        help_text="case-study ids; empty under blind grading (they name the vendor)"
    )
    attachments = AttachmentSerializer(
        many=True,
        read_only=True,
        help_text="empty while blind or sealed (a vendor's files carry both)",
    )

    class Meta:
        model = Bid
        fields = [
            "id",
            "procurement",
            "vendor",
            *BID_FIELDS,
            "line_items",
            "quoted_total",
            "case_studies",
            "attachments",
            "created_at",
            "updated_at",
            "version",
        ]

    def _visibility(self) -> Visibility:
        return self.context.get("visibility") or Visibility()

    def to_representation(self, instance):
        """Sealed attachments withheld; under blind grading every text redacted."""
        data = super().to_representation(instance)
        if self._visibility().attachments_sealed:
            data["attachments"] = []
        return self._visibility().redact_tree(data)

    def get_vendor(self, obj) -> dict:
        return self._visibility().vendor(obj)

    def get_line_items(self, obj) -> list[dict]:
        items = LineItemSerializer(obj.line_items.all(), many=True).data
        if self._visibility().prices_hidden:
            for item in items:
                item["unit_price"] = None
                item["amount"] = None
        return items

    def get_quoted_total(self, obj) -> str | None:
        if self._visibility().prices_hidden:
            return None
        lines = [
            comparison.Line(li.category, li.quantity * li.unit_price, li.recurring)
            for li in obj.line_items.all()
        ]
        return str(comparison.quoted_total(lines, obj.procurement.horizon_years))

    def get_case_studies(self, obj) -> list[int]:
        """Withheld under blind grading: case studies are reached through their
        vendor (api/v1/vendors/<id>/case-studies/), so their ids name it."""
        if self._visibility().blind:
            return []
        return [c.pk for c in obj.case_studies.all()]


class ImportErrorSerializer(serializers.Serializer):
    file = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField())


class FileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class BidConflictSerializer(serializers.Serializer):
    """409: the bid changed since the version the client named."""

    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="the stored version")
    changed_by = serializers.CharField(help_text="who made the last change")
    changed_at = serializers.DateTimeField(help_text="when")
