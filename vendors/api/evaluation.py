"""Evaluation: evaluators' scores, the technical submission, the procurement's
evaluation settings and section weights."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, require
from clusterbuy.bounds import model_field_limits
from clusterbuy.permissions import IsMember, capability_for_writes

from .. import comparison, visibility
from ..models import ChecklistTemplate, EvaluationSettings, Score
from ..services import evaluation
from ..services.evaluation import SECTION_WEIGHT_MAX
from .scoping import ProcurementScopedMixin


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
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="why: required when the points differ from the criterion's "
        "automatic score (comparison `scores.automatic`); such a mark is audited "
        "as an override",
        **model_field_limits(Score, "note"),
    )


class ScoreView(ProcurementScopedMixin, APIView):
    """Scores on a bid; POST records the requesting user's mark (evaluator = you)."""

    permission_classes = [capability_for_writes(Capability.SCORE_BIDS)]

    @extend_schema(responses=ScoreSerializer(many=True))
    def get(self, request, procurement_pk, bid_pk):
        """Every evaluator's marks; notes redacted under blind grading."""
        scores = (
            self.bid()
            .scores.select_related("criterion__section", "evaluator")
            .order_by("criterion__section__position", "criterion__position", "id")
        )
        shown = visibility.visibility_for(
            procurement=self.procurement(), user=request.user
        )
        return Response(shown.redact_tree(ScoreSerializer(scores, many=True).data))

    @extend_schema(request=ScoreInputSerializer, responses={201: ScoreSerializer})
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        data = ScoreInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        [score] = evaluation.record_scores(
            bid=bid,
            evaluator=request.user,
            scores=[evaluation.ScoreMark(**data.validated_data)],
            automatic=comparison.automatic_points(bid=bid, user=request.user),
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
        required=False,
        allow_null=True,
        **model_field_limits(EvaluationSettings, "technical_threshold"),
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


class EvaluationSettingsOutputSerializer(EvaluationSettingsSerializer):
    template = serializers.IntegerField(
        allow_null=True,
        help_text="null while the organisation's default checklist is not stored yet",
    )


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

    @extend_schema(responses=EvaluationSettingsOutputSerializer)
    def get(self, request, procurement_pk):
        row = evaluation.evaluation_settings_for(procurement=self.procurement())
        return Response(self._data(row))

    @extend_schema(
        request=EvaluationSettingsSerializer,
        responses=EvaluationSettingsOutputSerializer,
    )
    def patch(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.CONFIGURE_EVALUATION)
        data = EvaluationSettingsSerializer(
            data=request.data, context={"procurement": procurement}
        )
        data.is_valid(raise_exception=True)
        row = evaluation.update_evaluation_settings(
            procurement=procurement, user=request.user, **data.validated_data
        )
        return Response(self._data(row))


class WeightsSerializer(serializers.Serializer):
    weights = serializers.DictField(
        child=serializers.FloatField(min_value=0, max_value=SECTION_WEIGHT_MAX)
    )


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
