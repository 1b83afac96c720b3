"""Acceptance (验收) over the API, so test runners can push their results: the plan
and its clauses, the tools' logs graded, the signature and the 验收书 PDF."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.permissions import IsMember, capability_for_writes

from ..models import AcceptancePlan
from ..models.acceptance import MAX_LOG_BYTES, NODE_NAME_MAX_CHARS
from ..services import acceptance, acceptance_certificate, acceptance_results
from ..services.acceptance_standing import standings, stragglers
from ..services.acceptance_view import plan_conclusion
from .comparison import PdfRenderer
from .scoping import ProcurementScopedMixin


class ClauseSerializer(serializers.Serializer):
    key = serializers.CharField()
    order = serializers.IntegerField()
    category = serializers.CharField(help_text="technical, service or safety")
    tool = serializers.CharField(
        help_text="nccl, dcgm, hpl, fio, mdtest, ib_write_bw, hccl (a log is "
        "uploaded) or workload, burn_in, manual (a figure is recorded by hand)"
    )
    metric = serializers.CharField()
    unit = serializers.CharField()
    comparison = serializers.CharField(help_text='">=", "<=" or "pass"')
    required = serializers.FloatField(
        allow_null=True, help_text="the threshold in force (the buyer's, if tighter)"
    )
    derived_required = serializers.FloatField(
        allow_null=True, help_text="the threshold the plan derived: the floor"
    )
    scope = serializers.CharField(help_text="node, nic or cluster")
    command = serializers.CharField()
    source = serializers.CharField()
    basis = serializers.CharField()
    status = serializers.CharField(
        help_text="pending, passed, failed or incomplete (not every node yet)"
    )


class PlanSerializer(serializers.Serializer):
    basis = serializers.CharField(help_text="bid (the decided bid) or sizing")
    bid = serializers.IntegerField(allow_null=True)
    burn_in_hours = serializers.IntegerField()
    signed_at = serializers.DateTimeField(allow_null=True)
    conclusion = serializers.CharField(
        help_text="passed (合格: every clause passed), failed (不合格: a clause "
        "failed) or incomplete (未完成: clauses not tested); frozen once signed"
    )
    accepted = serializers.BooleanField(
        help_text="signed with every clause passed: the only acceptance"
    )
    failed = serializers.ListField(child=serializers.CharField())
    untested = serializers.ListField(child=serializers.CharField())
    clauses = ClauseSerializer(many=True)
    stragglers = serializers.ListField(child=serializers.CharField())


class SignRequestSerializer(serializers.Serializer):
    conclusion = serializers.ChoiceField(
        choices=["passed", "failed", "incomplete"],
        required=False,
        help_text="the conclusion the manager signs; refused unless it is the "
        "record's (passed needs every clause passed)",
    )


class PlanRequestSerializer(serializers.Serializer):
    burn_in_hours = serializers.IntegerField(
        required=False, default=72, min_value=1, max_value=24 * 31
    )


class VerdictSerializer(serializers.Serializer):
    clause = serializers.CharField()
    node = serializers.CharField(allow_null=True)
    measured = serializers.FloatField(allow_null=True)
    required = serializers.FloatField(allow_null=True)
    unit = serializers.CharField()
    passed = serializers.BooleanField()
    reason = serializers.CharField()


class ResultUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text=f"the tool's log, at most {MAX_LOG_BYTES // 2**20} MB: nccl-tests "
        "text or -J JSON, dcgmi diag -j JSON, HPL output, fio JSON, mdtest, "
        "ib_write_bw text, hccl_test text"
    )
    node = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=NODE_NAME_MAX_CHARS,
        help_text="the host, for a log that does not name it",
    )
    clause = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=60,
        help_text="the clause key, when the log fits several (nccl-tests text)",
    )
    note = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, help_text="what was repaired"
    )


class ResultSerializer(serializers.Serializer):
    attempt = serializers.IntegerField(help_text="1, 2, ... within the plan")
    tool = serializers.CharField()
    tool_version = serializers.CharField()
    sha256 = serializers.CharField()
    passed = serializers.BooleanField()
    verdicts = VerdictSerializer(many=True)
    stragglers = serializers.ListField(child=serializers.CharField())


def _plan_or_404(procurement) -> AcceptancePlan:
    plan = acceptance.plan_for(procurement)
    if plan is None:
        raise Http404(_("No acceptance plan yet."))
    return plan


def plan_data(plan: AcceptancePlan) -> dict:
    clauses = []
    for row in standings(plan):
        c = row.clause
        clauses.append(
            {
                **{k: getattr(c, k) for k in acceptance.CLAUSE_FIELDS},
                "derived_required": c.derived_required,
                "status": row.status,
            }
        )
    found = plan_conclusion(plan)
    return {
        "basis": plan.basis,
        "bid": plan.bid_id,
        "burn_in_hours": plan.burn_in_hours,
        "signed_at": plan.signed_at,
        "conclusion": found.code,
        "accepted": plan.accepted,
        "failed": list(found.failed),
        "untested": list(found.untested),
        "clauses": clauses,
        "stragglers": stragglers(plan),
    }


def result_data(result) -> dict:
    attempt = result.attempt
    return {
        "attempt": attempt.number,
        "tool": attempt.tool,
        "tool_version": attempt.tool_version,
        "sha256": attempt.sha256,
        "passed": attempt.passed,
        "verdicts": [
            {
                "clause": v.clause.key,
                "node": v.node or None,
                "measured": v.measured,
                "required": v.required,
                "unit": v.unit,
                "passed": v.passed,
                "reason": v.reason,
            }
            for v in result.verdicts
        ],
        "stragglers": result.stragglers,
    }


class AcceptancePlanView(ProcurementScopedMixin, APIView):
    """The acceptance plan: the tests in order, each with its command, threshold and
    source. POST builds it from the decided bid (before a decision, from the sizing
    plan): 201; 409 once results are recorded (IT lead, admin)."""

    permission_classes = [capability_for_writes(Capability.RECORD_ACCEPTANCE)]
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(responses=PlanSerializer)
    def get(self, request, procurement_pk):
        return Response(
            PlanSerializer(plan_data(_plan_or_404(self.procurement()))).data
        )

    @extend_schema(request=PlanRequestSerializer, responses={201: PlanSerializer})
    def post(self, request, procurement_pk):
        data = PlanRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        plan = acceptance.create_acceptance_plan(
            procurement=self.procurement(),
            user=request.user,
            burn_in_hours=data.validated_data["burn_in_hours"],
        )
        return Response(
            PlanSerializer(plan_data(plan)).data, status=status.HTTP_201_CREATED
        )


class AcceptanceResultsView(ProcurementScopedMixin, APIView):
    """A tool's log graded against the plan (IT lead, admin): 201 with the verdicts
    per clause and node and the stragglers; 400 saying why for an unreadable,
    truncated or foreign log, and nothing is saved."""

    permission_classes = [capability_for_writes(Capability.RECORD_ACCEPTANCE)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": ResultUploadSerializer},
        responses={201: ResultSerializer},
    )
    def post(self, request, procurement_pk):
        plan = _plan_or_404(self.procurement())
        data = ResultUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        upload = values["file"]
        result = acceptance_results.record_result(
            plan=plan,
            user=request.user,
            data=acceptance_results.read_upload(upload),
            filename=upload.name or "",
            node=values.get("node", ""),
            note=values.get("note", ""),
            clause_key=values.get("clause", ""),
        )
        return Response(
            ResultSerializer(result_data(result)).data, status=status.HTTP_201_CREATED
        )


class AcceptanceSignView(ProcurementScopedMixin, APIView):
    """The manager signs the 验收书: its content is frozen (managers, admins)."""

    permission_classes = [capability_for_writes(Capability.SIGN_ACCEPTANCE)]

    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(request=SignRequestSerializer, responses=PlanSerializer)
    def post(self, request, procurement_pk):
        data = SignRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        plan = acceptance_certificate.sign_acceptance(
            plan=_plan_or_404(self.procurement()),
            user=request.user,
            conclusion=data.validated_data.get("conclusion"),
        )
        return Response(PlanSerializer(plan_data(plan)).data)


class AcceptanceCertificateView(ProcurementScopedMixin, APIView):
    """The 验收书 PDF (zh or en by Accept-Language): the frozen record once signed,
    a draft before."""

    permission_classes = [IsMember]
    renderer_classes = [JSONRenderer, PdfRenderer]

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request, procurement_pk):
        plan = _plan_or_404(self.procurement())
        response = HttpResponse(
            acceptance_certificate.certificate_pdf(plan),
            content_type="application/pdf",
        )
        name = acceptance_certificate.certificate_filename(plan)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
