"""How ClusterBuy shows a number or an amount of money to a person: the one home.

Pure (no Django): the language is a parameter (``"en"``, ``"zh-hans"``...). Every
figure goes through Decimal and is rounded ROUND_HALF_UP (2.5 -> 3, 0.125 -> 0.13, the
way people round by hand and the way Django's ``floatformat`` does), never through a
binary float's half-even ``f"{x:.0f}"``. A float is read by its shortest repr
(``Decimal(str(x))``), so 0.1 is 0.1, not 0.1000000000000000055.

- ``money``: an amount with thousands separators and a fixed number of decimals
  (``3,839,269``; ``12.50`` per GPU-hour); "—" when there is none.
- ``number``: a figure in a table cell, at most ``digits`` decimals, trailing zeros
  dropped (``0.5``, ``13.72``, ``400``); grouping optional.
- ``figure``: a number inside a sentence: grouped, at most ``digits`` decimals, never
  ``1e+06`` (``1,000,000``, ``0.1``); "" when there is none.

Chinese and English both group digits in threes with "," and use "." as the decimal
point (GB/T 15835-2011 §5.2 allows the comma-grouped form and ClusterBuy's pages use
it, tests/clusterbuy/test_number_format.py); the table below is where another
language's separators would go.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

#: Language prefix -> (thousands separator, decimal point).
SEPARATORS: dict[str, tuple[str, str]] = {"en": (",", "."), "zh": (",", ".")}
NONE_SHOWN = "—"


def _separators(lang: str) -> tuple[str, str]:
    return SEPARATORS.get((lang or "en").lower()[:2], SEPARATORS["en"])


def as_decimal(value: Any) -> Decimal | None:
    """``value`` as a finite Decimal; None for None, bools, text and NaN/infinity."""
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, float):
            number = Decimal(str(value))
        elif isinstance(value, int | Decimal):
            number = Decimal(value)
        elif isinstance(value, str):
            number = Decimal(value.strip())
        else:
            return None
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def rounded(value: Any, digits: int = 0) -> Decimal | None:
    """``value`` rounded half up to ``digits`` decimals (the one rounding rule)."""
    number = as_decimal(value)
    if number is None:
        return None
    result = number.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return result + 0 if result else abs(result)  # never "-0"


def _text(number: Decimal, *, grouping: bool, lang: str, trim: bool) -> str:
    thousands, point = _separators(lang)
    text = f"{number:,f}" if grouping else f"{number:f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text.translate(str.maketrans({",": thousands, ".": point}))


def money(value: Any, digits: int = 0, *, lang: str = "en") -> str:
    """An amount: grouped, exactly ``digits`` decimals, rounded half up; "—" for None.
    Text that is not a number is shown as it is."""
    number = rounded(value, digits)
    if number is None:
        return NONE_SHOWN if value is None else str(value)
    return _text(number, grouping=True, lang=lang, trim=False)


def number(
    value: Any, digits: int = 2, *, lang: str = "en", grouping: bool = False
) -> str:
    """A figure: at most ``digits`` decimals, trailing zeros dropped; "—" for None.
    Anything that is not a number (text, a bool) is shown as it is."""
    figure_ = rounded(value, digits)
    if figure_ is None:
        return NONE_SHOWN if value is None or value == "" else str(value)
    return _text(figure_, grouping=grouping, lang=lang, trim=True)


def figure(value: Any, digits: int = 3, *, lang: str = "en") -> str:
    """A number for a sentence: 1,000,000 and 0.1, never 1e+06; "" for None."""
    if value is None:
        return ""
    figure_ = rounded(value, digits)
    if figure_ is None:
        return str(value)
    return _text(figure_, grouping=True, lang=lang, trim=True)
