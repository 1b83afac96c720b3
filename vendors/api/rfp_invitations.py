"""The buyer's side of an RFP: invitations, answers to the vendors' questions, the
sealed submissions (409 until the opening, with no count) and the opening itself.

Under blind grading a role that does not manage vendors gets no vendor names here
(invitations and submissions answer 403, questions carry no vendor)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.bounds import LONG_TEXT_MAX_CHARS
from clusterbuy.permissions import IsMember, capability_for_writes

from .. import visibility
from ..models import Invitation, RfpQuestion, RfpSettings, Submission, Vendor
from ..models.rfp import QUESTION_MAX_CHARS
from ..portal import answers, invitations, opening
from .scoping import ProcurementScopedMixin

DETAIL = inline_serializer("RfpDetail", {"detail": serializers.CharField()})


class VendorRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class InvitationSerializer(serializers.ModelSerializer):
    vendor = VendorRefSerializer(read_only=True)

    class Meta:
        model = Invitation
        fields = [
            "id",
            "vendor",
            "email",
            "expires_at",
            "revoked",
            "created_at",
            "last_sent_at",
        ]


class InvitationInputSerializer(serializers.Serializer):
    vendor = serializers.IntegerField(
        required=False, allow_null=True, help_text="an existing vendor's id"
    )
    vendor_name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="instead of `vendor`: the name of a vendor to create (or reuse)",
    )
    email = serializers.EmailField(max_length=254)
    expires_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="default: 30 days after the RFP deadline (60 days from now "
        "without one)",
    )

    def validate_vendor(self, value):
        if value is None:
            return None
        vendor = Vendor.objects.filter(
            pk=value, organisation=self.context["procurement"].organisation
        ).first()
        if vendor is None:
            raise serializers.ValidationError(_("No such vendor."))
        return vendor

    def validate(self, attrs):
        if attrs.get("vendor") is not None and (attrs.get("vendor_name") or "").strip():
            raise serializers.ValidationError(
                {
                    "vendor_name": [
                        _("Choose an existing vendor or type a new name, not both.")
                    ]
                }
            )
        return attrs


class QuestionSerializer(serializers.ModelSerializer):
    vendor = serializers.SerializerMethodField(
        help_text="who asked (null under blind grading); vendors never see it"
    )
    answered_by = serializers.CharField(
        source="answered_by.username", allow_null=True, default=None
    )

    class Meta:
        model = RfpQuestion
        fields = [
            "id",
            "vendor",
            "question",
            "published_question",
            "answer",
            "asked_at",
            "answered_at",
            "answered_by",
        ]

    @extend_schema_field(VendorRefSerializer(allow_null=True))
    def get_vendor(self, question):
        if self.context.get("blind"):
            return None
        vendor = question.invitation.vendor
        return {"id": vendor.pk, "name": vendor.name}


class AnswerInputSerializer(serializers.Serializer):
    answer = serializers.CharField(max_length=LONG_TEXT_MAX_CHARS)
    published_question = serializers.CharField(
        max_length=QUESTION_MAX_CHARS,
        required=False,
        help_text="the question as every invited vendor will read it, as reviewed "
        "(start from POST .../redaction/); omitted: the automatic masking of the "
        "vendors' names and aliases is published, for the question and the answer",
    )


class RedactionInputSerializer(serializers.Serializer):
    answer = serializers.CharField(max_length=LONG_TEXT_MAX_CHARS, required=False)


class RedactionSerializer(serializers.Serializer):
    published_question = serializers.CharField()
    answer = serializers.CharField(allow_blank=True)
    masked = serializers.ListField(
        child=serializers.CharField(),
        help_text="the names and aliases found and masked, as written",
    )


class VersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Submission
        fields = ["version", "submitted_at", "bid"]


class OpenedInvitationSerializer(serializers.Serializer):
    invitation = serializers.IntegerField(source="pk")
    vendor = VendorRefSerializer()
    bid = serializers.IntegerField(
        allow_null=True, help_text="the bid opened from the latest version"
    )
    revoked = serializers.BooleanField(
        help_text="withdrawn by the buyer: not opened, its versions stay sealed"
    )
    versions = VersionSerializer(many=True, help_text="newest first")


class OpeningSerializer(serializers.Serializer):
    opened = serializers.BooleanField(
        help_text="false: a two-person opening was asked for; a second "
        "administrator confirms with the same call"
    )
    bids = serializers.ListField(child=serializers.IntegerField())
    submissions = serializers.IntegerField(help_text="versions read at the opening")
    without_submission = serializers.ListField(
        child=serializers.CharField(), help_text="vendors that submitted nothing"
    )
    revoked_not_opened = serializers.ListField(
        child=serializers.CharField(),
        help_text="vendors whose invitation was revoked: not opened",
    )


class RfpScopedMixin(ProcurementScopedMixin):
    def visibility(self):
        return visibility.visibility_for(
            procurement=self.procurement(), user=self.request.user
        )

    def refuse_when_blind(self) -> None:
        if self.visibility().blind:
            raise PermissionDenied(
                _(
                    "Blind grading: the invited vendors are hidden from your role "
                    "until scoring closes."
                )
            )

    def base_url(self) -> str:
        return self.request.build_absolute_uri("/")

    def invitation(self) -> Invitation:
        return get_object_or_404(
            Invitation.objects.filter(procurement=self.procurement()).select_related(
                "vendor", "procurement"
            ),
            pk=self.kwargs["pk"],
        )


class InvitationListView(RfpScopedMixin, APIView):
    """The RFP's invitations (no submission state: sealed); POST invites a vendor."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(responses=InvitationSerializer(many=True))
    def get(self, request, procurement_pk):
        self.refuse_when_blind()
        rows = Invitation.objects.filter(procurement=self.procurement()).select_related(
            "vendor"
        )
        return Response(InvitationSerializer(rows, many=True).data)

    @extend_schema(
        request=InvitationInputSerializer, responses={201: InvitationSerializer}
    )
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        data = InvitationInputSerializer(
            data=request.data, context={"procurement": procurement}
        )
        data.is_valid(raise_exception=True)
        invitation = invitations.invite(
            procurement,
            request.user,
            request_base_url=self.base_url(),
            **data.validated_data,
        )
        return Response(
            InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED
        )


class InvitationDetailView(RfpScopedMixin, APIView):
    """DELETE revokes the invitation: its links stop working (nothing is deleted)."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, procurement_pk, pk):
        invitations.revoke(self.invitation(), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationResendView(RfpScopedMixin, APIView):
    """E-mail the invitation's link again."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(request=None, responses=InvitationSerializer)
    def post(self, request, procurement_pk, pk):
        invitation = invitations.resend(
            self.invitation(), request.user, request_base_url=self.base_url()
        )
        return Response(InvitationSerializer(invitation).data)


class QuestionListView(RfpScopedMixin, APIView):
    """The vendors' questions with who asked (the buyer may know it)."""

    permission_classes = [IsMember]

    @extend_schema(responses=QuestionSerializer(many=True))
    def get(self, request, procurement_pk):
        shown = self.visibility()
        rows = answers.questions_for_buyer(self.procurement(), shown)
        context = {"blind": shown.blind}
        return Response(QuestionSerializer(rows, many=True, context=context).data)


class QuestionAnswerView(RfpScopedMixin, APIView):
    """Answer a question; every invited vendor reads the answer, anonymised."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(request=AnswerInputSerializer, responses=QuestionSerializer)
    def patch(self, request, procurement_pk, pk):
        question = get_object_or_404(
            RfpQuestion.objects.filter(procurement=self.procurement()), pk=pk
        )
        data = AnswerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        question = answers.answer_question(
            question,
            request.user,
            data.validated_data["answer"],
            published_question=data.validated_data.get("published_question"),
        )
        return Response(QuestionSerializer(question).data)


class QuestionRedactionView(RfpScopedMixin, APIView):
    """The redaction step before publishing: the question and a draft answer with
    every vendor's names and aliases masked, for the buyer to review and edit (then
    PATCH .../questions/{id}/ with both); nothing is written."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(request=RedactionInputSerializer, responses=RedactionSerializer)
    def post(self, request, procurement_pk, pk):
        question = get_object_or_404(
            RfpQuestion.objects.filter(procurement=self.procurement()), pk=pk
        )
        data = RedactionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        redaction = answers.redact_for_vendors(
            question, data.validated_data.get("answer", "")
        )
        return Response(RedactionSerializer(redaction).data)


class SubmissionListView(RfpScopedMixin, APIView):
    """After the opening: each invitation's versions and its bid. Before: 409."""

    permission_classes = [IsMember]

    @extend_schema(
        responses={
            200: OpenedInvitationSerializer(many=True),
            409: OpenApiResponse(DETAIL, description="sealed until the opening"),
        }
    )
    def get(self, request, procurement_pk):
        procurement = self.procurement()
        rfp = RfpSettings.objects.filter(procurement=procurement).first()
        if rfp is None or not rfp.is_open:
            return Response(
                {"detail": _("The submissions are sealed until the opening.")},
                status=status.HTTP_409_CONFLICT,
            )
        self.refuse_when_blind()
        opened = opening.opened_versions(procurement)
        rows = Invitation.objects.filter(procurement=procurement).select_related(
            "vendor"
        )
        out = []
        for invitation in rows.order_by("id"):
            versions = opened.get(invitation.pk, [])
            invitation.versions = versions
            invitation.bid = versions[0].bid_id if versions else None
            out.append(invitation)
        return Response(OpenedInvitationSerializer(out, many=True).data)


class OpenView(RfpScopedMixin, APIView):
    """Open the sealed submissions (administrators, after the deadline). With a
    two-person opening the first call asks, a second administrator's call opens."""

    permission_classes = [IsMember]

    @extend_schema(
        request=None,
        responses={
            200: OpeningSerializer,
            409: OpenApiResponse(DETAIL, description="already opened"),
        },
    )
    def post(self, request, procurement_pk):
        result = opening.open_submissions(self.procurement(), request.user)
        return Response(
            {
                "opened": result.opened,
                "bids": [bid.pk for bid in result.bids],
                "submissions": result.submissions,
                "without_submission": result.without_submission,
                "revoked_not_opened": result.revoked_not_opened,
            }
        )
