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
from ..rfp.publication import UNSET, issue_addendum
from ..rfp.published import published_context, version_rows
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
    addendum_notice_days = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=90,
        help_text="an addendum that may affect bids, issued fewer days than this "
        "before the deadline, moves it (15: 政府采购法实施条例 第三十一条, "
        "招标投标法实施条例 第二十一条)",
    )


class RfpSettingsOutputSerializer(RfpSettingsSerializer):
    is_open = serializers.BooleanField(read_only=True)
    opened_at = serializers.DateTimeField(read_only=True, allow_null=True)


class RfpChangeSerializer(serializers.Serializer):
    section = serializers.CharField()
    section_label = serializers.CharField()
    item = serializers.CharField()
    old = serializers.CharField()
    new = serializers.CharField()


class AddendumNoticeSerializer(serializers.Serializer):
    vendor = serializers.CharField()
    emailed_at = serializers.DateTimeField(allow_null=True)
    acknowledged_at = serializers.DateTimeField(allow_null=True)


class RfpPackFileSerializer(serializers.Serializer):
    language = serializers.CharField()
    fmt = serializers.CharField()
    name = serializers.CharField()
    sha256 = serializers.CharField()


class RfpVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    published_at = serializers.DateTimeField()
    published_by = serializers.CharField()
    note = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    requested_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="the deadline asked for when the notice rule moved it",
    )
    two_person_opening = serializers.BooleanField()
    changes = RfpChangeSerializer(many=True)
    notices = AddendumNoticeSerializer(many=True)
    pack_files = RfpPackFileSerializer(many=True)


class RfpSerializer(serializers.Serializer):
    settings = RfpSettingsOutputSerializer()
    published_version = serializers.IntegerField(allow_null=True)
    live_changes = RfpChangeSerializer(
        many=True, help_text="how the live plan differs from the published version"
    )
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
        published = published_context(procurement)
        return {
            "settings": {
                "deadline": row.deadline,
                "publish_weights": row.publish_weights,
                "two_person_opening": row.two_person_opening,
                "instructions": row.instructions,
                "addendum_notice_days": row.addendum_notice_days,
                "is_open": row.is_open,
                "opened_at": row.opened_at,
            },
            "published_version": published["published"]["number"]
            if published["published"]
            else None,
            "live_changes": published["live_changes"],
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


class AddendumInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=4000, help_text="what and why")
    deadline = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="kept when absent; later than the published one, never earlier",
    )
    two_person_opening = serializers.BooleanField(required=False)
    publish_weights = serializers.BooleanField(required=False)
    instructions = serializers.CharField(
        required=False, allow_blank=True, max_length=INSTRUCTIONS_MAX_CHARS
    )
    affects_bids = serializers.BooleanField(
        required=False,
        default=True,
        help_text="可能影响投标文件编制: then the notice rule may move the deadline",
    )


class RfpVersionsView(ProcurementScopedMixin, APIView):
    """The published RFP versions (GET) and a new addendum (POST: procurement
    officers and administrators; e-mailed to every invited vendor, audited)."""

    permission_classes = [capability_for_writes(Capability.EDIT_VENDORS)]

    @extend_schema(responses=RfpVersionSerializer(many=True))
    def get(self, request, procurement_pk):
        rows = version_rows(self.procurement())
        return Response(RfpVersionSerializer(rows, many=True).data)

    @extend_schema(
        request=AddendumInputSerializer, responses={201: RfpVersionSerializer}
    )
    def post(self, request, procurement_pk):
        procurement = self.procurement()
        data = AddendumInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        result = issue_addendum(
            procurement,
            request.user,
            deadline=values.pop("deadline", UNSET),
            request_base_url=request.build_absolute_uri("/"),
            **values,
        )
        row = version_rows(procurement)[result.version.number - 1]
        return Response(RfpVersionSerializer(row).data, status=201)
