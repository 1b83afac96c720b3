"""Bounds on the numbers and texts a user can store, and the check of stored values.

A bound has one home: the model field's validators (and, for text, its max_length).
Model forms inherit them from the field; API serializers take theirs with
`model_field_limits`, so a form, a serializer and the database column can never
disagree. Integer fields also carry PostgreSQL's range (Django adds it), so 2**40 is a
400 naming the field, never "integer out of range".

Values written past validation (a raw UPDATE, an old row, a restored dump) are not
trusted either: `stored_value_is_valid` runs the same validators on what was read, so
the pages that show it can say "invalid" instead of computing with it.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinValueValidator,
)
from django.db import models
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _


@deconstructible
class FiniteValidator:
    """Refuses NaN and infinity, which min/max validators let through (every comparison
    with NaN is false)."""

    message = _("Enter a finite number.")
    code = "not_finite"

    def __call__(self, value: Any) -> None:
        if not is_finite(value):
            raise ValidationError(self.message, code=self.code)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FiniteValidator)


def is_finite(value: Any) -> bool:
    if isinstance(value, Decimal):
        return value.is_finite()
    if isinstance(value, float):
        return math.isfinite(value)
    return True


def bounded(low: float | Decimal, high: float | Decimal) -> list:
    """The validators of a number between ``low`` and ``high`` inclusive."""
    return [FiniteValidator(), MinValueValidator(low), MaxValueValidator(high)]


#: Free text a person types (notes, rationales, descriptions): ample for pages of prose,
#: small enough that a page listing many of them stays fast.
LONG_TEXT_MAX_CHARS = 20_000


def text_limit(max_chars: int) -> dict[str, Any]:
    """A TextField's keyword arguments for at most ``max_chars`` characters: Django
    passes a TextField's max_length only to its form field, so the validator makes model
    validation (and `stored_value_is_valid`) hold it too."""
    return {"max_length": max_chars, "validators": [MaxLengthValidator(max_chars)]}


def model_field_limits(model: type[models.Model], name: str) -> dict[str, Any]:
    """DRF field keyword arguments carrying the model field's bounds: min_value and
    max_value (the tightest of its validators, PostgreSQL's integer range included),
    max_digits and decimal_places of a decimal, max_length of a text."""
    field = model._meta.get_field(name)
    limits: dict[str, Any] = {}
    lows = [v.limit_value for v in field.validators if type(v) is MinValueValidator]
    highs = [v.limit_value for v in field.validators if type(v) is MaxValueValidator]
    if lows:
        limits["min_value"] = max(lows)
    if highs:
        limits["max_value"] = min(highs)
    if isinstance(field, models.DecimalField):
        limits["max_digits"] = field.max_digits
        limits["decimal_places"] = field.decimal_places
    lengths = [field.max_length] if field.max_length else []
    lengths += [
        v.limit_value for v in field.validators if type(v) is MaxLengthValidator
    ]
    if lengths:
        limits["max_length"] = min(lengths)
    return limits


def stored_value_is_valid(field: models.Field, value: Any) -> bool:
    """Whether a value read from the database passes its field's own validators."""
    if value is None:
        return field.null
    if not is_finite(value):
        return False  # checked first: comparing a NaN Decimal raises
    try:
        field.run_validators(value)
    except (ValidationError, TypeError, ArithmeticError):
        return False
    return True
