"""The RFP of a procurement: its settings and content (GET/PUT), and the pack as a
file (PDF, DOCX, or ZIP with the bid template), in the request's language."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability
from clusterbuy.permissions import IsMember, capability_for_writes

from ..models.rfp import INSTRUCTIONS_MAX_CHARS
from ..rfp import services
from ..rfp.content import rfp_content
from ..rfp.pack import CONTENT_TYPES, pack_download
from .scoping import ProcurementScopedMixin


class RfpSettingsSerializer(serializers.Serializer):
    deadline = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="ISO 8601 with time zone; in the future when set or moved",
    )
    publish_weights = serializers.BooleanField(required=False)
    two_person_opening = serializers.BooleanField(required=False)
    instructions = serializers.CharField(
        required=False, allow_blank=True, max_length=INSTRUCTIONS_MAX_CHARS
    )


class RfpSettingsOutputSerializer(RfpSettingsSerializer):
    is_open = serializers.BooleanField(read_only=True)
    opened_at = serializers.DateTimeField(read_only=True, allow_null=True)


class RfpSerializer(serializers.Serializer):
    settings = RfpSettingsOutputSerializer()
    content = serializers.JSONField(
        help_text="the pack's text in the request's language: requirement, workloads, "
        "minimums (code, label, comparison, value, unit, shown, basis), questions, "
        "pitfalls, criteria (weight_percent only when the weights are published), "
        "deadline, instructions"
    )


class RfpView(ProcurementScopedMixin, APIView):
    """The procurement's RFP: settings (PUT: procurement officers and administrators;
    audited) and the content vendors receive."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    def _data(self, row):
        procurement = self.procurement()
        return {
            "settings": {
                "deadline": row.deadline,
                "publish_weights": row.publish_weights,
                "two_person_opening": row.two_person_opening,
                "instructions": row.instructions,
                "is_open": row.is_open,
                "opened_at": row.opened_at,
            },
            "content": rfp_content(procurement),
        }

    @extend_schema(responses=RfpSerializer)
    def get(self, request, procurement_pk):
        row = services.stored_rfp_settings(self.procurement())
        return Response(RfpSerializer(self._data(row)).data)

    @extend_schema(request=RfpSettingsSerializer, responses=RfpSerializer)
    def put(self, request, procurement_pk):
        procurement = self.procurement()
        data = RfpSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.update_rfp_settings(
            procurement, request.user, **data.validated_data
        )
        return Response(RfpSerializer(self._data(row)).data)


class PackRenderer(BaseRenderer):
    """Lets a client accept the pack's types; errors stay JSON."""

    media_type = "application/*"
    format = "pack"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return JSONRenderer().render(data)


class RfpPackView(ProcurementScopedMixin, APIView):
    """The RFP pack as a file in the request's language (Accept-Language):
    ``pdf``, ``docx``, ``zip`` (PDF + DOCX + the bid line-item XLSX template) or
    ``xlsx`` (the template alone)."""

    permission_classes = [IsMember]
    renderer_classes = [JSONRenderer, PackRenderer]

    @extend_schema(
        responses={
            (200, content_type): OpenApiTypes.BINARY
            for content_type in CONTENT_TYPES.values()
        },
    )
    def get(self, request, procurement_pk, fmt):
        return pack_download(self.procurement(), fmt)
