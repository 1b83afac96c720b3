"""Corrections and clarifications of an opened bid, the buyer's side:
/api/v1/procurements/{id}/bids/{bid}/corrections/ (`vendors.services.corrections`).
The vendor answers through the portal API (`vendors.portal.correction_api`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.bounds import model_field_limits
from clusterbuy.permissions import capability_for_writes

from .. import visibility
from ..models import BidCorrection, CorrectionKind
from ..services import corrections
from .scoping import ProcurementScopedMixin


class CorrectionChangeSerializer(serializers.Serializer):
    line_item = serializers.IntegerField()
    field = serializers.ChoiceField(choices=corrections.ARITHMETIC_FIELDS)
    new = serializers.DecimalField(max_digits=16, decimal_places=2)
    old = serializers.CharField(read_only=True)
    description = serializers.CharField(read_only=True)


class CorrectionSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    kind = serializers.ChoiceField(choices=CorrectionKind.choices)
    what = serializers.CharField(**model_field_limits(BidCorrection, "what"))
    why = serializers.CharField(**model_field_limits(BidCorrection, "why"))
    changes = CorrectionChangeSerializer(many=True, required=False, default=list)
    status = serializers.CharField(read_only=True)
    response = serializers.CharField(read_only=True)
    requested_by = serializers.CharField(read_only=True)
    requested_at = serializers.DateTimeField(read_only=True)
    responded_at = serializers.DateTimeField(read_only=True, allow_null=True)
    bid_version = serializers.IntegerField(read_only=True, allow_null=True)


def correction_data(correction: BidCorrection) -> dict:
    return {
        "id": correction.pk,
        "kind": correction.kind,
        "what": correction.what,
        "why": correction.why,
        "changes": correction.changes,
        "status": correction.status,
        "response": correction.response,
        "requested_by": getattr(correction.requested_by, "username", None),
        "requested_at": correction.requested_at,
        "responded_at": correction.responded_at,
        "bid_version": correction.bid_version,
    }


class CorrectionsView(ProcurementScopedMixin, APIView):
    """GET: the requests on this bid; POST: ask its vendor for an arithmetic
    correction (``changes``: line item, ``quantity`` or ``unit_price``, new value) or
    a clarification. 400 for a bid not submitted through the portal."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    def _shown(self, rows) -> list[dict]:
        shown = visibility.visibility_for(
            procurement=self.procurement(), user=self.request.user
        )
        return shown.redact_tree([correction_data(c) for c in rows])

    @extend_schema(responses=CorrectionSerializer(many=True))
    def get(self, request, procurement_pk, bid_pk):
        return Response(self._shown(corrections.corrections_for_bid(self.bid())))

    @extend_schema(request=CorrectionSerializer, responses=CorrectionSerializer)
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()  # another organisation's bid: 404 before reading the body
        data = CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        correction = corrections.request_correction(
            bid=bid,
            user=request.user,
            kind=values["kind"],
            what=values["what"],
            why=values["why"],
            changes=[dict(c) for c in values["changes"]],
        )
        return Response(self._shown([correction])[0], status=status.HTTP_201_CREATED)
