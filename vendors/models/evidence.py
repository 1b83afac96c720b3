"""What a vendor's document is for: general evidence, or the proof behind one of the
bid's policy declarations (中小企业声明函, 本国产品 proof) or behind its written
justification of an abnormally low price (87号令 第六十条). A declaration is accepted
only with its evidence (`vendors.services.declarations`)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class EvidencePurpose(models.TextChoices):
    GENERAL = "general", _("General evidence")
    SME = "sme", _("Small-enterprise declaration")
    DOMESTIC = "domestic", _("Domestic-product proof")
    PRICE_JUSTIFICATION = "price_justification", _("Price justification")


#: The declaration each purpose proves (the deduction kinds of `regimes.deductions`).
DECLARATION_PURPOSES = {
    "sme": EvidencePurpose.SME,
    "domestic": EvidencePurpose.DOMESTIC,
}
#: What a vendor may attach before the deadline (a price justification comes later).
SUBMISSION_PURPOSES = (
    EvidencePurpose.GENERAL,
    EvidencePurpose.SME,
    EvidencePurpose.DOMESTIC,
)


def purpose_field():
    return models.CharField(
        _("purpose"),
        max_length=20,
        choices=EvidencePurpose.choices,
        default=EvidencePurpose.GENERAL,
    )


#: The same as (value, label) choices (the portal's forms and the API schema).
SUBMISSION_PURPOSE_CHOICES = [(p.value, p.label) for p in SUBMISSION_PURPOSES]
