"""What changed between two states of an RFP: the diff an addendum carries and the
buyer's "the live plan differs from the published version" notice.

Both sides are the pack's assembled content (`vendors.rfp.content.assemble_rfp`) in
the same language, so an item is named as the pack names it and the two values are
what a vendor reads, side by side. Pure: plain dicts in, plain dicts out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

# The sections of the diff, in the pack's order.
SECTIONS = (
    "deadline",
    "opening",
    "instructions",
    "requirement",
    "workloads",
    "minimums",
    "criteria",
)


@dataclass(frozen=True)
class Change:
    section: str  # one of SECTIONS
    item: str  # the row as the pack names it ("" for a single value)
    old: str  # "" when the row is new
    new: str  # "" when the row was removed


def _rows(content: dict, section: str) -> dict[str, str]:
    """``section`` of ``content`` as {item: shown value}."""
    if section == "deadline":
        return {"": content.get("deadline_shown") or ""}
    if section == "opening":
        return {"": content.get("opening_rule_shown") or ""}
    if section == "instructions":
        return {"": (content.get("instructions") or "").strip()}
    if section == "requirement":
        return {r["label"]: str(r["value"]) for r in content.get("requirement", [])}
    if section == "workloads":
        return {
            w["name"]: " · ".join(
                str(w.get(k) or "") for k in ("kind_label", "model", "precision")
            )
            + f" · {w.get('targets', '')}"
            for w in content.get("workloads", [])
        }
    if section == "minimums":
        return {m["label"]: m["shown"] for m in content.get("minimums", [])}
    rows = {}
    for s in content.get("criteria", []):
        shown = "; ".join(s.get("criteria") or [])
        if s.get("weight_percent") is not None:
            shown = f"{s['weight_percent']} % · {shown}"
        rows[s["title"]] = shown
    return rows


def rfp_changes(old: dict, new: dict) -> list[Change]:
    """Every item whose shown value differs from ``old`` to ``new`` (added and removed
    rows included), section by section in the pack's order."""
    changes: list[Change] = []
    for section in SECTIONS:
        before, after = _rows(old, section), _rows(new, section)
        for item in [*before, *(k for k in after if k not in before)]:
            was, now = before.get(item, ""), after.get(item, "")
            if was != now:
                changes.append(Change(section, item, was, now))
    return changes


def as_records(changes: list[Change]) -> list[dict]:
    """The changes as JSON-ready dicts (the addendum's stored ``changes``)."""
    return [asdict(c) for c in changes]


def only_later_deadline(changes: list[Change], *, later: bool) -> bool:
    """Whether the change is nothing but a later deadline: an extension alone does
    not affect how bids are prepared, so it does not move the deadline again."""
    return later and all(c.section == "deadline" for c in changes)
