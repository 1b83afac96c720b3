"""资格审查 per bid: the buyer records each qualification requirement of the tender
settings as passed or failed (with its reason), audited; a failure makes the bid an
无效投标 in the tender review (`comparison.tender`), with the regime's article
(`regimes.review_qualification`). Under 政府采购 the 采购人 or its agent reviews the
qualification after the opening (87号令 第四十四条, secondary text); under 依法必须招标
with 资格后审 the 评标委员会 does (招标投标法实施条例 第二十条): ClusterBuy records the
result either way under the capability that configures the evaluation."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement

from ..engine.regimes import QualificationFailure, review_qualification, rules_for
from ..models import AuditAction, Bid, QualificationResult, TenderSettings
from .audit import record_audit
from .qualification_items import item_label
from .tender import TenderSettingsInvalid, stored_tender_settings

MAX_NOTE = 1000


def results_of(bid: Bid) -> dict[str, tuple[bool, str]]:
    """The bid's recorded results: key -> (passed, note)."""
    return {r.key: (r.passed, r.note) for r in bid.qualification_results.all()}


def procurement_results(procurement: Procurement) -> dict[int, dict]:
    """Every bid's recorded results: bid id -> {key: (passed, note)}."""
    found: dict[int, dict] = {}
    rows = QualificationResult.objects.filter(bid__procurement=procurement)
    for r in rows.order_by("bid_id", "key"):
        found.setdefault(r.bid_id, {})[r.key] = (r.passed, r.note)
    return found


def failures_by_bid(
    row: TenderSettings, results: Mapping[int, Mapping[str, tuple[bool, str]]]
) -> dict[int, tuple[QualificationFailure, ...]]:
    """Each bid's qualification failures under ``row``'s requirements."""
    rules = rules_for(row.regime)
    keys = [i["key"] for i in row.qualification_items or []]
    return {
        bid_id: found
        for bid_id, recorded in results.items()
        if (found := review_qualification(rules, keys, recorded))
    }


def bid_failures(procurement: Procurement) -> dict[int, list[dict]]:
    """What the tender review adds per bid: the failures with the requirement's
    row (for its name), none before the tender settings are stored."""
    row = stored_tender_settings(procurement)
    if row is None:
        return {}
    items = {i["key"]: i for i in row.qualification_items or []}
    failures = failures_by_bid(row, procurement_results(procurement))
    return {
        bid_id: [
            {
                "key": f.item_key,
                "item": items.get(f.item_key, {"key": f.item_key}),
                "note": f.note,
                "article": f.article,
            }
            for f in found
        ]
        for bid_id, found in failures.items()
    }


def _clean(row: TenderSettings, results: list[dict]) -> dict[str, tuple | None]:
    """{key: (passed, note)} or None (cleared); TenderSettingsInvalid per field."""
    items = {i["key"]: i for i in row.qualification_items or []}
    cleaned: dict[str, tuple | None] = {}
    errors: dict[str, list[str]] = {}
    for entry in results:
        key = entry.get("key")
        if key not in items:
            errors.setdefault("results", []).append(
                _("Not a qualification requirement of this tender: %(key)s.")
                % {"key": key}
            )
            continue
        passed = entry.get("passed")
        note = str(entry.get("note") or "").strip()
        if passed is False and not note:
            errors.setdefault("note", []).append(
                _("Give the reason why %(item)s is not met.")
                % {"item": item_label(items[key])}
            )
        elif len(note) > MAX_NOTE:
            errors.setdefault("note", []).append(
                _("A reason has at most %(n)s characters.") % {"n": MAX_NOTE}
            )
        cleaned[key] = None if passed is None else (bool(passed), note)
    if errors:
        raise TenderSettingsInvalid(errors)
    return cleaned


@transaction.atomic
def record_qualification(*, bid: Bid, user, results: list[dict]) -> dict:
    """Record the 资格审查 of ``bid``: each entry {"key", "passed": True / False /
    None (pending again), "note"}; a failure needs its reason. Audited on the bid."""
    row = stored_tender_settings(bid.procurement)
    if row is None or not row.qualification_items:
        raise TenderSettingsInvalid(
            {"results": [_("The tender settings list no qualification requirement.")]}
        )
    cleaned = _clean(row, results)
    old = {k: list(v) for k, v in results_of(bid).items()}
    for key, value in cleaned.items():
        if value is None:
            QualificationResult.objects.filter(bid=bid, key=key).delete()
            continue
        QualificationResult.objects.update_or_create(
            bid=bid,
            key=key,
            defaults={"passed": value[0], "note": value[1], "recorded_by": user},
        )
    new = {k: list(v) for k, v in results_of(bid).items()}
    if new != old:
        record_audit(
            procurement=bid.procurement,
            actor=user,
            action=AuditAction.BID,
            target="qualification review",
            old=old,
            new=new,
            bid=bid,
        )
    return new
