"""Procurement REST API: thin views over the core services."""

from django.db import transaction
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from . import services
from .access import Capability, organisation_of, require
from .bounds import model_field_limits
from .models import Procurement, Stage, StageChange
from .permissions import capability_for_writes
from .text import refuse_line_breaks


class ProcurementSerializer(serializers.ModelSerializer):
    stage_label = serializers.CharField(source="get_stage_display", read_only=True)

    class Meta:
        model = Procurement
        fields = [
            "id",
            *services.PROCUREMENT_FIELDS,
            "stage",
            "stage_label",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "stage", "stage_label", "created_at", "updated_at"]
        extra_kwargs = {
            "horizon_years": {"min_value": 3, "max_value": 5},
            "budget_min": {"min_value": 0},
            "budget_max": {"min_value": 0},
        }
        validators = []  # uniqueness per organisation is the service's

    def validate_name(self, value: str) -> str:
        refuse_line_breaks(value)  # e-mail subjects and document titles: one line
        return value

    def validate(self, attrs):
        low = attrs.get("budget_min", getattr(self.instance, "budget_min", None))
        high = attrs.get("budget_max", getattr(self.instance, "budget_max", None))
        if low is not None and high is not None and low > high:
            raise serializers.ValidationError(
                {
                    "budget_max": [
                        "The budget's upper bound must not be below its lower bound."
                    ]
                }
            )
        return attrs


class StageChangeInputSerializer(serializers.Serializer):
    to_stage = serializers.ChoiceField(choices=Stage.choices)
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        **model_field_limits(StageChange, "note"),
    )


class StageChangeSerializer(serializers.ModelSerializer):
    changed_by = serializers.CharField(source="changed_by.username", default=None)

    class Meta:
        model = StageChange
        fields = ["from_stage", "to_stage", "changed_by", "note", "changed_at"]


class ProcurementFilter(filters.FilterSet):
    class Meta:
        model = Procurement
        fields = ["stage", "currency", "deployment_site", "region"]


class ProcurementViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = ProcurementSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_PROCUREMENT)]
    filterset_class = ProcurementFilter

    def get_queryset(self):
        return Procurement.objects.for_user(self.request.user).order_by(
            "-updated_at", "-id"
        )

    def perform_create(self, serializer):
        serializer.instance = services.create_procurement(
            organisation=organisation_of(self.request.user),
            user=self.request.user,
            **serializer.validated_data,
        )

    def perform_update(self, serializer):
        serializer.instance = services.update_procurement(
            procurement=serializer.instance,
            user=self.request.user,
            **serializer.validated_data,
        )

    @transaction.atomic
    def perform_destroy(self, instance):
        instance.delete()

    @extend_schema(request=StageChangeInputSerializer, responses=StageChangeSerializer)
    @action(detail=True, methods=["post"], url_path="stage")
    def stage(self, request, pk=None):
        """Move the procurement one stage on (when its checklist passes) or back."""
        procurement = self.get_object()
        require(request.user, Capability.ADVANCE_STAGE)
        data = StageChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        change = services.change_stage(
            procurement=procurement, user=request.user, **data.validated_data
        )
        return Response(
            StageChangeSerializer(change).data, status=status.HTTP_201_CREATED
        )
