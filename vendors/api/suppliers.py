"""Vendors and their case studies."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from rest_framework import serializers, viewsets

from clusterbuy.access import Capability, organisation_of
from clusterbuy.permissions import capability_for_writes

from ..engine.fields import CASE_STUDY_FIELDS, VENDOR_FIELDS
from ..models import Bid, CaseStudy, Vendor, VendorKind
from ..models.vendors import ALIAS_MAX_CHARS, MAX_ALIASES
from ..services import suppliers
from ..visibility import visible_vendors


class VendorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Vendor
        fields = ["id", *VENDOR_FIELDS, "created_at"]
        read_only_fields = ["id", "created_at"]
        validators = []  # name uniqueness per organisation is the service's

    kind = serializers.ChoiceField(choices=VendorKind.choices, required=False)
    aliases = serializers.ListField(
        child=serializers.CharField(min_length=2, max_length=ALIAS_MAX_CHARS),
        max_length=MAX_ALIASES,
        required=False,
        help_text="short names, brands and product lines masked for blind "
        "evaluators besides the legal name",
    )
    alias_exceptions = serializers.ListField(
        child=serializers.CharField(min_length=2, max_length=ALIAS_MAX_CHARS),
        max_length=MAX_ALIASES,
        required=False,
        help_text="terms learnt from the vendor's texts that stay visible",
    )


class VendorViewSet(viewsets.ModelViewSet):
    serializer_class = VendorSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    filterset_fields = ["kind"]

    def get_queryset(self):
        return visible_vendors(self.request.user).order_by("name", "id")

    def perform_create(self, serializer):
        serializer.instance = suppliers.create_vendor(
            organisation=organisation_of(self.request.user), **serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = suppliers.update_vendor(
            vendor=serializer.instance, **serializer.validated_data
        )

    @transaction.atomic
    def perform_destroy(self, instance):
        suppliers.delete_vendor(vendor=instance)


class CaseStudySerializer(serializers.ModelSerializer):
    bids = serializers.ListField(
        child=serializers.IntegerField(), required=False, write_only=True
    )
    bid_ids = serializers.SerializerMethodField()

    class Meta:
        model = CaseStudy
        fields = ["id", "vendor", *CASE_STUDY_FIELDS, "bids", "bid_ids"]
        read_only_fields = ["id", "vendor"]

    def get_bid_ids(self, obj) -> list[int]:
        return [b.pk for b in obj.bids.all()]

    def validate_bids(self, value):
        vendor = self.context["vendor"]
        bids = list(Bid.objects.filter(pk__in=value, vendor=vendor))
        if len(bids) != len(set(value)):
            raise serializers.ValidationError(_("No such bid for this vendor."))
        return bids


class CaseStudyViewSet(viewsets.ModelViewSet):
    serializer_class = CaseStudySerializer
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    def vendor(self) -> Vendor:
        if not hasattr(self, "_vendor"):
            self._vendor = get_object_or_404(
                visible_vendors(self.request.user), pk=self.kwargs["vendor_pk"]
            )
        return self._vendor

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return CaseStudy.objects.none()
        return (
            CaseStudy.objects.filter(vendor=self.vendor())
            .prefetch_related("bids")
            .order_by("id")
        )

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "vendor_pk" in self.kwargs:
            context["vendor"] = self.vendor()
        return context

    def perform_create(self, serializer):
        serializer.instance = suppliers.create_case_study(
            vendor=self.vendor(), **serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = suppliers.update_case_study(
            case_study=serializer.instance, **serializer.validated_data
        )
