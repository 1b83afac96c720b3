"""/api/v1/portal/{token}/price-justifications/...: the committee's requests for a
written justification of the vendor's abnormally low price, and the vendor's answer
with optional proof (PDF or XLSX) (`vendors.services.price_justifications`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS

from ..portal.api import PortalJSONParser, PortalView
from ..services import price_justifications


class PortalJustificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    state = serializers.CharField(
        help_text="requested (answer it), answered, justified or not_justified"
    )
    request_note = serializers.CharField()
    requested_at = serializers.DateTimeField()
    response = serializers.CharField()
    proof_name = serializers.CharField(allow_null=True)
    responded_at = serializers.DateTimeField(allow_null=True)


class PortalJustificationAnswerSerializer(serializers.Serializer):
    response = serializers.CharField(max_length=LONG_TEXT_MAX_CHARS)
    proof = serializers.FileField(
        required=False, help_text="optional proof (PDF or XLSX), multipart only"
    )


def _data(row) -> dict:
    """The vendor's view: its own request and answer; the judgement's state only."""
    return {
        "id": row.pk,
        "state": row.state,
        "request_note": row.request_note,
        "requested_at": row.requested_at,
        "response": row.response,
        "proof_name": row.proof.original_name if row.proof else None,
        "responded_at": row.responded_at,
    }


class PortalJustificationsView(PortalView):
    @extend_schema(
        responses=PortalJustificationSerializer(many=True),
        summary="The committee's requests to justify your price",
    )
    def get(self, request, token):
        rows = price_justifications.justifications_for_invitation(self.invitation)
        return Response([_data(r) for r in rows])


class PortalJustificationAnswerView(PortalView):
    parser_classes = [MultiPartParser, FormParser, PortalJSONParser]

    @extend_schema(
        request={
            "multipart/form-data": PortalJustificationAnswerSerializer,
            "application/json": PortalJustificationAnswerSerializer,
        },
        responses=PortalJustificationSerializer,
        summary="Send your written justification (once), with optional proof",
    )
    def post(self, request, token, justification_pk):
        data = PortalJustificationAnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = price_justifications.respond_to_justification(
            invitation=self.invitation,
            justification_id=justification_pk,
            response=data.validated_data["response"],
            proof=data.validated_data.get("proof"),
        )
        return Response(_data(row))
