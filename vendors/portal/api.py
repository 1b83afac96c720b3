"""The supplier portal's API, under /api/v1/portal/{token}/: the same use cases as the
portal's pages (`submissions`, `questions`), with the signed link as the only
credential (no session, no API token) and the portal's own rate limits.

A bad link answers 403 with ``{"detail", "code"}`` (code invalid / expired / revoked);
a refused write 400 with the field messages, or 409 with ``{"detail", "code"}`` when
the submission window is closed (code late / opened / no_deadline / revoked).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.utils import json
from rest_framework.views import APIView

from clusterbuy.parsers import BoundedJSONParser, json_nesting_depth
from clusterbuy.services import ServiceError

from . import questions, submissions
from .addenda import addendum_rows
from .api_serializers import (
    PortalEvidenceSerializer,
    PortalFileUploadSerializer,
    PortalQuestionInputSerializer,
    PortalQuestionSerializer,
    PortalRefusalSerializer,
    PortalSerializer,
    PortalSubmissionInputSerializer,
    PortalSubmissionSerializer,
)
from .notices import acknowledge_addendum
from .summary import rfp_summary
from .throttle import portal_wait_s
from .tokens import PortalLinkError, invitation_for
from .views import LINK_ERRORS

WINDOW_CODES = ("late", "opened", "no_deadline", "revoked")
#: Refusals that a later try may pass: 429 with Retry-After.
BUSY_CODES = ("busy",)
BUSY_RETRY_S = 30
LINK_REFUSED = OpenApiResponse(
    PortalRefusalSerializer, description="the link is invalid, expired or revoked"
)
WINDOW_CLOSED = OpenApiResponse(
    PortalRefusalSerializer,
    description="the deadline passed, the RFP was opened or has no deadline yet",
)


class PortalThrottle(BaseThrottle):
    """Per link and per client address (`throttle.portal_wait_s`)."""

    def allow_request(self, request, view):
        self._wait_s = portal_wait_s(request, view.kwargs.get("token", ""))
        return self._wait_s is None

    def wait(self):
        return self._wait_s


class PortalJSONParser(BoundedJSONParser):
    """Every portal body is an object: a top-level array, string or number answers
    400 here (it reached the views, which read it as a mapping: a 500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        if not isinstance(data, dict):
            raise ParseError(
                _("The JSON body must be an object ({...}), not %(kind)s.")
                % {"kind": _JSON_KINDS.get(type(data), lambda: _("a value"))()}
            )
        return data


_JSON_KINDS = {
    list: lambda: _("an array"),
    str: lambda: _("a string"),
    int: lambda: _("a number"),
    float: lambda: _("a number"),
    bool: lambda: _("true or false"),
    type(None): lambda: _("null"),
}


class PortalView(APIView):
    authentication_classes: list = []
    parser_classes = [PortalJSONParser, FormParser, MultiPartParser]
    permission_classes = [AllowAny]
    throttle_classes = [PortalThrottle]

    def initial(self, request, *args, **kwargs):
        # when the upload began arriving: the deadline is judged by it (before the
        # body is read and parsed, which may take long)
        request.received_at = timezone.now()
        super().initial(request, *args, **kwargs)  # rate limits first
        try:
            self.invitation = invitation_for(kwargs.get("token", ""))
        except PortalLinkError as error:
            raise exceptions.PermissionDenied(
                {"detail": LINK_ERRORS[error.code](), "code": error.code}
            ) from error

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = "no-store"
        return response


def refusal(error: submissions.PortalError) -> Response:
    if error.code in BUSY_CODES:
        response = Response(
            {"detail": error.message, "code": error.code},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
        )
        response["Retry-After"] = str(BUSY_RETRY_S)
        return response
    if error.code in WINDOW_CODES:
        return Response(
            {"detail": error.message, "code": error.code},
            status=status.HTTP_409_CONFLICT,
        )
    if error.errors:
        return Response(error.errors, status=status.HTTP_400_BAD_REQUEST)
    if error.code == "not_found":
        return Response({"detail": error.message}, status=status.HTTP_404_NOT_FOUND)
    return Response(
        {error.field or "non_field_errors": [error.message]},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _submissions(invitation) -> list:
    return PortalSubmissionSerializer(
        submissions.submissions_of(invitation), many=True
    ).data


class PortalHomeView(PortalView):
    @extend_schema(
        responses={200: PortalSerializer, 403: LINK_REFUSED},
        summary="The RFP summary and your own submissions, evidence and questions",
    )
    def get(self, request, token):
        invitation = self.invitation
        data = {
            "rfp": rfp_summary(invitation),
            "submissions": _submissions(invitation),
            "evidence": PortalEvidenceSerializer(
                submissions.evidence_of(invitation), many=True
            ).data,
            "questions": PortalQuestionSerializer(
                questions.questions_for(invitation), many=True
            ).data,
        }
        return Response(PortalSerializer(data).data)


def _fields(data) -> dict | None:
    """The bid fields: a ``fields`` JSON object (or its text in a multipart form), or
    else the body's own keys. None when ``fields`` is not a JSON object."""
    raw = data.get("fields")
    if raw is None:
        return {
            k: (
                data.getlist(k) if hasattr(data, "getlist") and k in _LISTS else data[k]
            )
            for k in data
            if k not in ("proposal_text", "workbook")
        }
    if isinstance(raw, str):  # a multipart form's text: the JSON body's bounds
        if (
            len(raw) > settings.API_BODY_MAX_BYTES
            or json_nesting_depth(raw) > settings.API_JSON_MAX_DEPTH
        ):
            return None
        try:
            raw = json.loads(raw)
        except ValueError:
            return None
    return raw if isinstance(raw, dict) else None


_LISTS = ("support_channels", "monitoring")


def _extra(data, key: str) -> dict | None:
    """The ``declarations`` or ``contact`` object (JSON, or its text in a multipart
    form); without it the body's own keys when the bid fields are flat too (the forms
    pick out theirs), else nothing. None when it is not a JSON object."""
    if data.get(key) is None:
        return {} if data.get("fields") is not None else data
    found = _fields({"fields": data.get(key)})
    return found


class SubmissionsView(PortalView):
    parser_classes = [MultiPartParser, FormParser, PortalJSONParser]

    @extend_schema(
        responses={200: PortalSubmissionSerializer(many=True), 403: LINK_REFUSED}
    )
    def get(self, request, token):
        return Response(_submissions(self.invitation))

    @extend_schema(
        request={
            "multipart/form-data": PortalSubmissionInputSerializer,
            "application/json": PortalSubmissionInputSerializer,
        },
        responses={
            202: OpenApiResponse(
                PortalSubmissionSerializer,
                description="received: the version and its receipt, status "
                "'checking'; GET submissions/{receipt}/ until it is 'ready'",
            ),
            400: OpenApiResponse(description="{field: [message]}"),
            403: LINK_REFUSED,
            409: WINDOW_CLOSED,
            429: OpenApiResponse(
                PortalRefusalSerializer,
                description="too many versions still being checked (code busy)",
            ),
        },
        summary="Submit the next version (fields, proposal text, XLSX workbook)",
    )
    def post(self, request, token):
        fields = _fields(request.data)
        if fields is None:
            return Response(
                {"fields": [_("Give the bid fields as a JSON object.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        extras = {key: _extra(request.data, key) for key in ("declarations", "contact")}
        for key, value in extras.items():
            if value is None:
                return Response(
                    {key: [_("Give this as a JSON object.")]},
                    status=status.HTTP_400_BAD_REQUEST,
                )
        try:
            submission = submissions.submit(
                self.invitation,
                fields=fields,
                proposal_text=str(
                    request.data.get("proposal_text")
                    or fields.get("proposal_text")
                    or ""
                ),
                workbook=request.FILES.get("workbook"),
                now=request.received_at,
                **extras,
            )
        except submissions.PortalError as error:
            return refusal(error)
        return Response(
            PortalSubmissionSerializer(submission).data,
            status=status.HTTP_202_ACCEPTED,
        )


class SubmissionDetailView(PortalView):
    @extend_schema(
        responses={200: PortalSubmissionSerializer, 403: LINK_REFUSED, 404: None},
        summary="One of your versions by its receipt (poll until status is 'ready')",
    )
    def get(self, request, token, receipt):
        found = self.invitation.submissions.filter(version=receipt).first()
        if found is None:
            return Response(
                {"detail": _("No such submission.")}, status=status.HTTP_404_NOT_FOUND
            )
        return Response(PortalSubmissionSerializer(found).data)


class QuestionsView(PortalView):
    @extend_schema(
        responses={200: PortalQuestionSerializer(many=True), 403: LINK_REFUSED}
    )
    def get(self, request, token):
        return Response(
            PortalQuestionSerializer(
                questions.questions_for(self.invitation), many=True
            ).data
        )

    @extend_schema(
        request=PortalQuestionInputSerializer,
        responses={
            201: PortalQuestionSerializer(many=True),
            403: LINK_REFUSED,
            409: WINDOW_CLOSED,
        },
        summary="Ask the buyer a question (answered for every vendor, anonymised)",
    )
    def post(self, request, token):
        data = PortalQuestionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            questions.ask_question(self.invitation, data.validated_data["question"])
        except submissions.PortalError as error:
            return refusal(error)
        return Response(
            PortalQuestionSerializer(
                questions.questions_for(self.invitation), many=True
            ).data,
            status=status.HTTP_201_CREATED,
        )


class EvidenceView(PortalView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        responses={200: PortalEvidenceSerializer(many=True), 403: LINK_REFUSED}
    )
    def get(self, request, token):
        return Response(
            PortalEvidenceSerializer(
                submissions.evidence_of(self.invitation), many=True
            ).data
        )

    @extend_schema(
        request={"multipart/form-data": PortalFileUploadSerializer},
        responses={
            201: PortalEvidenceSerializer,
            403: LINK_REFUSED,
            409: WINDOW_CLOSED,
        },
        summary="Attach a PDF or XLSX (checked by content, size and count limited)",
    )
    def post(self, request, token):
        upload = request.FILES.get("file")
        if upload is None:
            return Response(
                {"file": [_("Choose a file to upload.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            evidence = submissions.add_evidence(
                self.invitation, upload, purpose=str(request.data.get("purpose") or "")
            )
        except submissions.PortalError as error:
            return refusal(error)
        return Response(
            PortalEvidenceSerializer(evidence).data, status=status.HTTP_201_CREATED
        )


class EvidenceDetailView(PortalView):
    @extend_schema(
        responses={204: None, 403: LINK_REFUSED, 404: None, 409: WINDOW_CLOSED},
        summary="Withdraw one of your evidence files",
    )
    def delete(self, request, token, evidence_pk):
        try:
            submissions.remove_evidence(self.invitation, evidence_pk)
        except submissions.PortalError as error:
            return refusal(error)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AddendumChangeSerializer(serializers.Serializer):
    section = serializers.CharField()
    section_label = serializers.CharField()
    item = serializers.CharField()
    old = serializers.CharField()
    new = serializers.CharField()


class AddendumSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    published_at = serializers.DateTimeField()
    note = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    deadline_moved = serializers.BooleanField()
    changes = AddendumChangeSerializer(many=True)
    acknowledged_at = serializers.DateTimeField(allow_null=True)


class AddendaView(PortalView):
    @extend_schema(
        responses={200: AddendumSerializer(many=True), 403: LINK_REFUSED},
        summary="The addenda to the RFP sent to you, newest first",
    )
    def get(self, request, token):
        return Response(
            AddendumSerializer(addendum_rows(self.invitation), many=True).data
        )


class AcknowledgeView(PortalView):
    @extend_schema(
        request=None,
        responses={200: AddendumSerializer, 403: LINK_REFUSED},
        summary="Acknowledge an addendum (again: no change)",
    )
    def post(self, request, token, number):
        try:
            acknowledge_addendum(self.invitation, number=number)
        except ServiceError as error:
            return Response({"number": [error.message]}, status=400)
        row = next(r for r in addendum_rows(self.invitation) if r["number"] == number)
        return Response(AddendumSerializer(row).data)
