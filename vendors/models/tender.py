"""The statutory side of a procurement's evaluation: its regime, method, price weight,
最高限价, policy deductions, the abnormally-low share, the ★ mandatory items, the
资格审查 requirements (and each bid's results), uniform standards and the bid bond.

The rules each setting is judged by live in the pure engine (`vendors.engine.regimes`);
this model only stores the choices. The budget a bid is held to is the procurement's own
``budget_max`` (预算), the 最高限价 is ``ceiling_cny`` here. ★ items are generated from
the sizing plan (`regimes.mandatory_from_plan`) and may be edited until the RFP is
published (`vendors.services.tender`).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from clusterbuy.models import Procurement

from ..engine.regimes import Method, Regime, Subject


class RegimeChoice(models.TextChoices):
    COMMERCIAL = Regime.COMMERCIAL.value, _("Commercial procurement")
    GOV_PROCUREMENT = (
        Regime.GOV_PROCUREMENT.value,
        _("Government procurement (MOF Order 87)"),
    )
    TENDERING = Regime.TENDERING.value, _("Tendering required by law")


class MethodChoice(models.TextChoices):
    COMPREHENSIVE = Method.COMPREHENSIVE.value, _("Comprehensive scoring")
    LOWEST_PRICE = (
        Method.LOWEST_PRICE.value,
        _("Lowest evaluated price"),
    )


class SubjectChoice(models.TextChoices):
    GOODS = Subject.GOODS.value, _("Goods")
    SERVICES = Subject.SERVICES.value, _("Services")


class StackingChoice(models.TextChoices):
    """How the SME and domestic-product deductions combine (`regimes.deductions`:
    no text found fixes it, so the procurement says)."""

    SEQUENTIAL = "sequential", _("One after the other")
    ADDITIVE = "additive", _("Added together")
    LARGER_ONLY = "larger_only", _("Only the larger one")


_PCT = [MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))]
_DEDUCTION_PCT = [MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(20))]


class TenderSettings(models.Model):
    procurement = models.OneToOneField(
        Procurement, on_delete=models.CASCADE, related_name="tender_settings"
    )
    regime = models.CharField(
        _("regime"),
        max_length=20,
        choices=RegimeChoice.choices,
        default=RegimeChoice.COMMERCIAL,
    )
    method = models.CharField(
        _("evaluation method"),
        max_length=20,
        choices=MethodChoice.choices,
        default=MethodChoice.COMPREHENSIVE,
    )
    subject = models.CharField(
        _("subject"),
        max_length=10,
        choices=SubjectChoice.choices,
        default=SubjectChoice.GOODS,
    )
    price_weight_pct = models.DecimalField(
        _("price weight (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(30),
        validators=_PCT,
    )
    ceiling_cny = models.DecimalField(
        _("maximum price (CNY)"),
        max_digits=16,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    sme_deduction_pct = models.DecimalField(
        _("small-enterprise price deduction (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(0),
        validators=_DEDUCTION_PCT,
    )
    domestic_deduction_pct = models.DecimalField(
        _("domestic-product price preference (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(0),
        validators=_DEDUCTION_PCT,
    )
    stacking = models.CharField(
        _("when both deductions apply"),
        max_length=12,
        choices=StackingChoice.choices,
        default=StackingChoice.SEQUENTIAL,
    )
    abnormally_low_pct = models.DecimalField(
        _("abnormally low: below the mean of valid bids by (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(20),
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(Decimal(99))],
    )
    # The ★ items: [{"key", "comparison", "required", "unit", "source"}], the engine's
    # `MandatoryItem` as JSON ("required" a number as a string, or a boolean).
    mandatory_items = models.JSONField(default=list, blank=True)
    # The 资格审查 requirements: [{"key", "text"}] — a statutory key
    # (`regimes.qualification`, text "") or "custom_<n>" with the buyer's wording.
    # Frozen with the ★ items once the RFP is published.
    qualification_items = models.JSONField(default=list, blank=True)
    # 技术、服务等标准统一: under 政府采购 only 最低评标价法 (实施条例 第三十四条).
    uniform_standards = models.BooleanField(
        _("uniform technical and service standards"), default=False
    )
    # 投标保证金: at most the regime's share of the budget (实施条例 第三十三条).
    bid_bond_cny = models.DecimalField(
        _("bid bond (CNY)"),
        max_digits=16,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0))],
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("tender settings")
        verbose_name_plural = _("tender settings")


class QualificationResult(models.Model):
    """The buyer's judgement of one 资格审查 requirement for one bid's supplier:
    passed, or failed with its reason. Recorded and changed through
    `services.qualification` (audited); no row: pending."""

    bid = models.ForeignKey(
        "vendors.Bid", on_delete=models.CASCADE, related_name="qualification_results"
    )
    key = models.CharField(max_length=40)
    passed = models.BooleanField()
    note = models.TextField(blank=True, max_length=1000)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["bid", "key"], name="qualification_result_unique_key"
            ),
        ]
