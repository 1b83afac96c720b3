"""Bid input and output: line items, attachments and, per viewer, blind labels,
redacted text, sealed prices and attachments (the `Visibility` in the serializer
context, from `visibility.visibility_for`)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import serializers

from .. import comparison
from ..engine.fields import BID_FIELDS
from ..models import (
    CHECKED_BID_FIELDS,
    FRAMEWORK_NAME_MAX_CHARS,
    FRAMEWORKS_MAX_ITEMS,
    HOURS_MAX,
    MONITORING_ITEMS,
    SEVERITIES,
    SUPPORT_CHANNELS,
    Bid,
    BidAttachment,
    BidLineItem,
    CaseStudy,
    EvidencePurpose,
    LineCategory,
    Vendor,
    line_terms_errors,
)
from ..visibility import Visibility


class LineItemSerializer(serializers.ModelSerializer):
    """A line item in and out; digits and minimums come from the model fields."""

    amount = serializers.DecimalField(max_digits=28, decimal_places=2, read_only=True)
    scope = serializers.ListField(
        child=serializers.ChoiceField(choices=LineCategory.choices),
        required=False,
        max_length=len(LineCategory.choices),
        help_text="other categories this line's price covers (a service package "
        "incl. network, storage, installation): not added again in the TCO",
    )

    class Meta:
        model = BidLineItem
        fields = ["id", "category", "description", "quantity", "unit_price"]
        fields += ["recurring", "year_from", "year_to", "scope", "amount"]

    def validate(self, attrs):
        errors = line_terms_errors(
            year_from=attrs.get("year_from"),
            year_to=attrs.get("year_to"),
            scope=attrs.get("scope", []),
            category=attrs.get("category", ""),
        )
        if errors:
            raise serializers.ValidationError(errors)
        return attrs


class BidInputSerializer(serializers.ModelSerializer):
    """A bid's figures with the bounds of their model fields (`bid_bounds`): a figure
    out of range is a 400 naming it, never a database error. The lists are declared
    here only for their item choices."""

    vendor = serializers.IntegerField()
    support_channels = serializers.ListField(
        child=serializers.ChoiceField(choices=SUPPORT_CHANNELS),
        required=False,
        max_length=len(SUPPORT_CHANNELS),
    )
    response_hours = serializers.DictField(
        child=serializers.FloatField(min_value=0, max_value=HOURS_MAX),
        required=False,
    )
    monitoring = serializers.ListField(
        child=serializers.ChoiceField(choices=MONITORING_ITEMS),
        required=False,
        max_length=len(MONITORING_ITEMS),
    )
    frameworks = serializers.ListField(
        child=serializers.CharField(max_length=FRAMEWORK_NAME_MAX_CHARS),
        required=False,
        max_length=FRAMEWORKS_MAX_ITEMS,
    )
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

    class Meta:
        model = Bid
        fields = ["vendor", *BID_FIELDS, "line_items", "case_studies", "version"]
        validators: list = []  # one bid per vendor is the service's rule

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
        fields = ["id", "original_name", "kind", "purpose", "size_bytes", "uploaded_at"]


class BidOutputSerializer(serializers.ModelSerializer):
    """A bid as the requesting user may see it: under blind grading (until scoring
    closes, for whoever does not manage vendors) the vendor is "Vendor n" with a null
    id, case studies are withheld and the bidders' names in every text read
    "[vendor]"; under a sealed envelope (a technical evaluator before submitting)
    prices are null; under either, attachments are withheld. A figure its own field
    refuses (written past validation) is null and named in `invalid_fields`, as are
    the prices computed from it."""

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
    invalid_fields = serializers.SerializerMethodField()

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
            "invalid_fields",
            "created_at",
            "updated_at",
            "version",
        ]
        extra_kwargs = {name: {"allow_null": True} for name in CHECKED_BID_FIELDS}

    def _visibility(self) -> Visibility:
        return self.context.get("visibility") or Visibility()

    def to_representation(self, instance):
        """Invalid stored figures null; sealed attachments withheld; under blind
        grading every text redacted."""
        data = super().to_representation(instance)
        for name in instance.invalid_fields:
            data[name] = None
        if self._visibility().attachments_sealed:
            data["attachments"] = []
        return self._visibility().redact_tree(data)

    def get_vendor(self, obj) -> dict:
        return self._visibility().vendor(obj)

    def get_line_items(self, obj) -> list[dict]:
        rows = list(obj.line_items.all())
        items = LineItemSerializer(rows, many=True).data
        for row, item in zip(rows, items, strict=True):
            if not row.is_valid:
                item.update(quantity=None, unit_price=None, amount=None)
            if self._visibility().prices_hidden:
                item["unit_price"] = None
                item["amount"] = None
        return items

    def _quoted_total(self, obj):
        if not comparison.lines_are_valid(obj):
            return None
        lines = comparison.bid_lines(obj)
        return comparison.quoted_total(lines, obj.procurement.horizon_years)

    def get_quoted_total(self, obj) -> str | None:
        if self._visibility().prices_hidden:
            return None
        total = self._quoted_total(obj)
        return None if total is None else str(total)

    def get_case_studies(self, obj) -> list[int]:
        """Withheld under blind grading: case studies are reached through their
        vendor (api/v1/vendors/<id>/case-studies/), so their ids name it."""
        if self._visibility().blind:
            return []
        return [c.pk for c in obj.case_studies.all()]

    def get_invalid_fields(self, obj) -> list[str]:
        names = set(obj.invalid_fields)
        if not self._visibility().prices_hidden:
            if not comparison.lines_are_valid(obj):
                names.add("line_items")
            if self._quoted_total(obj) is None:
                names.add("quoted_total")
        return sorted(names)


class ImportErrorSerializer(serializers.Serializer):
    file = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField())


class FileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class AttachmentUploadSerializer(FileUploadSerializer):
    purpose = serializers.ChoiceField(
        choices=EvidencePurpose.choices,
        required=False,
        help_text="what the file proves (default general); a declaration is "
        "accepted only with the evidence of its purpose",
    )


class BidConflictSerializer(serializers.Serializer):
    """409: the bid changed since the version the client named."""

    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="the stored version")
    changed_by = serializers.CharField(help_text="who made the last change")
    changed_at = serializers.DateTimeField(help_text="when")
