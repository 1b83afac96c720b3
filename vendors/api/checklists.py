"""The organisation's checklist templates (read: stored ones, and the default before
its first use, unsaved)."""

from __future__ import annotations

from decimal import Decimal

from rest_framework import mixins, serializers, viewsets
from rest_framework.response import Response

from clusterbuy.access import Capability, organisation_of
from clusterbuy.permissions import capability_for_writes

from ..models import ChecklistTemplate
from ..services import checklists


class CriterionSerializer(serializers.Serializer):
    code = serializers.SlugField(max_length=40)
    text = serializers.CharField(max_length=300)
    weight = serializers.DecimalField(
        max_digits=6, decimal_places=2, min_value=Decimal(0)
    )


class SectionSerializer(serializers.Serializer):
    code = serializers.SlugField(max_length=40)
    title = serializers.CharField(max_length=200)
    weight = serializers.DecimalField(
        max_digits=6, decimal_places=2, min_value=Decimal(0)
    )
    auto_price = serializers.BooleanField(default=False)
    criteria = CriterionSerializer(many=True)


class ChecklistTemplateSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="null for the organisation's default checklist before its first use",
    )
    name = serializers.CharField(max_length=200)
    is_default = serializers.BooleanField(read_only=True)
    sections = SectionSerializer(many=True, required=False)

    def to_representation(self, instance):
        return {
            "id": instance.pk,
            "name": instance.name,
            "is_default": instance.is_default,
            "sections": [
                {
                    **section,
                    "weight": str(section["weight"]),
                    "criteria": [
                        {**criterion, "weight": str(criterion["weight"])}
                        for criterion in section["criteria"]
                    ],
                }
                for section in checklists.template_sections(instance)
            ],
        }


class ChecklistTemplateViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = ChecklistTemplateSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ChecklistTemplate.objects.none()
        return (
            ChecklistTemplate.objects.filter(
                organisation=organisation_of(self.request.user)
            )
            .prefetch_related("sections__criteria")
            .order_by("-is_default", "name", "id")
        )

    def list(self, request, *args, **kwargs):
        """The stored checklists and, before its first use, the organisation's
        default (unsaved: no id until a write path stores it)."""
        templates = list(self.filter_queryset(self.get_queryset()))
        default = checklists.default_template(
            organisation=organisation_of(request.user)
        )
        if default.pk is None:
            templates.insert(0, default)
        page = self.paginate_queryset(templates)
        if page is None:
            return Response(self.get_serializer(templates, many=True).data)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def perform_create(self, serializer):
        serializer.instance = checklists.create_template(
            organisation=organisation_of(self.request.user),
            **serializer.validated_data,
        )

    def perform_update(self, serializer):
        serializer.instance = checklists.update_template(
            template=serializer.instance, **serializer.validated_data
        )

    def perform_destroy(self, instance):
        checklists.delete_template(template=instance)
