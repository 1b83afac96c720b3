"""Vendor-evaluation REST API: explicit serializers, thin views over the vendors use-case modules.

Organisation scoping: vendors and checklist templates are filtered by the user's
organisation, bids through `access_procurement` (404 for another organisation's ids).
A vendor id of another organisation in a bid is "no such vendor" (400).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import (
    Capability,
    access_procurement,
    can,
    organisation_of,
    require,
)
from clusterbuy.permissions import IsMember, capability_for_writes

from . import attachments, bids, checklists, comparison, evaluation, suppliers
from .fields import BID_FIELDS, CASE_STUDY_FIELDS, VENDOR_FIELDS
from .importing import LineItemImportError
from .models import (
    MONITORING_ITEMS,
    SEVERITIES,
    SUPPORT_CHANNELS,
    Bid,
    BidAttachment,
    CaseStudy,
    ChecklistCriterion,
    ChecklistTemplate,
    Cooling,
    LineCategory,
    Scheduler,
    Score,
    Vendor,
    VendorKind,
)

# --- vendors -----------------------------------------------------------------------


class VendorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Vendor
        fields = ["id", *VENDOR_FIELDS, "created_at"]
        read_only_fields = ["id", "created_at"]
        validators = []  # name uniqueness per organisation is the service's

    kind = serializers.ChoiceField(choices=VendorKind.choices, required=False)


class VendorViewSet(viewsets.ModelViewSet):
    serializer_class = VendorSerializer
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    filterset_fields = ["kind"]

    def get_queryset(self):
        return Vendor.objects.for_user(self.request.user).order_by("name", "id")

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


# --- case studies ------------------------------------------------------------------


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
                Vendor.objects.for_user(self.request.user), pk=self.kwargs["vendor_pk"]
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


# --- bids --------------------------------------------------------------------------


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
    vendor = serializers.SerializerMethodField()
    line_items = serializers.SerializerMethodField()
    quoted_total = serializers.SerializerMethodField()
    case_studies = serializers.SerializerMethodField()
    attachments = AttachmentSerializer(many=True, read_only=True)

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
        ]

    def _labels(self) -> dict[int, str]:
        return self.context.get("blind_labels") or {}

    def get_vendor(self, obj) -> dict:
        labels = self._labels()
        if obj.pk in labels:
            return {"id": None, "name": labels[obj.pk], "blind": True}
        return {"id": obj.vendor_id, "name": obj.vendor.name, "blind": False}

    def get_line_items(self, obj) -> list[dict]:
        items = LineItemSerializer(obj.line_items.all(), many=True).data
        if self.context.get("hide_prices"):
            for item in items:
                item["unit_price"] = None
                item["amount"] = None
        return items

    def get_quoted_total(self, obj) -> str | None:
        if self.context.get("hide_prices"):
            return None
        lines = [
            comparison.Line(li.category, li.quantity * li.unit_price, li.recurring)
            for li in obj.line_items.all()
        ]
        return str(comparison.quoted_total(lines, obj.procurement.horizon_years))

    def get_case_studies(self, obj) -> list[int]:
        return [c.pk for c in obj.case_studies.all()]


class ProcurementScopedMixin:
    def procurement(self):
        if not hasattr(self, "_procurement"):
            self._procurement = access_procurement(
                self.request.user, self.kwargs["procurement_pk"]
            )
        return self._procurement

    def bid(self) -> Bid:
        if not hasattr(self, "_bid"):
            self._bid = get_object_or_404(
                Bid.objects.for_procurement(self.procurement()).select_related(
                    "procurement", "vendor"
                ),
                pk=self.kwargs["bid_pk"],
            )
        return self._bid


class BidViewSet(ProcurementScopedMixin, viewsets.ModelViewSet):
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    serializer_class = BidOutputSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Bid.objects.none()
        return (
            Bid.objects.for_procurement(self.procurement())
            .select_related("vendor", "procurement")
            .prefetch_related("line_items", "case_studies", "attachments")
            .order_by("id")
        )

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "procurement_pk" in self.kwargs:
            context["procurement"] = self.procurement()
            context.update(
                evaluation.visibility_context(self.procurement(), self.request.user)
            )
        return context

    def _output(self, bid, code=status.HTTP_200_OK):
        bid = self.get_queryset().get(pk=bid.pk)
        return Response(
            BidOutputSerializer(bid, context=self.get_serializer_context()).data,
            status=code,
        )

    @extend_schema(request=BidInputSerializer, responses={201: BidOutputSerializer})
    def create(self, request, *args, **kwargs):
        data = BidInputSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        bid = bids.create_bid(
            procurement=self.procurement(),
            user=request.user,
            **values,
        )
        return self._output(bid, status.HTTP_201_CREATED)

    @extend_schema(request=BidInputSerializer, responses=BidOutputSerializer)
    def update(self, request, *args, **kwargs):
        bid = self.get_object()
        partial = kwargs.pop("partial", False)
        data = BidInputSerializer(
            bid,
            data=request.data,
            partial=partial,
            context=self.get_serializer_context(),
        )
        data.is_valid(raise_exception=True)
        bids.update_bid(bid=bid, user=request.user, **data.validated_data)
        return self._output(bid)

    @extend_schema(request=BidInputSerializer, responses=BidOutputSerializer)
    def partial_update(self, request, *args, **kwargs):
        kwargs["partial"] = True
        return self.update(request, *args, **kwargs)

    @transaction.atomic
    def perform_destroy(self, instance):
        bids.delete_bid(bid=instance)


class ImportErrorSerializer(serializers.Serializer):
    file = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField())


class FileUploadSerializer(serializers.Serializer):
    file = serializers.FileField()


class LineItemImportView(ProcurementScopedMixin, APIView):
    """Replace a bid's line items from an XLSX/CSV sheet (the template), all or nothing."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": FileUploadSerializer},
        responses={
            201: LineItemSerializer(many=True),
            400: OpenApiResponse(ImportErrorSerializer, description="per-row errors"),
        },
    )
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"file": [_("Choose a file to upload.")], "rows": []},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            items = bids.import_line_items(
                bid=bid, fileobj=upload, filename=upload.name, user=request.user
            )
        except LineItemImportError as exc:
            return Response(import_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response(
            LineItemSerializer(items, many=True).data, status=status.HTTP_201_CREATED
        )


def import_errors(exc: LineItemImportError) -> dict:
    return {
        "file": [e.message for e in exc.errors if e.row == 0],
        "rows": [
            {"row": e.row, "column": e.column, "message": e.message}
            for e in exc.errors
            if e.row > 0
        ],
    }


class AttachmentView(ProcurementScopedMixin, APIView):
    """A bid's attachments: PDF or XLSX, checked by content, at most 10 MB."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(responses=AttachmentSerializer(many=True))
    def get(self, request, procurement_pk, bid_pk):
        return Response(
            AttachmentSerializer(self.bid().attachments.all(), many=True).data
        )

    @extend_schema(
        request={"multipart/form-data": FileUploadSerializer},
        responses={201: AttachmentSerializer},
    )
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"file": [_("Choose a file to upload.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        attachment = attachments.add_attachment(
            bid=bid, user=request.user, upload=upload
        )
        return Response(
            AttachmentSerializer(attachment).data, status=status.HTTP_201_CREATED
        )


# --- scores ------------------------------------------------------------------------


class ScoreSerializer(serializers.ModelSerializer):
    criterion = serializers.CharField(source="criterion.code")
    section = serializers.CharField(source="criterion.section.code")
    evaluator = serializers.CharField(source="evaluator.username")

    class Meta:
        model = Score
        fields = [
            "id",
            "criterion",
            "section",
            "evaluator",
            "points",
            "note",
            "updated_at",
        ]


class ScoreInputSerializer(serializers.Serializer):
    criterion = serializers.CharField(help_text="criterion code (or id)")
    points = serializers.IntegerField(min_value=0, max_value=5)
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ScoreView(ProcurementScopedMixin, APIView):
    """Scores on a bid; POST records the requesting user's mark (evaluator = you)."""

    permission_classes = [capability_for_writes(Capability.SCORE_BIDS)]

    @extend_schema(responses=ScoreSerializer(many=True))
    def get(self, request, procurement_pk, bid_pk):
        scores = (
            self.bid()
            .scores.select_related("criterion__section", "evaluator")
            .order_by("criterion__section__position", "criterion__position", "id")
        )
        return Response(ScoreSerializer(scores, many=True).data)

    @extend_schema(request=ScoreInputSerializer, responses={201: ScoreSerializer})
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        data = ScoreInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = evaluation.evaluation_settings_for(procurement=self.procurement())
        key = data.validated_data["criterion"]
        criteria = ChecklistCriterion.objects.filter(
            section__template_id=row.template_id
        ).select_related("section")
        criterion = criteria.filter(code=key).first() or (
            criteria.filter(pk=int(key)).first() if key.isdigit() else None
        )
        if criterion is None:
            raise serializers.ValidationError({"criterion": [_("No such criterion.")]})
        score = evaluation.record_score(
            bid=bid,
            criterion=criterion,
            evaluator=request.user,
            points=data.validated_data["points"],
            note=data.validated_data["note"],
        )
        return Response(ScoreSerializer(score).data, status=status.HTTP_201_CREATED)


class SubmitScoresView(ProcurementScopedMixin, APIView):
    """Submit your technical scores: under a sealed envelope, prices open for you."""

    permission_classes = [IsMember]

    @extend_schema(request=None, responses={204: None})
    def post(self, request, procurement_pk):
        require(request.user, Capability.SCORE_BIDS)
        evaluation.submit_technical_scores(
            procurement=self.procurement(), evaluator=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class EvaluationSettingsSerializer(serializers.Serializer):
    blind_grading = serializers.BooleanField(required=False)
    sealed_envelope = serializers.BooleanField(required=False)
    technical_threshold = serializers.FloatField(
        min_value=0, max_value=100, required=False, allow_null=True
    )
    scoring_closed = serializers.BooleanField(required=False)
    template = serializers.IntegerField(required=False)
    section_weights = serializers.DictField(read_only=True)

    def validate_template(self, value):
        template = ChecklistTemplate.objects.filter(
            pk=value, organisation=self.context["procurement"].organisation
        ).first()
        if template is None:
            raise serializers.ValidationError(_("No such checklist."))
        return template


class EvaluationSettingsView(ProcurementScopedMixin, APIView):
    """Blind grading, sealed envelope, technical threshold, closing the scoring."""

    permission_classes = [IsMember]

    def _data(self, row):
        return {
            "blind_grading": row.blind_grading,
            "sealed_envelope": row.sealed_envelope,
            "technical_threshold": row.technical_threshold,
            "scoring_closed": row.scoring_closed,
            "template": row.template_id,
            "section_weights": row.section_weights,
        }

    @extend_schema(responses=EvaluationSettingsSerializer)
    def get(self, request, procurement_pk):
        row = evaluation.evaluation_settings_for(procurement=self.procurement())
        return Response(self._data(row))

    @extend_schema(
        request=EvaluationSettingsSerializer, responses=EvaluationSettingsSerializer
    )
    def patch(self, request, procurement_pk):
        procurement = self.procurement()
        if not (
            can(request.user, Capability.EDIT_VENDORS)
            or can(request.user, Capability.DECIDE)
        ):
            require(request.user, Capability.EDIT_VENDORS)
        data = EvaluationSettingsSerializer(
            data=request.data, context={"procurement": procurement}
        )
        data.is_valid(raise_exception=True)
        row = evaluation.update_evaluation_settings(
            procurement=procurement, user=request.user, **data.validated_data
        )
        return Response(self._data(row))


class WeightsSerializer(serializers.Serializer):
    weights = serializers.DictField(child=serializers.FloatField(min_value=0))


class WeightsView(ProcurementScopedMixin, APIView):
    """Save the procurement's section weights (audited)."""

    permission_classes = [IsMember]

    @extend_schema(request=WeightsSerializer, responses=WeightsSerializer)
    def put(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.SCORE_BIDS)
        data = WeightsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        weights = evaluation.save_section_weights(
            procurement=procurement,
            user=request.user,
            weights=data.validated_data["weights"],
        )
        return Response({"weights": weights})


# --- comparison and decision -------------------------------------------------------


class ComparisonEntrySerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    vendor = inline_serializer(
        "ComparisonVendor",
        {
            "id": serializers.IntegerField(allow_null=True),
            "name": serializers.CharField(),
            "blind": serializers.BooleanField(),
        },
    )
    currency = serializers.CharField()
    quoted_total = serializers.DecimalField(
        max_digits=20, decimal_places=2, allow_null=True
    )
    hidden_costs = serializers.ListField(child=serializers.DictField())
    normalized_tco = serializers.DecimalField(
        max_digits=20, decimal_places=2, allow_null=True
    )
    compliance = serializers.ListField(child=serializers.DictField())
    pitfalls = serializers.ListField(child=serializers.DictField())
    scores = serializers.DictField()
    disagreements = serializers.ListField(child=serializers.CharField())
    excluded = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)


class ComparisonView(ProcurementScopedMixin, APIView):
    """Side-by-side comparison of the procurement's bids (one entry per bid).

    `quoted_total` = one-off lines + horizon_years x recurring lines; `normalized_tco`
    is the TCO engine's total over the procurement's horizon with `hidden_costs`
    (categories the bid omits, filled by ClusterBuy) included.
    """

    permission_classes = [IsMember]

    @extend_schema(responses=ComparisonEntrySerializer(many=True))
    def get(self, request, procurement_pk):
        result = comparison.build_comparison(
            procurement=self.procurement(), user=request.user
        )
        return Response(comparison.comparison_json(result))


class DecisionSerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    rationale = serializers.CharField()
    decided_by = serializers.CharField(read_only=True)
    decided_at = serializers.DateTimeField(read_only=True)


class DecisionView(ProcurementScopedMixin, APIView):
    """Stage 5: the chosen bid and the rationale (managers and admins)."""

    permission_classes = [capability_for_writes(Capability.DECIDE)]

    def _data(self, decision):
        return {
            "bid": decision.bid_id,
            "rationale": decision.rationale,
            "decided_by": getattr(decision.decided_by, "username", None),
            "decided_at": decision.decided_at,
        }

    @extend_schema(responses=DecisionSerializer)
    def get(self, request, procurement_pk):
        decision = getattr(self.procurement(), "vendor_decision", None)
        if decision is None:
            raise Http404(_("No decision yet."))
        return Response(self._data(decision))

    @extend_schema(request=DecisionSerializer, responses=DecisionSerializer)
    def put(self, request, procurement_pk):
        procurement = self.procurement()
        data = DecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bid = Bid.objects.filter(
            procurement=procurement, pk=data.validated_data["bid"]
        ).first()
        if bid is None:
            raise serializers.ValidationError({"bid": [_("No such bid.")]})
        decision = evaluation.record_decision(
            procurement=procurement,
            user=request.user,
            bid=bid,
            rationale=data.validated_data["rationale"],
        )
        return Response(self._data(decision))


# --- checklist templates -----------------------------------------------------------


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
    id = serializers.IntegerField(read_only=True)
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
                    "code": s.code,
                    "title": s.title,
                    "weight": str(s.weight),
                    "auto_price": s.auto_price,
                    "criteria": [
                        {"code": c.code, "text": c.text, "weight": str(c.weight)}
                        for c in s.criteria.all()
                    ],
                }
                for s in instance.sections.all()
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
        organisation = organisation_of(self.request.user)
        checklists.create_default_template(organisation=organisation)
        return (
            ChecklistTemplate.objects.filter(organisation=organisation)
            .prefetch_related("sections__criteria")
            .order_by("-is_default", "name", "id")
        )

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
