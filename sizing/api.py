"""Sizing REST API: the catalogue, the stateless estimate, a procurement's workloads
and sizing plans. Thin views over ``sizing.services``; serializers hold no rules."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, access_procurement
from clusterbuy.ids import KEY_PATTERN
from clusterbuy.permissions import capability_for_writes

from . import services
from .messages import labelled_result
from .models import Accelerator, ModelPreset, Requirement, SizingPlan, Workload

# ------------------------------------------------------------------------ catalogue


class AcceleratorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Accelerator
        exclude = ["id", "created_at"]


class AcceleratorFilter(filters.FilterSet):
    vendor = filters.CharFilter(field_name="vendor", lookup_expr="iexact")
    min_memory_gb = filters.NumberFilter(field_name="memory_gb", lookup_expr="gte")
    available_in = filters.ChoiceFilter(
        choices=[("cn", "cn"), ("global", "global")],
        method="filter_available_in",
        label="available or conditional in region",
    )
    cn_status = filters.CharFilter(field_name="cn_status")
    ecosystem = filters.CharFilter(field_name="ecosystem")

    class Meta:
        model = Accelerator
        fields = ["vendor", "min_memory_gb", "available_in", "cn_status", "ecosystem"]

    def filter_available_in(self, queryset, name, value):
        return queryset.available_in(value)


class AcceleratorViewSet(viewsets.ReadOnlyModelViewSet):
    """The hardware catalogue (public reference data, editable in the admin)."""

    serializer_class = AcceleratorSerializer
    permission_classes = [AllowAny]
    filterset_class = AcceleratorFilter
    queryset = Accelerator.objects.order_by("vendor", "key")
    lookup_field = "key"
    lookup_value_regex = KEY_PATTERN


class ModelPresetSerializer(serializers.ModelSerializer):
    class Meta:
        model = ModelPreset
        exclude = ["id", "created_at"]


class ModelPresetViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ModelPresetSerializer
    permission_classes = [AllowAny]
    queryset = ModelPreset.objects.order_by("key")
    lookup_field = "key"
    lookup_value_regex = KEY_PATTERN


# ------------------------------------------------------------------------- estimate


class EstimateInputSerializer(serializers.Serializer):
    workload = serializers.JSONField(
        help_text='e.g. {"kind": "inference", "model": {"preset": "llama-2-70b"}, '
        '"context_tokens": 2048, "output_tokens": 256, "concurrent_requests": 32}'
    )
    accelerator = serializers.CharField(
        required=False, allow_null=True, help_text="catalogue key; omit to rank"
    )
    constraints = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text='e.g. {"region": "cn", "rack_power_limit_kw": 20}',
    )


class BottleneckSerializer(serializers.Serializer):
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=["info", "warning", "error"])
    message = serializers.CharField()
    value = serializers.JSONField(required=False)
    limit = serializers.JSONField(required=False)
    unit = serializers.CharField(required=False)


class ExplanationSerializer(serializers.Serializer):
    quantity = serializers.CharField()
    label = serializers.CharField(
        help_text="The quantity's name in the requested language (Accept-Language)"
    )
    value = serializers.JSONField()
    unit = serializers.CharField()
    formula = serializers.CharField()
    inputs = serializers.DictField()
    source = serializers.CharField()


class EstimateResultSerializer(serializers.Serializer):
    engine_version = serializers.CharField()
    kind = serializers.CharField()
    accelerator = serializers.CharField()
    gpu_count = serializers.IntegerField()
    precision = serializers.DictField(
        help_text='{"weights": "fp8", "source": "published"}: requested, the '
        "model's published precision (serving) or the training default (BF16)"
    )
    training = serializers.DictField(allow_null=True)
    memory = serializers.DictField()
    inference = serializers.DictField(allow_null=True)
    parallelism = serializers.DictField()
    interconnect = serializers.DictField()
    storage = serializers.DictField()
    power = serializers.DictField()
    cost = serializers.DictField()
    compatibility = serializers.DictField()
    bottlenecks = BottleneckSerializer(many=True)
    alternatives = serializers.ListField(child=serializers.DictField())
    explanation = ExplanationSerializer(many=True)


class EstimateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=EstimateInputSerializer,
        responses={200: EstimateResultSerializer},
        summary="Size one workload (stateless)",
        description="Bad input answers 400 naming the field, e.g. "
        '{"workload.model.hidden_size": ["..."]}.',
    )
    def post(self, request):
        data = EstimateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = {k: v for k, v in data.validated_data.items() if v is not None}
        return Response(labelled_result(services.estimate_from_body(body)))


# ------------------------------------------------------------- procurement workloads


class WorkloadSerializer(serializers.ModelSerializer):
    effective_precision = serializers.SerializerMethodField(
        help_text='{"weights": "fp8", "source": "published"}: the precision the plan '
        "sizes this workload at; source is requested, published (serving at the "
        "model's published precision) or training_default (BF16)"
    )

    class Meta:
        model = Workload
        fields = [
            "id",
            *services.WORKLOAD_FIELDS,
            "effective_precision",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {
            "precision": {
                "allow_null": True,
                "help_text": "empty or null: the model's published precision when "
                "serving, BF16 when training",
            }
        }

    def validate_precision(self, value):
        return value or ""

    def get_effective_precision(self, obj) -> dict | None:
        return services.effective_precision(workload=obj)


class ProcurementScoped:
    """Resolves the URL's procurement through the one access rule (404 elsewhere)."""

    def check_permissions(self, request):
        if getattr(request.user, "is_authenticated", False):
            self.procurement()  # another organisation's procurement: 404 before 403
        super().check_permissions(request)

    def procurement(self):
        if not hasattr(self, "_procurement"):
            self._procurement = access_procurement(
                self.request.user, self.kwargs["procurement_pk"]
            )
        return self._procurement


PROCUREMENT_PARAM = OpenApiParameter("procurement_pk", int, OpenApiParameter.PATH)


@extend_schema_view(
    list=extend_schema(parameters=[PROCUREMENT_PARAM]),
    create=extend_schema(parameters=[PROCUREMENT_PARAM]),
    retrieve=extend_schema(parameters=[PROCUREMENT_PARAM]),
    update=extend_schema(parameters=[PROCUREMENT_PARAM]),
    partial_update=extend_schema(parameters=[PROCUREMENT_PARAM]),
    destroy=extend_schema(parameters=[PROCUREMENT_PARAM]),
)
class WorkloadViewSet(ProcurementScoped, viewsets.ModelViewSet):
    """A procurement's workloads; IT lead and admin write."""

    serializer_class = WorkloadSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_REQUIREMENTS)]
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Workload.objects.none()
        return Workload.objects.for_procurement(self.procurement())

    def perform_create(self, serializer):
        serializer.instance = services.create_workload(
            procurement=self.procurement(), **serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = services.update_workload(
            workload=serializer.instance, **serializer.validated_data
        )

    def perform_destroy(self, instance):
        services.delete_workload(workload=instance)


# ----------------------------------------------------------------------- requirement


class ProcurementFactsSerializer(serializers.Serializer):
    """The procurement's facts the questionnaire shows read-only (issue 12)."""

    currency = serializers.CharField()
    budget_min = serializers.DecimalField(max_digits=16, decimal_places=2)
    budget_max = serializers.DecimalField(max_digits=16, decimal_places=2)
    horizon_years = serializers.IntegerField()
    deployment_site = serializers.CharField()
    city = serializers.CharField()
    region = serializers.CharField()
    data_sensitivity = serializers.CharField()
    slurm_experience = serializers.BooleanField()
    kubernetes_experience = serializers.BooleanField()


class RequirementSerializer(serializers.ModelSerializer):
    """The questionnaire's answers. Budget, horizon, site, region, data locality and
    scheduler experience are the procurement's: naming one is a 400 on that field."""

    procurement_facts = serializers.SerializerMethodField()

    class Meta:
        model = Requirement
        fields = [*services.REQUIREMENT_FIELDS, "procurement_facts", "updated_at"]
        read_only_fields = ["updated_at"]
        extra_kwargs = {
            name: {"min_value": 0}
            for name in ("data_tb", "growth_per_year", "rack_power_limit_kw")
        }

    def to_internal_value(self, data):
        if isinstance(data, dict):
            refused = {
                name: [services.procurement_fact_error(name)]
                for name in data
                if name in services.PROCUREMENT_FACTS
            }
            if refused:
                raise serializers.ValidationError(refused)
        return super().to_internal_value(data)

    @extend_schema_field(ProcurementFactsSerializer)
    def get_procurement_facts(self, obj) -> dict:
        return ProcurementFactsSerializer(obj.procurement).data


@extend_schema(parameters=[PROCUREMENT_PARAM])
class RequirementView(ProcurementScoped, APIView):
    """The procurement's questionnaire (one per procurement); IT lead and admin
    write. ``PUT``/``PATCH`` store the answers without computing a plan."""

    permission_classes = [capability_for_writes(Capability.EDIT_REQUIREMENTS)]

    @extend_schema(responses=RequirementSerializer)
    def get(self, request, procurement_pk):
        requirement = services.requirement_for(procurement=self.procurement())
        return Response(RequirementSerializer(requirement).data)

    @extend_schema(request=RequirementSerializer, responses=RequirementSerializer)
    def put(self, request, procurement_pk):
        return self._save(request, partial=False)

    @extend_schema(request=RequirementSerializer, responses=RequirementSerializer)
    def patch(self, request, procurement_pk):
        return self._save(request, partial=True)

    def _save(self, request, *, partial: bool):
        procurement = self.procurement()
        current = services.requirement_for(procurement=procurement)
        data = RequirementSerializer(current, data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        requirement = services.save_requirement(
            procurement=procurement, user=request.user, **data.validated_data
        )
        return Response(RequirementSerializer(requirement).data)


# --------------------------------------------------------------------- sizing plans


class SizingPlanListSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", default=None)
    accelerator = serializers.CharField(source="result.accelerator")
    gpu_count = serializers.IntegerField(source="result.gpu_count")
    nodes = serializers.IntegerField(source="result.nodes")

    class Meta:
        model = SizingPlan
        fields = [
            "id",
            "engine_version",
            "accelerator",
            "gpu_count",
            "nodes",
            "created_by",
            "created_at",
        ]


class BudgetCheckSerializer(serializers.Serializer):
    """An amount against the procurement's budget ceiling (`sizing.engine.budget`)."""

    amount = serializers.DecimalField(max_digits=20, decimal_places=2)
    ceiling = serializers.DecimalField(max_digits=20, decimal_places=2)
    currency = serializers.CharField()
    variance = serializers.DecimalField(max_digits=20, decimal_places=2)
    share_pct = serializers.DecimalField(max_digits=12, decimal_places=1)
    over_budget = serializers.BooleanField(source="over")


class SizingPlanSerializer(SizingPlanListSerializer):
    result = serializers.SerializerMethodField()

    def get_result(self, plan) -> dict:
        return labelled_result(plan.result)

    stale = serializers.SerializerMethodField(
        help_text="true when the requirement or a workload changed since this plan "
        "was computed (the sizing and RFP tabs show the out-of-date banner)"
    )

    budget = serializers.SerializerMethodField(
        help_text="The whole cluster's GPU capex plus energy against the "
        "procurement's budget ceiling, in its currency; null without a budget."
    )

    class Meta(SizingPlanListSerializer.Meta):
        fields = [
            *SizingPlanListSerializer.Meta.fields,
            "stale",
            "result",
            "alternatives",
            "inputs",
            "budget",
        ]

    def get_stale(self, plan: SizingPlan) -> bool:
        return services.plan_is_stale(procurement=plan.procurement, plan=plan)

    @extend_schema_field(BudgetCheckSerializer(allow_null=True))
    def get_budget(self, obj) -> dict | None:
        check = services.plan_budget(plan=obj)
        return None if check is None else BudgetCheckSerializer(check).data


class SizingPlanCreateSerializer(serializers.Serializer):
    """No body: the plan is computed from the procurement's requirement and workloads."""


@extend_schema_view(
    list=extend_schema(
        parameters=[PROCUREMENT_PARAM], responses=SizingPlanListSerializer(many=True)
    ),
    retrieve=extend_schema(parameters=[PROCUREMENT_PARAM]),
    create=extend_schema(
        parameters=[PROCUREMENT_PARAM],
        request=SizingPlanCreateSerializer,
        responses={201: SizingPlanSerializer},
        description="Compute and store a plan from the procurement's workloads and "
        "requirement; 400 naming the field when a workload cannot be sized.",
    ),
)
class SizingPlanViewSet(
    ProcurementScoped,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """A procurement's sizing plans, latest first (history is kept)."""

    serializer_class = SizingPlanSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_REQUIREMENTS)]
    filter_backends: list = []

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return SizingPlan.objects.none()
        return SizingPlan.objects.for_procurement(self.procurement()).select_related(
            "created_by"
        )

    def get_serializer_class(self):
        return (
            SizingPlanListSerializer if self.action == "list" else SizingPlanSerializer
        )

    def get_object(self):
        return get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])

    def create(self, request, *args, **kwargs):
        plan = services.compute_sizing_plan(
            procurement=self.procurement(), user=request.user
        )
        return Response(SizingPlanSerializer(plan).data, status=status.HTTP_201_CREATED)
