"""Tender settings (regime, method, price weight, 最高限价, deductions, ★ items) and
the tender review of the bids (符合性审查, evaluated prices, price scores, ranking,
viability). The review is the comparison's, for this viewer: blind labels and sealed
prices follow the same rule (`visibility`)."""

from __future__ import annotations

from decimal import Decimal

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from clusterbuy.access import Capability, require
from clusterbuy.permissions import IsMember

from .. import comparison
from ..models import MethodChoice, RegimeChoice, StackingChoice, SubjectChoice
from ..services import declarations, qualification, restriction, tender
from .scoping import ProcurementScopedMixin


class MandatoryItemSerializer(serializers.Serializer):
    key = serializers.ChoiceField(choices=sorted(tender.ITEM_KINDS))
    comparison = serializers.CharField(
        read_only=True, help_text="gte, lte or true (fixed by the key)"
    )
    required = serializers.JSONField(
        help_text="the threshold (a number as a string) or true for a yes/no item"
    )
    unit = serializers.CharField(read_only=True)
    source = serializers.CharField(required=False, allow_blank=True, max_length=200)


class QualificationItemSerializer(serializers.Serializer):
    key = serializers.CharField(
        max_length=40,
        help_text="a statutory key (gpl22_civil_liability … gpl22_other_legal, "
        "tbl26_capability) or custom_<n> with its text",
    )
    text = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="the buyer's wording (custom_<n> only)",
    )


class TenderSettingsSerializer(serializers.Serializer):
    regime = serializers.ChoiceField(choices=RegimeChoice.choices, required=False)
    method = serializers.ChoiceField(choices=MethodChoice.choices, required=False)
    subject = serializers.ChoiceField(choices=SubjectChoice.choices, required=False)
    price_weight_pct = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=100, required=False
    )
    ceiling_cny = serializers.DecimalField(
        max_digits=16,
        decimal_places=2,
        min_value=Decimal("0.01"),
        allow_null=True,
        required=False,
        help_text="最高限价 (null: none); the budget is the procurement's budget_max",
    )
    sme_deduction_pct = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=20, required=False
    )
    domestic_deduction_pct = serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=0, max_value=20, required=False
    )
    stacking = serializers.ChoiceField(choices=StackingChoice.choices, required=False)
    abnormally_low_pct = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal("0.01"),
        max_value=99,
        required=False,
    )
    mandatory_items = MandatoryItemSerializer(many=True, required=False)
    qualification_items = QualificationItemSerializer(
        many=True,
        required=False,
        help_text="资格审查 requirements; a change of regime without them takes the "
        "regime's statutory ones; frozen with the ★ items",
    )
    uniform_standards = serializers.BooleanField(
        required=False,
        help_text="uniform technical and service standards: under 政府采购 only "
        "lowest_price is accepted (实施条例 第三十四条)",
    )
    bid_bond_cny = serializers.DecimalField(
        max_digits=16,
        decimal_places=2,
        min_value=0,
        allow_null=True,
        required=False,
        help_text="投标保证金; at most the regime's share of the budget (2 %)",
    )


class WarningSerializer(serializers.Serializer):
    criterion = serializers.CharField(help_text="the checklist criterion's code")
    text = serializers.CharField()
    code = serializers.CharField(help_text="restrict_similar_client, restrict_size, …")
    match = serializers.CharField(help_text="the words that restrict")
    message = serializers.CharField()
    citation = serializers.CharField()
    article_text = serializers.CharField()
    primary = serializers.BooleanField(help_text="false: quoted from a secondary text")


class TenderSettingsOutputSerializer(TenderSettingsSerializer):
    stored = serializers.BooleanField(
        help_text="false: the defaults, not saved yet (the comparison ranks as "
        "before until the settings are saved)"
    )
    rfp_published = serializers.BooleanField(
        help_text="true: the ★ items are frozen (PUT with other items answers 400)"
    )
    budget_cny = serializers.DecimalField(
        max_digits=16, decimal_places=2, allow_null=True
    )
    warnings = WarningSerializer(
        many=True,
        help_text="政府采购: checklist criteria that may restrict suppliers "
        "(实施条例 第二十条)",
    )


def settings_json(row) -> dict:
    procurement = row.procurement
    return {
        "regime": row.regime,
        "method": row.method,
        "subject": row.subject,
        "price_weight_pct": row.price_weight_pct,
        "ceiling_cny": row.ceiling_cny,
        "sme_deduction_pct": row.sme_deduction_pct,
        "domestic_deduction_pct": row.domestic_deduction_pct,
        "stacking": row.stacking,
        "abnormally_low_pct": row.abnormally_low_pct,
        "mandatory_items": row.mandatory_items,
        "qualification_items": row.qualification_items,
        "uniform_standards": row.uniform_standards,
        "bid_bond_cny": row.bid_bond_cny,
        "stored": row.pk is not None,
        "rfp_published": tender.rfp_published(procurement),
        "budget_cny": procurement.budget_max,
        "warnings": restriction.restriction_warnings(procurement=procurement),
    }


class TenderSettingsView(ProcurementScopedMixin, APIView):
    """The procurement's tender settings; PUT stores them (400 per field when the
    regime's rules refuse them: the price-weight floor of 87号令 第五十五条, ...)."""

    permission_classes = [IsMember]

    @extend_schema(responses=TenderSettingsOutputSerializer)
    def get(self, request, procurement_pk):
        row = tender.tender_settings_for(procurement=self.procurement())
        return Response(TenderSettingsOutputSerializer(settings_json(row)).data)

    @extend_schema(
        request=TenderSettingsSerializer,
        responses={200: TenderSettingsOutputSerializer},
    )
    def put(self, request, procurement_pk):
        procurement = self.procurement()
        require(request.user, Capability.CONFIGURE_EVALUATION)
        data = TenderSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        for name in tender.FROZEN_LISTS:
            if name in values:
                values[name] = [dict(i) for i in values[name]]
        try:
            row = tender.update_tender_settings(
                procurement=procurement, user=request.user, **values
            )
        except tender.TenderSettingsInvalid as error:
            return Response(error.errors, status=status.HTTP_400_BAD_REQUEST)
        return Response(TenderSettingsOutputSerializer(settings_json(row)).data)


class ReasonSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text="mandatory_not_met, missing_fact, over_budget, over_ceiling, "
        "no_price, abnormally_low_not_justified, qualification_failed (资格审查)"
    )
    item = serializers.CharField()
    offered = serializers.CharField(allow_null=True)
    required = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    citation = serializers.CharField(help_text="the article; empty: commercial")


class DeductionSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="sme or domestic")
    pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    amount_cny = serializers.DecimalField(max_digits=20, decimal_places=2)


class ReviewJustificationSerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="null: not asked yet")
    state = serializers.CharField(
        help_text="needed, requested, answered, justified or not_justified"
    )
    note = serializers.CharField(required=False, help_text="the judgement's reasons")
    judged_by = serializers.CharField(required=False)
    judged_at = serializers.DateTimeField(required=False, allow_null=True)


class BidReviewSerializer(serializers.Serializer):
    bid = serializers.IntegerField(source="bid_id")
    label = serializers.CharField(help_text="the vendor, or Vendor n when blind")
    valid = serializers.BooleanField(help_text="false: 无效投标, with its reasons")
    reasons = ReasonSerializer(many=True)
    quoted_cny = serializers.DecimalField(
        max_digits=20, decimal_places=2, allow_null=True
    )
    evaluated_cny = serializers.DecimalField(
        max_digits=20,
        decimal_places=2,
        allow_null=True,
        help_text="评标价: the quoted price less the policy deductions",
    )
    deductions = DeductionSerializer(many=True)
    unit_cost_cny = serializers.DecimalField(
        max_digits=20,
        decimal_places=4,
        allow_null=True,
        help_text="commercial: normalised TCO per delivered PFLOPS-day",
    )
    price_points = serializers.DecimalField(
        max_digits=9, decimal_places=4, allow_null=True
    )
    total = serializers.DecimalField(max_digits=9, decimal_places=4, allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    candidate = serializers.BooleanField()
    abnormally_low = serializers.BooleanField()
    justification = ReviewJustificationSerializer(
        allow_null=True,
        help_text="87号令 第六十条: flagged or asked; null otherwise",
    )
    declaration_evidence = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="sme / domestic -> the ids of the bid's evidence attachments",
    )


class ViabilitySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    citation = serializers.CharField()


class TenderReviewSerializer(serializers.Serializer):
    regime = serializers.CharField()
    method = serializers.CharField()
    price_weight_pct = serializers.DecimalField(max_digits=5, decimal_places=2)
    budget_cny = serializers.DecimalField(
        max_digits=16, decimal_places=2, allow_null=True
    )
    ceiling_cny = serializers.DecimalField(
        max_digits=16, decimal_places=2, allow_null=True
    )
    prices_hidden = serializers.BooleanField(
        help_text="sealed envelope: only the ★ review, no price or ranking"
    )
    items = serializers.ListField(child=serializers.DictField())
    bids = BidReviewSerializer(many=True)
    viable = serializers.BooleanField()
    viability = ViabilitySerializer(allow_null=True)


class TenderReviewView(ProcurementScopedMixin, APIView):
    """The review of every bid under the stored tender settings (404 before they
    are saved): the comparison's own data, for this viewer."""

    permission_classes = [IsMember]

    @extend_schema(responses=TenderReviewSerializer)
    def get(self, request, procurement_pk):
        result = comparison.comparison_context(
            procurement=self.procurement(), user=request.user
        )["result"]
        if result.tender is None:
            raise Http404(_("No tender settings yet."))
        return Response(TenderReviewSerializer(result.tender).data)


class DeclarationsSerializer(serializers.Serializer):
    sme_declared = serializers.BooleanField(
        required=False, help_text="中小企业声明函 accepted: the SME deduction applies"
    )
    domestic_product = serializers.BooleanField(
        required=False,
        help_text="本国产品 proof accepted: the domestic preference applies",
    )
    domestic_cost_share_pct = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=0,
        max_value=100,
        required=False,
        allow_null=True,
        help_text="the domestic share of the product cost the vendor declares",
    )


class DeclarationsView(ProcurementScopedMixin, APIView):
    """A bid's policy declarations as the buyer accepted them (price deductions)."""

    permission_classes = [IsMember]

    def _data(self, bid):
        return DeclarationsSerializer(
            {name: getattr(bid, name) for name in declarations.FIELDS}
        ).data

    @extend_schema(responses=DeclarationsSerializer)
    def get(self, request, procurement_pk, bid_pk):
        return Response(self._data(self.bid()))

    @extend_schema(request=DeclarationsSerializer, responses=DeclarationsSerializer)
    def put(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        require(request.user, Capability.CONFIGURE_EVALUATION)
        data = DeclarationsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bid = declarations.set_bid_declarations(
            bid=bid, user=request.user, **data.validated_data
        )
        return Response(self._data(bid))


class QualificationEntrySerializer(serializers.Serializer):
    key = serializers.CharField(max_length=40)
    passed = serializers.BooleanField(
        allow_null=True, help_text="true met, false not met, null pending"
    )
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=1000,
        help_text="the reason; required when passed is false",
    )


class QualificationSerializer(serializers.Serializer):
    results = QualificationEntrySerializer(many=True)


class QualificationView(ProcurementScopedMixin, APIView):
    """One bid's 资格审查: each requirement of the tender settings met, not met (with
    its reason) or pending. A failure makes the bid invalid in the tender review."""

    permission_classes = [IsMember]

    def _data(self, bid):
        row = tender.tender_settings_for(procurement=bid.procurement)
        recorded = qualification.results_of(bid)
        return QualificationSerializer(
            {
                "results": [
                    {
                        "key": i["key"],
                        "passed": recorded.get(i["key"], (None, ""))[0],
                        "note": recorded.get(i["key"], (None, ""))[1],
                    }
                    for i in row.qualification_items or []
                ]
            }
        ).data

    @extend_schema(responses=QualificationSerializer)
    def get(self, request, procurement_pk, bid_pk):
        return Response(self._data(self.bid()))

    @extend_schema(request=QualificationSerializer, responses=QualificationSerializer)
    def put(self, request, procurement_pk, bid_pk):
        bid = self.bid()
        require(request.user, Capability.CONFIGURE_EVALUATION)
        data = QualificationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            qualification.record_qualification(
                bid=bid,
                user=request.user,
                results=[dict(r) for r in data.validated_data["results"]],
            )
        except tender.TenderSettingsInvalid as error:
            return Response(error.errors, status=status.HTTP_400_BAD_REQUEST)
        return Response(self._data(bid))
