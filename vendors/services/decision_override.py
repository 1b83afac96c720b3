"""The decision's guard-rails read from the comparison the decider sees: which checks
the chosen bid fails (`vendors.engine.decision_guard`), what each says in the active
language, and the refusal when no reason for the override was given."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clusterbuy.services import ServiceError

from ..comparison import Comparison
from ..comparison.labels import compliance_label
from ..engine.compliance import ComplianceStatus
from ..engine.decision_guard import ChoiceFacts, OverrideCheck, checks_failed


def override_checks(result: Comparison, *, bid_id: int) -> list[dict]:
    """The checks choosing bid ``bid_id`` overrides, each as plain JSON (code and the
    facts its sentence names), as the snapshot and the API keep them."""
    column = next((c for c in result.columns if c.bid.pk == bid_id), None)
    if column is None:
        return []
    failed = tuple(
        i.item for i in column.compliance if i.status == ComplianceStatus.FAIL
    )
    threshold = result.settings.technical_threshold
    facts = ChoiceFacts(
        failed_requirements=failed,
        technical_100=column.technical_100,
        threshold_100=threshold,
        excluded=column.excluded,
        rank=column.rank,
        any_ranked=any(c.rank is not None for c in result.columns),
    )
    first = [c.label for c in result.columns if c.rank == 1]
    details = {
        OverrideCheck.FAILS_REQUIREMENT: {"items": list(failed)},
        OverrideCheck.BELOW_THRESHOLD: {
            "technical_100": round(column.technical_100, 1),
            "threshold_100": threshold,
        },
        OverrideCheck.NOT_RANKED_FIRST: {"rank": column.rank, "first": first},
    }
    return [{"code": str(code), **details[code]} for code in checks_failed(facts)]


def override_hints(result: Comparison) -> list[dict]:
    """For the decision form: each bid that would need an override, with the checks
    it fails said in the active language."""
    hints = []
    for column in result.columns:
        checks = override_checks(result, bid_id=column.bid.pk)
        if checks:
            hints.append(
                {"label": column.label, "texts": [check_text(c) for c in checks]}
            )
    return hints


def check_text(check: dict) -> str:
    """One overridden check as a sentence in the active language."""
    code = check.get("code")
    if code == OverrideCheck.FAILS_REQUIREMENT:
        items = [str(compliance_label(i)) for i in check.get("items", [])]
        return ngettext(
            "It fails a mandatory requirement: %(items)s.",
            "It fails mandatory requirements: %(items)s.",
            len(items),
        ) % {"items": ", ".join(items)}
    if code == OverrideCheck.BELOW_THRESHOLD:
        if check.get("threshold_100"):
            return _(
                "Its technical score %(score)s is below the threshold %(threshold)s."
            ) % {
                "score": check.get("technical_100"),
                "threshold": check.get("threshold_100"),
            }
        return _("It was excluded by the technical threshold.")
    if code == OverrideCheck.NOT_RANKED_FIRST:
        first = ", ".join(check.get("first") or []) or "—"
        if check.get("rank") is None:
            return _("It is not ranked; ranked first: %(first)s.") % {"first": first}
        return _("It is ranked %(rank)s, not first; ranked first: %(first)s.") % {
            "rank": check.get("rank"),
            "first": first,
        }
    return str(code)


class OverrideRequired(ServiceError):
    """The chosen bid fails checks and no reason for the override was given."""

    def __init__(self, checks: list[dict]):
        sentences = " ".join(check_text(c) for c in checks)
        super().__init__(
            _(
                "Choosing this bid overrides the evaluation: %(checks)s Give the "
                "reason for the override."
            )
            % {"checks": sentences},
            field="override_reason",
        )
        self.checks = checks
