"""Engine and service errors in the user's language, named by the field's label.

The pure engines raise exceptions that carry a stable ``code``, its ``params`` and
the ``field`` at fault, with an English ``message`` for logs. The app that owns an
engine registers a translator for its exception type in ``AppConfig.ready()`` (the
core cannot import the apps): ``message`` turns the code and params into a sentence
in the active language, ``label`` turns a field path into the label the form shows.
Entry points use `error_message` (the message alone: a form puts it under the field,
an API 400 under the field path) and `error_sentence` (the label first, where the
message stands away from its field). An exception without a translator keeps its own
message: a service that already wrote it with gettext.

`range_sentence` is the one wording of an allowed range ("a whole number from 1 to
1,000,000"), for the sizing and the TCO inputs alike. `figure`
(clusterbuy.engine.numbers, re-exported here) writes the numbers of those messages: grouped in threes with a comma (in
Chinese too: 1,000,000, the way GB/T 15835 and the pages write long numbers), never
in scientific notation, at most ``digits`` decimals with trailing zeros dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .engine.numbers import figure  # noqa: F401  (its home moved; callers in flight)


@dataclass(frozen=True)
class Translator:
    message: Callable[[Any], str | None]  # None: keep the exception's own message
    label: Callable[[str], str | None]  # None: the path has no label


_translators: list[tuple[type, Translator]] = []


def register_error_translator(
    exc_type: type,
    *,
    message: Callable[[Any], str | None],
    label: Callable[[str], str | None],
) -> None:
    _translators[:] = [(t, tr) for t, tr in _translators if t is not exc_type]
    _translators.append((exc_type, Translator(message, label)))


def _translator(exc: BaseException) -> Translator | None:
    for exc_type, translator in _translators:
        if isinstance(exc, exc_type):
            return translator
    return None


def error_message(exc: BaseException) -> str:
    """The error's message (without the field) in the active language."""
    translator = _translator(exc)
    translated = translator.message(exc) if translator else None
    if translated:
        return str(translated)
    return str(getattr(exc, "message", "") or exc)


def field_label(exc: BaseException, field: str | None = None) -> str:
    """The label of the field the error names (``field`` overrides its path); "" when
    the error names no field or the field has no label."""
    path = getattr(exc, "field", "") if field is None else field
    if not path or path in ("__all__", "non_field_errors"):
        return ""
    translator = _translator(exc)
    return str((translator.label(path) if translator else None) or "")


def error_sentence(exc: BaseException, field: str | None = None) -> str:
    """ "GPU count: must be a whole number from 1 to 1,000,000." — the label first,
    for a message shown away from its field."""
    label = field_label(exc, field)
    message = error_message(exc)
    if not label:
        return message
    return _("%(label)s: %(message)s") % {"label": label, "message": message}


def range_sentence(
    *, low: Any, high: Any, whole: bool = False, above: bool = False
) -> str:
    """The values an input accepts, in words and in the active language: "a whole
    number from 1 to 1,000,000", "a number above 0 and at most 8", "a number of at
    least 0". ``low`` None: any number; ``high`` None: no upper bound; ``above``: the
    low bound itself is refused."""
    values = {"low": figure(low), "high": figure(high)}
    if low is None:
        return _("a number")
    if whole:
        if high is None:
            return _("a whole number of at least %(low)s") % values
        return _("a whole number from %(low)s to %(high)s") % values
    if high is None:
        if above:
            return _("a number above %(low)s") % values
        return _("a number of at least %(low)s") % values
    if above:
        return _("a number above %(low)s and at most %(high)s") % values
    return _("a number from %(low)s to %(high)s") % values


def active_language() -> str:
    return "zh" if (get_language() or "").lower().startswith("zh") else "en"
