"""The API's JSON parser, bounded in size and nesting before anything is decoded.

DRF reads a JSON body straight from the socket (``DATA_UPLOAD_MAX_MEMORY_SIZE`` only
guards ``request.body`` and form posts), and Python's decoder recurses once per
nesting level: a few kilobytes of ``[[[[...`` raise RecursionError, a 500 on any
endpoint. This parser reads at most ``API_BODY_MAX_BYTES``, measures the nesting with
a linear scan, and only then decodes, so both answer a 400 that says what to fix.
"""

from __future__ import annotations

import re
from itertools import accumulate

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils import json

# A JSON string literal: brackets inside it are text, not structure.
_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (``[{}]`` is 2), in linear time.

    Malformed text gets a number too; the decoder reports what is wrong with it.
    """
    brackets = _NOT_A_BRACKET.sub("", _STRING_LITERAL.sub("", text))
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser with ``API_BODY_MAX_BYTES`` and ``API_JSON_MAX_DEPTH``.

    Subclasses may set ``strict = False`` to let NaN and Infinity through, as DRF's
    parser allows.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        max_bytes = settings.API_BODY_MAX_BYTES
        raw = stream.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise ParseError(
                _("The request body is larger than %(size_kb)s KB.")
                % {"size_kb": max_bytes // 1024}
            )
        encoding = get_encoding(parser_context or {})
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(
                _("JSON parse error - %(error)s") % {"error": exc}
            ) from exc
        max_depth = settings.API_JSON_MAX_DEPTH
        if json_nesting_depth(text) > max_depth:
            raise ParseError(
                _("The JSON body nests deeper than %(depth)s levels.")
                % {"depth": max_depth}
            )
        parse_constant = json.strict_constant if self.strict else None
        try:
            return json.loads(text, parse_constant=parse_constant)
        except ValueError as exc:
            raise ParseError(
                _("JSON parse error - %(error)s") % {"error": exc}
            ) from exc
