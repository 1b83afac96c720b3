"""Bids of a procurement, their line-item import and their attachments.

Writes to a bid check the version the client read, given as `version` in the body or
as the bid's ETag in If-Match (docs/api.md, "Concurrent edits")."""

from __future__ import annotations

import re

from django.db import transaction
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.permissions import capability_for_writes

from .. import visibility
from ..engine.importing import LineItemImportError
from ..models import Bid
from ..services import attachments, bids
from ..services.import_errors import row_error_message
from .bid_serializers import (
    AttachmentSerializer,
    AttachmentUploadSerializer,
    BidConflictSerializer,
    BidInputSerializer,
    BidOutputSerializer,
    FileUploadSerializer,
    ImportErrorSerializer,
    LineItemSerializer,
)
from .scoping import ProcurementScopedMixin

IF_MATCH = OpenApiParameter(
    "If-Match",
    location=OpenApiParameter.HEADER,
    required=False,
    description='the ETag of the bid version you read, such as "3"; '
    "an older one answers 409",
)
CONFLICT = OpenApiResponse(
    BidConflictSerializer, description="the bid changed since that version"
)
ETAG = re.compile(r'"(\d{1,10})"')


def expected_version(request, body_version: int | None) -> int | None:
    """The bid version the client read: the body's `version` or the If-Match header
    (the ETag a bid response carries); None when the client names neither."""
    header = request.headers.get("If-Match", "").strip()
    if not header or header == "*":
        return body_version
    etags = parse_etags(header)
    match = ETAG.fullmatch(etags[0]) if len(etags) == 1 else None
    if match is None:
        raise serializers.ValidationError(
            {"version": [_('If-Match takes one ETag of the bid, such as "3".')]}
        )
    version = int(match.group(1))
    if body_version is not None and body_version != version:
        raise serializers.ValidationError(
            {"version": [_("The version in the body and in If-Match differ.")]}
        )
    return version


def with_etag(response: Response, bid) -> Response:
    response["ETag"] = quote_etag(str(bid.version))
    return response


class BidViewSet(ProcurementScopedMixin, viewsets.ModelViewSet):
    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    serializer_class = BidOutputSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Bid.objects.none()
        return (
            Bid.objects.for_procurement(self.procurement())
            .select_related("vendor", "procurement")
            .prefetch_related("line_items", "case_studies", "attachments")
            .order_by("id")
        )

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "procurement_pk" in self.kwargs:
            context["procurement"] = self.procurement()
            context["visibility"] = visibility.visibility_for(
                procurement=self.procurement(), user=self.request.user
            )
        return context

    def _output(self, bid, code=status.HTTP_200_OK):
        bid = self.get_queryset().get(pk=bid.pk)
        return with_etag(
            Response(
                BidOutputSerializer(bid, context=self.get_serializer_context()).data,
                status=code,
            ),
            bid,
        )

    def retrieve(self, request, *args, **kwargs):
        return self._output(self.get_object())

    @extend_schema(request=BidInputSerializer, responses={201: BidOutputSerializer})
    def create(self, request, *args, **kwargs):
        data = BidInputSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values.pop("version", None)
        bid = bids.create_bid(
            procurement=self.procurement(),
            user=request.user,
            **values,
        )
        return self._output(bid, status.HTTP_201_CREATED)

    @extend_schema(
        request=BidInputSerializer,
        parameters=[IF_MATCH],
        responses={200: BidOutputSerializer, 409: CONFLICT},
    )
    def update(self, request, *args, **kwargs):
        bid = self.get_object()
        partial = kwargs.pop("partial", False)
        data = BidInputSerializer(
            bid,
            data=request.data,
            partial=partial,
            context=self.get_serializer_context(),
        )
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        version = expected_version(request, values.pop("version", None))
        bids.update_bid(bid=bid, user=request.user, version=version, **values)
        return self._output(bid)

    @extend_schema(
        request=BidInputSerializer,
        parameters=[IF_MATCH],
        responses={200: BidOutputSerializer, 409: CONFLICT},
    )
    def partial_update(self, request, *args, **kwargs):
        kwargs["partial"] = True
        return self.update(request, *args, **kwargs)

    @transaction.atomic
    def perform_destroy(self, instance):
        bids.delete_bid(bid=instance)


class LineItemImportView(ProcurementScopedMixin, APIView):
    """Replace a bid's line items from an XLSX/CSV sheet (the template), all or nothing."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={"multipart/form-data": FileUploadSerializer},
        parameters=[IF_MATCH],
        responses={
            201: LineItemSerializer(many=True),
            400: OpenApiResponse(ImportErrorSerializer, description="per-row errors"),
            409: CONFLICT,
        },
    )
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"file": [_("Choose a file to upload.")], "rows": []},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            items = bids.import_line_items(
                bid=bid,
                fileobj=upload,
                filename=upload.name,
                user=request.user,
                version=expected_version(request, None),
            )
        except LineItemImportError as exc:
            return Response(import_errors(exc), status=status.HTTP_400_BAD_REQUEST)
        return with_etag(
            Response(
                LineItemSerializer(items, many=True).data,
                status=status.HTTP_201_CREATED,
            ),
            bid,
        )


def import_errors(exc: LineItemImportError) -> dict:
    return {
        "file": [row_error_message(e) for e in exc.errors if e.row == 0],
        "rows": [
            {"row": e.row, "column": e.column, "message": row_error_message(e)}
            for e in exc.errors
            if e.row > 0
        ],
    }


class AttachmentView(ProcurementScopedMixin, APIView):
    """A bid's attachments: PDF or XLSX, checked by content, at most 10 MB."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        responses={
            200: AttachmentSerializer(many=True),
            403: OpenApiResponse(
                description="sealed from you: blind grading or a sealed envelope"
            ),
        }
    )
    def get(self, request, procurement_pk, bid_pk):
        """403 while the attachments are sealed from you (`visibility`)."""
        shown = visibility.visibility_for(
            procurement=self.procurement(), user=request.user
        )
        if shown.attachments_sealed:
            raise PermissionDenied(visibility.ATTACHMENTS_SEALED)
        return Response(
            AttachmentSerializer(self.bid().attachments.all(), many=True).data
        )

    @extend_schema(
        request={"multipart/form-data": AttachmentUploadSerializer},
        responses={201: AttachmentSerializer},
    )
    def post(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"file": [_("Choose a file to upload.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        attachment = attachments.add_attachment(
            bid=bid,
            user=request.user,
            upload=upload,
            purpose=str(request.data.get("purpose") or ""),
        )
        return Response(
            AttachmentSerializer(attachment).data, status=status.HTTP_201_CREATED
        )
