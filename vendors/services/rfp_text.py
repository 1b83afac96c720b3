"""The buyer's published RFP as plain text, for the template detector (issue 24): a
proposal that is mostly the RFP's own sentences is the RFP returned."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import translation

from clusterbuy.models import Procurement


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def published_rfp_text(*, procurement: Procurement) -> str:
    """Every text of the latest published RFP version, in Chinese and English (a bid
    may copy either); "" before publication."""
    from ..rfp.content import assemble_rfp
    from ..rfp.versions import latest_version, version_facts

    version = latest_version(procurement)
    if version is None:
        return ""
    texts: list[str] = []
    for language in ("zh-hans", "en"):
        with translation.override(language):
            content = assemble_rfp(version_facts(version), include_weights=False)
        texts.extend(_strings(content))
    return "\n".join(t for t in texts if t.strip())
