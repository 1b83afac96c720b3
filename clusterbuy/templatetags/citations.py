"""``{{ source|citation }}``: a default's source as a citation; ``{{ text|statutes }}``:
the Chinese statutes a text cites, marked as Chinese on a page in another language.

Sources name publications, organisations and products ("China Briefing 2024", "Epoch
AI", "NVIDIA DGX H100/H200 用户指南"): proper names that read the same in both
languages. On a Chinese page each Latin-script run is marked ``lang="en"``, so a
screen reader says it in English and the page's own language checks know it is a
name, not untranslated copy.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

# A statute cited by its Chinese title, with its article: 《政府采购法实施条例》第二十条
# (`vendors.engine.regimes.articles.Article.citation`).
_STATUTE = re.compile(r"《[^《》]+》(?:第[〇零一二三四五六七八九十百千]+条)?")

# A run of Latin words with the digits, spaces and punctuation inside a name or title.
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9 .,:'’&/+()-]*[A-Za-z0-9)]|[A-Za-z]")


@register.filter
def citation(source: object) -> SafeString:
    text = str(source or "")
    if not text:
        return mark_safe("")
    if not (get_language() or "").lower().startswith("zh"):
        return format_html("<cite>{}</cite>", text)
    parts, last = [], 0
    for m in _LATIN_RUN.finditer(text):
        parts.append(escape(text[last : m.start()]))
        parts.append(format_html('<span lang="en">{}</span>', m.group()))
        last = m.end()
    parts.append(escape(text[last:]))
    return mark_safe("<cite>" + "".join(parts) + "</cite>")  # noqa: S308 - escaped above


@register.filter
def statutes(text: object) -> SafeString:
    """``text`` with each statute it cites (a law's Chinese title and article, quoted
    as the law names itself) marked ``lang="zh-Hans"`` on a page in another language:
    a screen reader says the title in Chinese and the page's language checks know it
    is a name, not untranslated copy. Text already safe (a message with markup) is
    kept as it is around the marks."""
    safe = isinstance(text, SafeData)
    text = str(text or "")
    keep = mark_safe if safe else escape
    if (get_language() or "").lower().startswith("zh"):
        return keep(text)
    parts, last = [], 0
    for m in _STATUTE.finditer(text):
        parts.append(keep(text[last : m.start()]))
        parts.append(format_html('<span lang="zh-Hans">{}</span>', m.group()))
        last = m.end()
    parts.append(keep(text[last:]))
    return mark_safe("".join(parts))  # noqa: S308 - escaped (or safe) above
