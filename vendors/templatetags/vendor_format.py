"""Display filters for the vendor pages: numbers rounded, never a raw float."""

from decimal import Decimal

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import number

register = template.Library()


@register.filter
def num(value, digits=2):
    """A number with at most ``digits`` decimals, trailing zeros dropped (0.5, 13.72,
    400); "—" for None; other values unchanged (clusterbuy.engine.numbers.number)."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return value
    return number(value, int(digits), lang=get_language() or "en")


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
