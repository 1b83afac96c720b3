"""/api/v1/portal/{token}/corrections/...: the buyer's correction and clarification
requests on the vendor's opened bid, and the vendor's answer (the portal pages'
use case, `vendors.services.corrections`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS

from ..portal.api import PortalView
from ..services import corrections
from .corrections import CorrectionSerializer


def _data(correction) -> dict:
    return {
        "id": correction.pk,
        "kind": correction.kind,
        "what": correction.what,
        "why": correction.why,
        "changes": correction.changes,
        "status": correction.status,
        "response": correction.response,
        "requested_at": correction.requested_at,
        "responded_at": correction.responded_at,
        "bid_version": correction.bid_version,
    }


class CorrectionAnswerSerializer(serializers.Serializer):
    answer = serializers.ChoiceField(choices=("confirm", "decline"))
    response = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=LONG_TEXT_MAX_CHARS
    )


class PortalCorrectionsView(PortalView):
    @extend_schema(
        responses=CorrectionSerializer(many=True),
        summary="The buyer's requests on your opened bid",
    )
    def get(self, request, token):
        rows = corrections.corrections_for_invitation(self.invitation)
        return Response([_data(c) for c in rows])


class PortalCorrectionAnswerView(PortalView):
    @extend_schema(
        request=CorrectionAnswerSerializer,
        responses=CorrectionSerializer,
        summary="Confirm (or clarify) or decline a request; a reason to decline",
    )
    def post(self, request, token, correction_pk):
        data = CorrectionAnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        correction = corrections.respond_to_correction(
            invitation=self.invitation,
            correction_id=correction_pk,
            confirm=data.validated_data["answer"] == "confirm",
            response=data.validated_data["response"],
        )
        return Response(_data(correction))
