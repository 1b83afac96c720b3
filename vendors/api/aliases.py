"""``GET /procurements/{id}/blind-preview/``: per vendor, what blind grading masks
(name fragments, declared and learnt aliases) and the name-like terms that would
remain visible, with where they occur. Declaring an alias is ``PATCH /vendors/{id}/``
with ``aliases`` (or ``alias_exceptions`` to keep a learnt term visible)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, can
from clusterbuy.permissions import IsMember

from ..engine.aliases import AliasCandidate
from ..services import aliases
from .scoping import ProcurementScopedMixin


class AliasOccurrenceSerializer(serializers.Serializer):
    source = serializers.CharField()
    snippet = serializers.CharField()


class AliasCandidateSerializer(serializers.Serializer):
    """One term that would stay visible or is masked, with where it occurs (one
    class, so the schema names one component for the three lists)."""

    term = serializers.CharField()
    occurrences = serializers.ListField(child=AliasOccurrenceSerializer())


def _candidate_list() -> serializers.ListField:
    return serializers.ListField(child=AliasCandidateSerializer())


_MASKING = inline_serializer(
    "VendorMasking",
    {
        "vendor": inline_serializer(
            "MaskedVendor",
            {"id": serializers.IntegerField(), "name": serializers.CharField()},
        ),
        "fragments": serializers.ListField(child=serializers.CharField()),
        "declared": serializers.ListField(child=serializers.CharField()),
        "learnt": _candidate_list(),
        "kept": _candidate_list(),
        "remaining": _candidate_list(),
    },
)


def _candidates(rows: list[AliasCandidate]) -> list[dict]:
    return [
        {
            "term": c.term,
            "occurrences": [
                {"source": o.source, "snippet": o.snippet} for o in c.occurrences
            ],
        }
        for c in rows
    ]


class BlindPreviewView(ProcurementScopedMixin, APIView):
    """What blind evaluators would see of each vendor (for who manages vendors)."""

    permission_classes = [IsMember]

    @extend_schema(responses=serializers.ListSerializer(child=_MASKING))
    def get(self, request, procurement_pk):
        procurement = self.procurement()
        if not can(request.user, Capability.EDIT_VENDORS):
            raise PermissionDenied()
        return Response(
            [
                {
                    "vendor": {"id": m.vendor.pk, "name": m.vendor.name},
                    "fragments": m.fragments,
                    "declared": m.declared,
                    "learnt": _candidates(m.learnt),
                    "kept": _candidates(m.kept),
                    "remaining": _candidates(m.remaining),
                }
                for m in aliases.vendor_maskings(procurement)
            ]
        )
