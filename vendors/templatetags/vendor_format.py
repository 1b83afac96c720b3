"""Display filters for the vendor pages: numbers rounded, never a raw float."""

from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def num(value, digits=2):
    """A number with at most ``digits`` decimals, trailing zeros dropped (0.5, 13.72,
    400); "—" for None; other values unchanged."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, Decimal)):
        text = floatformat(value, digits)
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return text
    return value
