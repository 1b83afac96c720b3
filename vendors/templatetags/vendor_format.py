"""Display filters for the vendor pages: numbers rounded, never a raw float."""

from decimal import Decimal

from django import template
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _

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


@register.filter
def figure(bid, name: str):
    """The bid's stored figure ``name``, or "invalid" when its own field refuses it
    (written past validation): the page shows it rather than computing with it."""
    if name in bid.invalid_fields:
        return _("invalid")
    return getattr(bid, name)


@register.simple_tag
def provisional_notices(result):
    """The comparison's bids ranked on incomplete scores (see
    `vendors.comparison.prescores.provisional_notices`)."""
    from vendors.comparison.prescores import provisional_notices as notices

    return notices(result)
