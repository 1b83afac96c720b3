"""Consistent API errors: 400 with per-field messages, 409 for a write on data that
changed since it was read; Django's 404/403 as DRF's."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import error_message
from .services import ConflictError, ServiceError


def service_error_response(exc: ServiceError) -> Response:
    if isinstance(exc, ConflictError):
        return Response(
            {"detail": exc.message, **exc.details}, status=status.HTTP_409_CONFLICT
        )
    field = exc.field or "non_field_errors"
    return Response({field: [error_message(exc)]}, status=status.HTTP_400_BAD_REQUEST)


def exception_handler(exc, context):
    response = _error_response(exc, context)
    if response is not None:
        _answer_in_json(context.get("request"))
    return response


def _answer_in_json(request) -> None:
    """An error is JSON even where a file was asked for (``?format=pdf``, ``Accept:
    application/pdf``): a file renderer would label the JSON body a PDF."""
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is not None and getattr(renderer, "format", None) not in (
        "json",
        "api",
    ):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def _error_response(exc, context):
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, DjangoValidationError):
        detail = (
            exc.message_dict
            if hasattr(exc, "error_dict")
            else {"non_field_errors": exc.messages}
        )
        exc = exceptions.ValidationError(detail)
    # Errors raised by the pure engines carry the field at fault; the message is
    # said in the request's language, the key stays the field path.
    field = getattr(exc, "field", None)
    message = getattr(exc, "message", None)
    if isinstance(exc, ValueError) and field and message:
        return Response(
            {field: [error_message(exc)]}, status=status.HTTP_400_BAD_REQUEST
        )
    return drf_exception_handler(exc, context)
