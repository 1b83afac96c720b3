"""Abnormally low prices, the buyer's and committee's side:
/api/v1/procurements/{id}/bids/{bid}/price-justification/ (GET the request, POST ask
the vendor) and .../price-justification/judgement/ (POST the committee's judgement)
(`vendors.services.price_justifications`, 87号令 第六十条). The vendor answers through
the portal API (`vendors.api.portal_price_justifications`)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.permissions import IsMember

from .. import visibility
from ..models import Judgement, PriceJustification
from ..models.price_justification import JUSTIFICATION_TEXT_MAX_CHARS
from ..services import price_justifications
from .scoping import ProcurementScopedMixin


class JustificationRequestSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=JUSTIFICATION_TEXT_MAX_CHARS,
        help_text="what the vendor is to justify in writing",
    )


class JudgementSerializer(serializers.Serializer):
    judgement = serializers.ChoiceField(choices=Judgement.choices)
    note = serializers.CharField(
        max_length=JUSTIFICATION_TEXT_MAX_CHARS, help_text="the committee's reasons"
    )


class JustificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    bid = serializers.IntegerField()
    state = serializers.CharField(
        help_text="requested, answered, justified or not_justified (invalid bid)"
    )
    request_note = serializers.CharField()
    requested_by = serializers.CharField(allow_null=True)
    requested_at = serializers.DateTimeField()
    response = serializers.CharField(help_text="the vendor's written justification")
    proof = serializers.IntegerField(
        allow_null=True, help_text="the bid attachment the vendor sent as proof"
    )
    responded_at = serializers.DateTimeField(allow_null=True)
    judgement = serializers.CharField(help_text='"" until judged')
    judgement_note = serializers.CharField()
    judged_by = serializers.CharField(allow_null=True)
    judged_at = serializers.DateTimeField(allow_null=True)


def justification_data(row: PriceJustification) -> dict:
    return {
        "id": row.pk,
        "bid": row.bid_id,
        "state": row.state,
        "request_note": row.request_note,
        "requested_by": getattr(row.requested_by, "username", None),
        "requested_at": row.requested_at,
        "response": row.response,
        "proof": row.proof_id,
        "responded_at": row.responded_at,
        "judgement": row.judgement,
        "judgement_note": row.judgement_note,
        "judged_by": getattr(row.judged_by, "username", None),
        "judged_at": row.judged_at,
    }


class _JustificationBase(ProcurementScopedMixin, APIView):
    permission_classes = [IsMember]

    def _shown(self, row) -> dict:
        shown = visibility.visibility_for(
            procurement=self.procurement(), user=self.request.user
        )
        return shown.redact_tree(justification_data(row))


class PriceJustificationView(_JustificationBase):
    """GET: the request on this bid (404: none yet); POST: ask the vendor of a bid
    the tender review flags abnormally low for its written justification (the
    committee's chair or who configures the evaluation; 400 when not flagged)."""

    @extend_schema(responses=JustificationSerializer)
    def get(self, request, procurement_pk, bid_pk):
        found = price_justifications.justifications_for([self.bid().pk])
        if not found:
            raise Http404(_("No justification asked of this bid."))
        return Response(self._shown(found[self.bid().pk]))

    @extend_schema(
        request=JustificationRequestSerializer,
        responses={201: JustificationSerializer},
    )
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()  # another organisation's bid: 404 before reading the body
        data = JustificationRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = price_justifications.request_justification(
            bid=bid, user=request.user, note=data.validated_data["note"]
        )
        return Response(self._shown(row), status=status.HTTP_201_CREATED)


class JudgementView(_JustificationBase):
    """The committee's judgement: justified (only on the vendor's written answer) or
    not justified (the bid becomes an invalid bid in the tender review)."""

    @extend_schema(request=JudgementSerializer, responses=JustificationSerializer)
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        data = JudgementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = price_justifications.judge_justification(
            bid=bid, user=request.user, **data.validated_data
        )
        return Response(self._shown(row))
