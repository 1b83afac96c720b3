"""TCO REST API: estimate, runs, their PDF, and a procurement's scenarios.

Input field names are exactly the engine's (``tco.engine.TcoInputs``). Serializers
only describe shapes; the engine validates, and its ``TcoInputError`` becomes a 400
naming the field. NaN is accepted by the JSON parser on purpose, so it reaches the
engine and gets a field message instead of a parse error.
"""

from __future__ import annotations

import json
import math

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.errors import error_message
from clusterbuy.parsers import BoundedJSONParser
from clusterbuy.permissions import IsMember
from clusterbuy.services import ConflictError

from . import reconciliation, services, sources
from .engine import CAPEX_CATEGORIES, INPUT_TABLE, InputSpec, TcoInputError
from .models import RunStatus, TcoRun, TcoScenario


class LenientJSONParser(BoundedJSONParser):
    """NaN / Infinity parse (the engine rejects them by field); size and depth stay
    bounded like every other JSON body."""

    strict = False


@extend_schema_field(OpenApiTypes.NUMBER)
class EngineNumberField(serializers.Field):
    """A number passed through untouched: the engine validates ranges and NaN."""

    def to_internal_value(self, data):
        return data

    def to_representation(self, value):
        return value


class CapexLineSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=CAPEX_CATEGORIES)
    description = serializers.CharField(required=False, allow_blank=True)
    amount = EngineNumberField(help_text="In the scenario currency; >= 0.")


def _range_text(spec: InputSpec) -> str:
    if spec.choices:
        return ", ".join(map(str, spec.choices[:-1])) + f" or {spec.choices[-1]}"
    bounds = spec.bounds
    assert bounds is not None  # every number input is bounded
    if spec.kind == "count":
        return f"whole number >= {bounds.low:g}"
    if bounds.high == math.inf:
        return (">= " if bounds.low_inclusive else "> ") + f"{bounds.low:g}"
    above = "" if bounds.low_inclusive else f" (> {bounds.low:g})"
    return f"{bounds.low:g}..{bounds.high:g}{above}"


def _input_field(spec: InputSpec) -> serializers.Field:
    """The API field of one row of the engine's input table (shape only)."""
    if spec.kind == "lines":
        return CapexLineSerializer(many=True, required=False)
    if spec.kind == "choice":
        return serializers.ChoiceField(
            choices=list(spec.choices), required=False, allow_null=True
        )
    unit = {"share": f"share {spec.unit}", "money": f"{spec.unit} (scenario currency)"}
    help_parts = [unit.get(spec.kind, spec.unit), _range_text(spec)]
    if spec.default_text:
        help_parts.append(f"default {spec.default_text}")
    return EngineNumberField(
        required=False,
        allow_null=True,
        help_text="; ".join(part for part in help_parts if part),
    )


class TcoInputsSerializer(serializers.Serializer):
    """Scenario inputs; omitted fields take the engine's documented defaults.

    One field per row of ``tco.engine.INPUT_TABLE``, then ``user_fields``.
    """

    user_fields = serializers.ListField(
        child=serializers.CharField(), required=False, write_only=True
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        inputs = {spec.name: _input_field(spec) for spec in INPUT_TABLE}
        return {**inputs, **super().get_fields()}

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"inputs": ["must be an object"]})
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({unknown[0]: ["unknown input"]})
        # Shapes first (lists, strings, choices), then the engine on the raw values.
        super().to_internal_value(data)
        try:
            services.normalise_inputs(inputs=dict(data))
        except TcoInputError as exc:
            raise serializers.ValidationError(
                {exc.field: [error_message(exc)]}
            ) from None
        except (TypeError, ValueError, AttributeError) as exc:
            # An engine gap on odd shapes must still be a 400, never a 500.
            raise serializers.ValidationError(
                {"non_field_errors": [f"invalid inputs: {exc}"]}
            ) from None
        return dict(data)


class EstimateSerializer(serializers.Serializer):
    engine_version = serializers.CharField()
    inputs = serializers.DictField(help_text="Inputs with defaults filled in.")
    defaults_used = serializers.ListField(child=serializers.CharField())
    result = serializers.DictField(help_text="tco.engine.TcoResult.to_dict()")
    hidden_costs = serializers.ListField(child=serializers.DictField())


class RunInputSerializer(serializers.Serializer):
    """Exactly one of ``inputs`` (the scenario as typed), ``bid`` (a bid of the
    procurement: its normalised TCO's inputs) or ``sizing_plan`` (the procurement's
    current plan: GPU count x catalogue price, with the costs it does not price filled
    in); the last two give a scenario whose capex follows the GPU count."""

    procurement = serializers.IntegerField()
    inputs = TcoInputsSerializer(required=False)
    bid = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    sizing_plan = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1
    )
    lang = serializers.ChoiceField(choices=services.LANGS, default="zh-hans")
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=200,
        help_text="Scenario name; a new timestamped scenario when empty.",
    )

    def validate(self, attrs):
        given = [key for key in SOURCES if attrs.get(key) is not None]
        if len(given) != 1:
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        "Give exactly one of inputs, bid or sizing_plan (got "
                        + (", ".join(given) or "none")
                        + ")."
                    ]
                }
            )
        return attrs


#: What a run's scenario can start from.
SOURCES = ("inputs", "bid", "sizing_plan")


class RunSerializer(serializers.ModelSerializer):
    procurement = serializers.IntegerField(source="scenario.procurement_id")
    scenario_name = serializers.CharField(source="scenario.name")
    report_url = serializers.SerializerMethodField()
    notice = serializers.SerializerMethodField(
        help_text="Set while the run waits for an unreachable task queue: it is "
        "saved and will start when the queue is back."
    )

    class Meta:
        model = TcoRun
        fields = [
            "id",
            "procurement",
            "scenario",
            "scenario_name",
            "status",
            "progress_pct",
            "lang",
            "engine_version",
            "attempts",
            "error_message",
            "inputs",
            "result",
            "report_url",
            "notice",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_notice(self, run) -> str | None:
        return run.queue_notice or None

    def get_report_url(self, run) -> str | None:
        if not run.pdf:
            return None
        return reverse("tco-api-run-report", kwargs={"pk": run.pk})


class ScenarioSerializer(serializers.ModelSerializer):
    class Meta:
        model = TcoScenario
        fields = [
            "id",
            "procurement",
            "name",
            "inputs",
            "source_kind",
            "source_id",
            "capex_is_derived",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields


class ScenarioInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    inputs = TcoInputsSerializer()


class EstimateView(APIView):
    permission_classes = [IsMember]
    parser_classes = [LenientJSONParser]

    @extend_schema(
        request=TcoInputsSerializer,
        responses={
            200: EstimateSerializer,
            400: OpenApiResponse(description="field errors"),
        },
    )
    def post(self, request):
        """Deterministic TCO of the inputs (no Monte Carlo); nothing is stored."""
        data = TcoInputsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(services.estimate(inputs=data.validated_data))


def _visible_runs(user):
    """The runs of the user's organisation, less those priced from sealed bids."""
    runs = TcoRun.objects.for_user(user).with_related()
    return sources.without_sealed_bids(runs, user=user, prefix="scenario__")


class RunListCreateView(generics.ListAPIView):
    permission_classes = [IsMember]
    parser_classes = [LenientJSONParser]
    serializer_class = RunSerializer

    def get_queryset(self):
        return _visible_runs(self.request.user)

    @extend_schema(
        request=RunInputSerializer,
        responses={
            202: RunSerializer,
            400: OpenApiResponse(description="field errors"),
        },
    )
    def post(self, request):
        """Queue a full analysis (Monte Carlo, sensitivity, PDF); poll the run."""
        data = RunInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        procurement = access_procurement(
            request.user, data.validated_data["procurement"], Capability.RUN_TCO
        )
        given = data.validated_data
        if given.get("inputs") is not None:
            run = services.request_tco_run_for_inputs(
                procurement=procurement,
                user=request.user,
                inputs=given["inputs"],
                lang=given["lang"],
                name=given["name"],
            )
        else:
            run = services.request_tco_run_from_source(
                procurement=procurement,
                user=request.user,
                bid=given.get("bid"),
                sizing_plan=given.get("sizing_plan"),
                lang=given["lang"],
                name=given["name"],
            )
        location = reverse("tco-api-run-detail", kwargs={"pk": run.pk})
        return Response(
            RunSerializer(run).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": location},
        )


class RunDetailView(generics.RetrieveAPIView):
    permission_classes = [IsMember]
    serializer_class = RunSerializer

    def get_queryset(self):
        return _visible_runs(self.request.user)


class RunCancelView(APIView):
    permission_classes = [IsMember]

    def get_queryset(self):
        return _visible_runs(self.request.user)

    @extend_schema(
        request=None,
        responses={
            200: RunSerializer,
            403: OpenApiResponse(description="role may not run TCO analyses"),
            404: OpenApiResponse(description="no such run in your organisation"),
            409: OpenApiResponse(
                description='the run had already finished: {"detail": message, '
                '"status": "succeeded" or "failed"}; nothing changed'
            ),
        },
    )
    def post(self, request, pk):
        """Cancel a queued or running run, as the run page's Cancel button does: it
        ends failed, "Cancelled by" its canceller; the worker stops at its next
        progress step. 409 when it had already finished (succeeded or failed)."""
        run = get_object_or_404(self.get_queryset(), pk=pk)
        access_procurement(
            request.user, run.scenario.procurement_id, Capability.RUN_TCO
        )
        if not services.cancel_tco_run(run=run, user=request.user):
            run.refresh_from_db(fields=["status"])
            raise ConflictError(
                _("The run had already finished."), details={"status": run.status}
            )
        run.refresh_from_db()
        return Response(RunSerializer(run).data)


class PdfRenderer(BaseRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return json.dumps(data).encode()


class RunReportView(APIView):
    permission_classes = [IsMember]
    renderer_classes = [JSONRenderer, PdfRenderer]

    @extend_schema(
        responses={
            (200, "application/pdf"): OpenApiResponse(description="The PDF report"),
            403: OpenApiResponse(description="role may not download reports"),
            404: OpenApiResponse(description="no such run, or no PDF yet"),
        }
    )
    def get(self, request, pk):
        """The run's PDF; 404 until the run has succeeded."""
        runs = sources.without_sealed_bids(
            TcoRun.objects.for_user(request.user),
            user=request.user,
            prefix="scenario__",
        )
        run = get_object_or_404(runs, pk=pk)
        require(request.user, Capability.DOWNLOAD_REPORTS)
        if run.status != RunStatus.SUCCEEDED or not run.pdf:
            raise Http404("The report is not ready.")
        try:
            pdf = run.pdf.open("rb")
        except OSError:
            raise Http404("The report file is missing from storage.") from None
        return FileResponse(
            pdf,
            content_type="application/pdf",
            filename=f"tco-run-{run.pk}-{run.lang}.pdf",
        )


class ScenarioListCreateView(generics.ListAPIView):
    permission_classes = [IsMember]
    parser_classes = [LenientJSONParser]
    serializer_class = ScenarioSerializer
    queryset = TcoScenario.objects.none()  # for the schema; get_queryset scopes by org

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return TcoScenario.objects.none()
        procurement = access_procurement(self.request.user, self.kwargs["pk"])
        return sources.without_sealed_bids(
            TcoScenario.objects.for_procurement(procurement), user=self.request.user
        )

    @extend_schema(request=ScenarioInputSerializer, responses={201: ScenarioSerializer})
    def post(self, request, pk):
        """Save a named scenario (inputs validated by the engine)."""
        procurement = access_procurement(request.user, pk, Capability.RUN_TCO)
        data = ScenarioInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        scenario = services.save_scenario(
            procurement=procurement, user=request.user, **data.validated_data
        )
        return Response(
            ScenarioSerializer(scenario).data, status=status.HTTP_201_CREATED
        )


class ReconciliationView(APIView):
    """The plan's scenario and a bid's scenario of the same cluster item by item
    (`tco.reconciliation`); 404 when the scenario has no counterpart."""

    permission_classes = [IsMember]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="{plan_scenario, bid_scenario, chosen, currency, total_a "
                "(plan), total_b (bid), difference, items: [{code, category, "
                "amount_a, amount_b, difference, inputs: [{name, a, b}]}]}: the "
                "differences sum exactly to difference",
            ),
            404: OpenApiResponse(description="no plan/bid pair for this scenario"),
        }
    )
    def get(self, request, pk, scenario_pk):
        procurement = access_procurement(request.user, pk)
        scenario = get_object_or_404(
            sources.without_sealed_bids(
                TcoScenario.objects.for_procurement(procurement), user=request.user
            ),
            pk=scenario_pk,
        )
        found = reconciliation.reconciliation_context(
            scenario=scenario, user=request.user
        )
        if found is None:
            raise Http404(_("No plan and bid scenarios of the same cluster."))
        pair = found["pair"]
        return Response(
            {
                "plan_scenario": pair.plan.pk,
                "bid_scenario": pair.bid.pk,
                "chosen": pair.chosen,
                "currency": procurement.currency,
                **found["result"].to_dict(),
            }
        )
