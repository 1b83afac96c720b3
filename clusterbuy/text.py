"""Text fit for documents: control characters refused where text comes in, and made
harmless where text goes out (DOCX, XLSX, PDF, e-mail headers).

XML 1.0 (W3C, 5th ed., section 2.2 "Characters", production [2]) allows only
``#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]``: a
``\\x0b`` or ``\\x14`` in a procurement's name made python-docx and openpyxl raise
(the RFP pack and the comparison export answered 500), and a CR or LF in an e-mail
subject is a header injection Django refuses (``BadHeaderError``: every invitation
answered 500). The C1 controls (U+0080-U+009F) and DEL are legal XML but print as
nothing or as boxes, so they are refused too.

At the boundary (`install_boundary`, from ``ClusterbuyConfig.ready``) every text field
of a Django form and of a DRF serializer refuses them with a field error; tab, line
feed and carriage return stay allowed (they belong in long text, and a browser's
one-line input never sends them). `refuse_line_breaks` is the stricter rule for the
names that end up in one-line places (a subject, a file name). At the writers,
`printable` and `one_line` clean text already stored.
"""

from __future__ import annotations

import re
from typing import Any

#: Not allowed in XML 1.0, or C1/DEL: never in stored text (tab, LF, CR excepted).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: One-line text (headers, titles): every control, line and paragraph separators too.
_BREAKS = re.compile("[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


def first_control_character(text: str) -> str | None:
    """The first character of ``text`` a document cannot hold, or None."""
    found = _CONTROL.search(text)
    return found.group() if found else None


def code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def printable(text: str) -> str:
    """``text`` without the characters a document cannot hold (tab, LF, CR kept)."""
    return _CONTROL.sub("", text)


def one_line(text: str) -> str:
    """``text`` fit for an e-mail header or a title: no control characters, every
    line break or tab a single space."""
    return printable(_BREAKS.sub(" ", text)).strip()


def printable_tree(value: Any) -> Any:
    """``printable`` applied to every string of a document's content (dicts, lists,
    tuples), for the writers that take a content tree (`vendors.rfp.docx`)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {key: printable_tree(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(printable_tree(item) for item in value)
    return value


def control_character_message(char: str) -> str:
    from django.utils.translation import gettext as _

    return _(
        "Remove the control character %(code)s: it cannot be printed, and documents "
        "and e-mails made from this text would fail."
    ) % {"code": code_point(char)}


def refuse_control_characters(value: Any) -> None:
    """A Django validator (forms, models): ValidationError naming the character."""
    from django.core.exceptions import ValidationError

    if isinstance(value, str):
        char = first_control_character(value)
        if char is not None:
            raise ValidationError(
                control_character_message(char), code="control_character"
            )


def refuse_line_breaks(value: Any) -> None:
    """A Django validator for names: one line, no control character at all."""
    from django.core.exceptions import ValidationError
    from django.utils.translation import gettext as _

    refuse_control_characters(value)
    if isinstance(value, str) and _BREAKS.search(value):
        raise ValidationError(
            _("Keep this on one line: remove the line breaks and tabs."),
            code="line_break",
        )


def install_boundary() -> None:
    """Every form and serializer text field refuses control characters.

    Django's ``forms.CharField`` runs its ``default_validators`` on every instance
    (ModelForm fields included; EmailField, URLField and SlugField have stricter
    ones of their own). DRF's ``CharField`` keeps ``default_validators`` only when
    no validators are given, and a ModelSerializer always gives the model's, so its
    check runs in ``run_validators`` instead, which DRF calls for every value.
    """
    from django import forms
    from rest_framework import serializers

    if refuse_control_characters not in forms.CharField.default_validators:
        forms.CharField.default_validators = [
            *forms.CharField.default_validators,
            refuse_control_characters,
        ]
    if getattr(serializers.CharField.run_validators, "_refuses_controls", False):
        return
    plain_run = serializers.CharField.run_validators

    def run_validators(self, value):
        if isinstance(value, str):
            char = first_control_character(value)
            if char is not None:
                raise serializers.ValidationError(
                    control_character_message(char), code="control_character"
                )
        return plain_run(self, value)

    run_validators._refuses_controls = True
    serializers.CharField.run_validators = run_validators
