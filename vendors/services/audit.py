"""The procurement's audit trail: writing entries, and reading them back with what a
user may not see (prices under a sealed envelope, vendor names under blind grading)
masked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement

from ..engine.fields import BID_FIELDS
from ..models import AuditAction, AuditEntry, Bid, LineCategory


def record_audit(
    *,
    procurement: Procurement,
    actor,
    action: str,
    target: str,
    old: Any,
    new: Any,
    bid: Bid | None = None,
) -> AuditEntry:
    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, dict | list):
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return str(value)

    return AuditEntry.objects.create(
        procurement=procurement,
        bid=bid,
        actor=actor,
        action=action,
        target=target,
        old_value=text(old),
        new_value=text(new),
    )


def visible_audit(
    entries: Iterable[AuditEntry],
    *,
    hide_prices: bool,
    blind: bool,
    criteria: dict[str, str] | None = None,
    redact: Callable[[str], str] | None = None,
) -> list[AuditEntry]:
    """The audit entries a user may read, each with a readable ``target_label``:
    line items (they carry prices) stay sealed until a sealed-envelope evaluator has
    submitted, vendor names stay hidden under blind grading (the vendor field, and
    ``redact``, `Visibility.redact`, over every value and label). ``criteria`` maps
    criterion codes to their shown text. Rows are masked in memory, never saved."""
    hidden = _("hidden")
    labels = {
        "created": _("bid created"),
        "added": _("line item added"),
        "removed": _("line item removed"),
        "line_items": _("line items replaced"),
        "correction requested": _("correction or clarification asked of the vendor"),
        "correction confirmed": _("confirmed by the vendor: new bid version"),
        "correction declined": _("declined by the vendor"),
        "override": _("decision overrides the evaluation"),
        "price justification requested": _("price justification asked"),
        "price justification answered": _("price justification answered"),
        "price justification judged": _("price justification judged"),
    }
    out = []
    for entry in entries:
        masked = (hide_prices and entry.action == AuditAction.LINE_ITEM) or (
            blind
            and entry.action == AuditAction.BID
            and entry.target in ("created", "vendor")
        )
        if masked:
            entry.old_value = hidden if entry.old_value else ""
            entry.new_value = hidden if entry.new_value else ""
        entry.target_label = labels.get(entry.target, entry.target)
        if entry.action == AuditAction.BID and entry.target in BID_FIELDS + ("vendor",):
            entry.target_label = str(Bid._meta.get_field(entry.target).verbose_name)
        elif entry.action in (AuditAction.SCORE, AuditAction.OVERRIDE) and criteria:
            entry.target_label = criteria.get(entry.target, entry.target)
        elif entry.target.startswith("imported: "):
            entry.target_label = _("imported from %(file)s") % {
                "file": entry.target.removeprefix("imported: ")
            }
        if entry.action == AuditAction.LINE_ITEM and not masked:
            entry.old_value = _readable_items(entry.old_value)
            entry.new_value = _readable_items(entry.new_value)
        if redact is not None:
            entry.old_value = redact(entry.old_value)
            entry.new_value = redact(entry.new_value)
            entry.target_label = redact(str(entry.target_label))
        out.append(entry)
    return out


def _readable_items(text: str) -> str:
    """Stored line-item descriptions start with the category code and may end in
    " /yr": show the category's translated label and "per year" instead."""
    if not text:
        return text
    lines = []
    for line in text.split("\n"):
        code, sep, rest = line.partition(" · ")
        if sep and code in LineCategory.values:
            line = f"{LineCategory(code).label}{sep}{rest}"
        if line.endswith(" /yr"):
            line = f"{line.removesuffix(' /yr')} {_('per year')}"
        lines.append(line)
    return "\n".join(lines)
