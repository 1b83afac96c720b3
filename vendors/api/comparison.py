"""The side-by-side comparison and the decision."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.bounds import model_field_limits
from clusterbuy.permissions import IsMember, capability_for_writes

from .. import comparison, visibility
from ..models import Bid, Decision
from ..services import decisions
from .scoping import ProcurementScopedMixin


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
    budget = serializers.DictField(
        allow_null=True,
        help_text="the quoted price and the normalised TCO against the procurement's "
        "budget ceiling: {over_budget, quoted, tco}, each {amount, ceiling, currency, "
        "variance (amount - ceiling), share_pct, over_budget} or null; null without a "
        "budget or while the prices are sealed",
    )
    tco_breakdown = serializers.ListField(
        child=inline_serializer(
            "TcoBreakdownItem",
            {
                "code": serializers.CharField(
                    help_text="quoted_one_off, quoted_recurring, added, energy, "
                    "colocation, support, software, staff, failures or residual"
                ),
                "category": serializers.CharField(),
                "amount": serializers.DecimalField(max_digits=20, decimal_places=2),
                "source": serializers.CharField(
                    help_text="bid, clusterbuy (a fill-in rule) or default"
                ),
                "basis": serializers.CharField(),
            },
        ),
        help_text="every item of normalized_tco; the amounts sum to it exactly",
    )
    compliance = serializers.ListField(child=serializers.DictField())
    pitfalls = serializers.ListField(child=serializers.DictField())
    delivered = serializers.DictField(
        allow_null=True,
        help_text="what the bid's GPUs deliver for the planned workloads, from the "
        "sizing engine: accelerator, accelerator_name, gpu_count, precision, "
        "compute_pflops (GPUs x dense peak), compute_share (of the plan's), plan "
        "{accelerator, accelerator_name, gpu_count, compute_pflops}, workloads [name, "
        "kind, gpu_count, fits, training_days, plan_training_days, target_days, "
        "tokens_per_second, concurrent_requests, meets_latency, ...], "
        "promised_training_days, promised_tokens_per_s; null without a sizing plan",
    )
    scores = serializers.DictField(
        help_text="section code -> points (0-5, null: unscored), technical_100, "
        "weighted_total; complete (every section in the rank fully scored), "
        "unscored_sections and partial_sections (section codes: the rank is "
        "provisional), automatic (criterion code -> {points, source, evidence, "
        "counted}: the score the pitfall and compliance findings give, counted "
        "until an evaluator scores the criterion)"
    )
    disagreements = serializers.ListField(child=serializers.CharField())
    excluded = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)
    invalid = serializers.ListField(
        child=serializers.CharField(),
        help_text="figures stored past validation, and the prices computed from "
        "them, shown as null: bid field names, quoted_total, normalized_tco",
    )
    spec_claims = serializers.ListField(
        child=serializers.DictField(),
        help_text="claims in the bid's fields and proposal checked against the "
        "offered accelerator's datasheet: {kind, claim, claimed, datasheet, status "
        "(ok | mismatch | unverifiable), source, note}",
    )
    tender = serializers.DictField(
        allow_null=True,
        help_text="under the stored tender settings: {valid (false: 无效投标, out of "
        "the rank), reasons [{code, item, offered, required, message, citation}]}; "
        "null before they are saved (see /tender/review/)",
    )


class ComparisonView(ProcurementScopedMixin, APIView):
    """Side-by-side comparison of the procurement's bids (one entry per bid).

    `quoted_total` = one-off lines + horizon_years x recurring lines; `normalized_tco`
    is the TCO engine's total over the procurement's horizon with `hidden_costs`
    (categories the bid omits, filled by ClusterBuy) included.
    """

    permission_classes = [IsMember]

    @extend_schema(responses=ComparisonEntrySerializer(many=True))
    def get(self, request, procurement_pk):
        # The page's cached comparison (same key: data version, language, viewer
        # variant), so the API and the page agree and neither builds it twice.
        result = comparison.comparison_context(
            procurement=self.procurement(), user=request.user
        )["result"]
        return Response(comparison.comparison_json(result))


class DecisionSerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    rationale = serializers.CharField(**model_field_limits(Decision, "rationale"))
    override_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text="Needed when the bid fails a mandatory requirement or the technical "
        "threshold, or is not ranked first (400 on this field without it)",
        **model_field_limits(Decision, "override_reason"),
    )
    seen = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text='`seen` of the decision you read ("" for none): 409 when another '
        "decision was recorded since; leave it out to replace unchecked",
    )
    override_checks = serializers.ListField(
        child=serializers.DictField(),
        read_only=True,
        help_text="The checks the choice overrode (code and facts)",
    )
    decided_by = serializers.CharField(read_only=True)
    decided_at = serializers.DateTimeField(read_only=True)
    memo = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="URL of the decision memo PDF (rendered from the frozen snapshot)",
    )


class DecisionView(ProcurementScopedMixin, APIView):
    """Stage 5: the chosen bid and the rationale (managers and admins)."""

    permission_classes = [capability_for_writes(Capability.DECIDE)]

    def _data(self, decision, request):
        return {
            "bid": decision.bid_id,
            "rationale": decision.rationale,
            "override_reason": decision.override_reason,
            "override_checks": decision.override_checks,
            "seen": decisions.decision_token(decision),
            "decided_by": getattr(decision.decided_by, "username", None),
            "decided_at": decision.decided_at,
            "memo": reverse(
                "api-decision-memo", args=[decision.procurement_id], request=request
            )
            if decision.snapshot
            else None,
        }

    @extend_schema(responses=DecisionSerializer)
    def get(self, request, procurement_pk):
        """The rationale redacted under blind grading (it may name the vendor)."""
        decision = getattr(self.procurement(), "vendor_decision", None)
        if decision is None:
            raise Http404(_("No decision yet."))
        shown = visibility.visibility_for(
            procurement=self.procurement(), user=request.user
        )
        return Response(shown.redact_tree(self._data(decision, request)))

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
        decision = decisions.record_decision(
            procurement=procurement,
            user=request.user,
            bid=bid,
            rationale=data.validated_data["rationale"],
            override_reason=data.validated_data["override_reason"],
            seen=data.validated_data.get("seen"),
        )
        return Response(self._data(decision, request))


class PdfRenderer(BaseRenderer):
    """Lets a client ask for ``Accept: application/pdf``; errors stay JSON text."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return json.dumps(data, default=str).encode()


class DecisionMemoView(ProcurementScopedMixin, APIView):
    """The decision memo PDF (zh or en by Accept-Language), rendered from the
    comparison frozen when the decision was recorded: later bid edits do not change
    it. 404 without a decision; 403 while its vendor names or prices are hidden from
    you (blind grading, sealed envelope)."""

    permission_classes = [IsMember]
    renderer_classes = [JSONRenderer, PdfRenderer]

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request, procurement_pk):
        procurement = self.procurement()
        pdf, filename = decisions.memo_download(
            procurement=procurement, user=request.user
        )
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
