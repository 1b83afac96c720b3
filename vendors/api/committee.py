"""The evaluation committee: its roster (GET/POST, judged per regime), a member's own
scores (GET/POST, submission), changes after summation with a lawful reason, dissent,
the collusion signals and the 评标报告 (POST issues it; report.pdf downloads the frozen
PDF). Errors: 400 with the field's messages; other organisations' ids: 404."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, require
from clusterbuy.permissions import IsMember

from ..models import Bid, ChangeReason, CommitteeMember, SeatRole
from ..services import committee, committee_collusion, committee_scoring
from ..services import evaluation_report as reports
from ..services.committee_collusion import committee_signals
from .comparison import PdfRenderer
from .scoping import ProcurementScopedMixin


class SeatSerializer(serializers.Serializer):
    user = serializers.IntegerField(help_text="a user of your organisation")
    role = serializers.ChoiceField(choices=SeatRole.choices)
    is_chair = serializers.BooleanField(default=False)


class CommitteeInputSerializer(serializers.Serializer):
    members = SeatSerializer(many=True, help_text="the whole roster, replaced at once")
    complex_project = serializers.BooleanField(required=False)
    high_social_impact = serializers.BooleanField(required=False)


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    name = serializers.CharField()
    role = serializers.CharField()
    is_chair = serializers.BooleanField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    dissent = serializers.CharField()


class StatusSerializer(serializers.Serializer):
    regime = serializers.CharField()
    statutory = serializers.BooleanField()
    min_size = serializers.IntegerField(help_text="0: no statutory minimum")
    article = serializers.CharField()
    violations = serializers.ListField(child=serializers.CharField())
    valid = serializers.BooleanField()


class CommitteeSerializer(serializers.Serializer):
    complex_project = serializers.BooleanField()
    high_social_impact = serializers.BooleanField()
    summed_at = serializers.DateTimeField(allow_null=True)
    status = StatusSerializer()
    members = MemberSerializer(many=True)


def committee_json(procurement) -> dict:
    row = committee.committee_of(procurement)
    return {
        "complex_project": bool(row and row.complex_project),
        "high_social_impact": bool(row and row.high_social_impact),
        "summed_at": row.summed_at if row else None,
        "status": committee.committee_status(procurement),
        "members": committee.members_of(row),
    }


class CommitteeView(ProcurementScopedMixin, APIView):
    """The committee's roster; POST replaces it (400 per field when the regime's
    composition rules refuse it: 87号令 第四十七条, 招标投标法 第三十七条)."""

    permission_classes = [IsMember]

    @extend_schema(responses=CommitteeSerializer)
    def get(self, request, procurement_pk):
        return Response(CommitteeSerializer(committee_json(self.procurement())).data)

    @extend_schema(
        request=CommitteeInputSerializer, responses={200: CommitteeSerializer}
    )
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.CONFIGURE_EVALUATION)
        data = CommitteeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        seats = committee.seats_from_ids(
            procurement=procurement, rows=[dict(r) for r in values["members"]]
        )
        try:
            committee.set_committee(
                procurement=procurement,
                user=request.user,
                seats=seats,
                complex_project=values.get("complex_project"),
                high_social_impact=values.get("high_social_impact"),
            )
        except committee.CommitteeInvalid as error:
            return Response(error.errors, status=status.HTTP_400_BAD_REQUEST)
        return Response(CommitteeSerializer(committee_json(procurement)).data)


class CommitteeSummationView(ProcurementScopedMixin, APIView):
    """POST: the chair (or who configures the evaluation) sums the marks once every
    member has submitted (400 naming who has not)."""

    permission_classes = [IsMember]

    @extend_schema(request=None, responses={200: CommitteeSerializer})
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        committee_scoring.close_summation(procurement=procurement, user=request.user)
        return Response(CommitteeSerializer(committee_json(procurement)).data)


class MarkSerializer(serializers.Serializer):
    criterion = serializers.CharField(help_text="the criterion's code (or id)")
    points = serializers.IntegerField(min_value=0, max_value=5)
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ScoresInputSerializer(serializers.Serializer):
    bid = serializers.IntegerField(required=False)
    marks = MarkSerializer(many=True, required=False, default=list)
    submit = serializers.BooleanField(
        default=False, help_text="seal your marks (every valid bid fully marked)"
    )


class BidMarksSerializer(serializers.Serializer):
    bid = serializers.IntegerField()
    label = serializers.CharField()
    advice = serializers.DictField(
        child=serializers.FloatField(),
        help_text="the automatic pre-scores: advice, never counted",
    )
    marks = serializers.DictField(child=serializers.IntegerField())


class OtherMemberSerializer(serializers.Serializer):
    member = serializers.IntegerField()
    name = serializers.CharField()
    marks = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="bid id -> criterion code -> points",
    )


class ScoresSerializer(serializers.Serializer):
    member = serializers.IntegerField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    summed = serializers.BooleanField()
    bids = BidMarksSerializer(many=True)
    visible_members = OtherMemberSerializer(
        many=True,
        help_text="only yourself until you submit; the submitted members after; "
        "everyone after summation",
    )


def scores_json(procurement, user) -> dict:
    member = committee.member_for(procurement, user)
    if member is None:
        raise Http404(_("You are not on this committee."))
    criteria, _weights = committee_scoring.technical_criteria(procurement)
    own = committee_scoring.member_scores(member, criteria)
    return {
        "member": member.pk,
        "submitted_at": member.submitted_at,
        "summed": committee_scoring.is_summed(procurement),
        "bids": [
            {
                "bid": b.bid_id,
                "label": b.label,
                "advice": b.advice,
                "marks": own.get(b.bid_id, {}),
            }
            for b in committee_scoring.board(procurement=procurement, user=user)
        ],
        "visible_members": [
            {
                "member": m.pk,
                "name": m.name,
                "marks": {
                    str(k): v
                    for k, v in committee_scoring.member_scores(m, criteria).items()
                },
            }
            for m in committee_scoring.visible_members(procurement, user)
        ],
    }


class CommitteeScoresView(ProcurementScopedMixin, APIView):
    """Your own marks as a committee member (404 when you are not one); POST records
    marks on one bid and/or submits them. Other members' marks stay hidden until you
    submit."""

    permission_classes = [IsMember]

    @extend_schema(responses=ScoresSerializer)
    def get(self, request, procurement_pk):
        procurement = self.procurement()
        return Response(ScoresSerializer(scores_json(procurement, request.user)).data)

    @extend_schema(request=ScoresInputSerializer, responses={200: ScoresSerializer})
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.SCORE_COMMITTEE)
        data = ScoresInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values.get("marks"):
            if values.get("bid") is None:
                return Response(
                    {"bid": [_("Name the bid the marks are for.")]},
                    status=status.HTTP_400_BAD_REQUEST,
                )
            bid = get_object_or_404(
                Bid.objects.for_procurement(procurement), pk=values["bid"]
            )
            committee_scoring.record_member_scores(
                procurement=procurement,
                user=request.user,
                bid=bid,
                marks=[committee_scoring.Mark(**dict(m)) for m in values["marks"]],
            )
        if values.get("submit"):
            committee_scoring.submit_member_scores(
                procurement=procurement, user=request.user
            )
        return Response(ScoresSerializer(scores_json(procurement, request.user)).data)


class ChangeInputSerializer(serializers.Serializer):
    member = serializers.IntegerField()
    bid = serializers.IntegerField()
    criterion = serializers.CharField()
    points = serializers.IntegerField(min_value=0, max_value=5)
    reason = serializers.ChoiceField(
        choices=ChangeReason.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="87号令 第六十四条's four lawful reasons (required under statute)",
    )
    explanation = serializers.CharField(required=False, allow_blank=True, default="")


class ChangeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    member = serializers.IntegerField(source="score.member_id")
    bid = serializers.IntegerField(source="score.bid_id")
    criterion = serializers.CharField(source="score.criterion.code")
    old_points = serializers.IntegerField()
    new_points = serializers.IntegerField()
    reason = serializers.CharField()
    explanation = serializers.CharField()
    changed_by = serializers.CharField(source="changed_by.username", allow_null=True)
    changed_at = serializers.DateTimeField()


class CommitteeChangesView(ProcurementScopedMixin, APIView):
    """The marks changed after summation; POST changes one (its member or the chair,
    for a lawful reason)."""

    permission_classes = [IsMember]

    @extend_schema(responses=ChangeSerializer(many=True))
    def get(self, request, procurement_pk):
        changes = committee_scoring.changes_of(self.procurement())
        return Response(ChangeSerializer(changes, many=True).data)

    @extend_schema(request=ChangeInputSerializer, responses={201: ChangeSerializer})
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.SCORE_COMMITTEE)
        data = ChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        member = get_object_or_404(
            CommitteeMember.objects.filter(committee__procurement=procurement),
            pk=values.pop("member"),
        )
        bid = get_object_or_404(
            Bid.objects.for_procurement(procurement), pk=values.pop("bid")
        )
        change = committee_scoring.change_score(
            procurement=procurement,
            user=request.user,
            member=member,
            bid=bid,
            **values,
        )
        return Response(ChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class DissentSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=10000)


class CommitteeDissentView(ProcurementScopedMixin, APIView):
    """Record your dissent (不同意见) with its reasons (实施条例 第四十一条)."""

    permission_classes = [IsMember]

    @extend_schema(request=DissentSerializer, responses={200: MemberSerializer})
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.SCORE_COMMITTEE)
        data = DissentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        member = committee_scoring.record_dissent(
            procurement=procurement,
            user=request.user,
            text=data.validated_data["text"],
        )
        return Response(MemberSerializer(member).data)


class SignalSerializer(serializers.Serializer):
    kind = serializers.CharField()
    label = serializers.CharField()
    bids = serializers.ListField(child=serializers.CharField())
    bid_ids = serializers.ListField(child=serializers.IntegerField())
    evidence = serializers.CharField()
    citation = serializers.CharField()
    score = serializers.FloatField(allow_null=True)


class CommitteeCollusionView(ProcurementScopedMixin, APIView):
    """Collusion signals across the bids, with evidence; never disqualifying."""

    permission_classes = [IsMember]

    @extend_schema(responses=SignalSerializer(many=True))
    def get(self, request, procurement_pk):
        signals = committee_signals(procurement=self.procurement(), user=request.user)
        return Response(SignalSerializer(signals, many=True).data)


class ReportSerializer(serializers.Serializer):
    issued_at = serializers.DateTimeField()
    issued_by = serializers.CharField(source="issued_by.username", allow_null=True)
    pdf_url = serializers.CharField()


def report_json(request, report) -> dict:
    return {
        "issued_at": report.issued_at,
        "issued_by": report.issued_by,
        "pdf_url": request.build_absolute_uri("../report.pdf"),
    }


class CommitteeReportView(ProcurementScopedMixin, APIView):
    """The issued 评标报告 (404 before); POST issues it once the marks are summed."""

    permission_classes = [IsMember]

    @extend_schema(responses=ReportSerializer)
    def get(self, request, procurement_pk):
        report = reports.issued_report(self.procurement())
        if report is None:
            raise Http404(_("No report issued yet."))
        return Response(ReportSerializer(report_json(request, report)).data)

    @extend_schema(request=None, responses={201: ReportSerializer})
    def post(self, request, procurement_pk):
        report = reports.issue_report(procurement=self.procurement(), user=request.user)
        return Response(
            ReportSerializer(report_json(request, report)).data,
            status=status.HTTP_201_CREATED,
        )


class CommitteeReportPdfView(ProcurementScopedMixin, APIView):
    """The frozen report's PDF, byte-identical to what was issued; ``lang`` zh or en
    (default: the request's language)."""

    permission_classes = [IsMember]
    renderer_classes = [JSONRenderer, PdfRenderer]

    @extend_schema(
        parameters=[OpenApiParameter("lang", str, enum=["zh", "en"], required=False)],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    def get(self, request, procurement_pk):
        report = reports.issued_report(self.procurement())
        if report is None:
            raise Http404(_("No report issued yet."))
        language = request.query_params.get("lang") or translation.get_language()
        response = HttpResponse(
            reports.report_pdf(report, language or "en"),
            content_type="application/pdf",
        )
        name = reports.report_filename(report, language or "en")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class BidContactSerializer(serializers.Serializer):
    contact_person = serializers.CharField(
        required=False, allow_blank=True, max_length=200
    )
    phone = serializers.CharField(required=False, allow_blank=True, max_length=60)
    email = serializers.CharField(required=False, allow_blank=True, max_length=254)
    bond_account = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=80,
        help_text="the account the bid bond was paid from",
    )


class BidContactView(ProcurementScopedMixin, APIView):
    """A bid's contact facts from its 投标函, compared across bids for collusion
    signals (87号令 第三十七条); PUT records them (who manages vendors)."""

    permission_classes = [IsMember]

    @extend_schema(responses=BidContactSerializer)
    def get(self, request, procurement_pk, bid_pk):
        contact = getattr(self.bid(), "contact", None)
        values = {
            name: getattr(contact, name, "")
            for name in committee_collusion.CONTACT_FIELDS
        }
        return Response(BidContactSerializer(values).data)

    @extend_schema(request=BidContactSerializer, responses={200: BidContactSerializer})
    def put(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        require(request.user, Capability.EDIT_VENDORS)
        data = BidContactSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        contact = committee_collusion.set_bid_contact(
            bid=bid, user=request.user, **data.validated_data
        )
        values = {
            name: getattr(contact, name) for name in committee_collusion.CONTACT_FIELDS
        }
        return Response(BidContactSerializer(values).data)
