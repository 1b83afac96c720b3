"""A bid's spec claims as the comparison shows them: `vendors.engine.spec_claims` run on the
bid's text fields and proposal against the catalog row of the accelerator it offers.

The texts are redacted for the viewer first (`Visibility.redact`), so a blind
evaluator reads "[vendor]" in a quoted claim as everywhere else; the datasheet and
its source are the catalog's own words.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ..engine.spec_claims import (
    BidSpec,
    ClaimStatus,
    check_spec_claims,
    datasheet_from_row,
)
from ..models import Bid
from ..visibility import Visibility
from .checks import proposal_text
from .labels import current_language

# The catalog columns datasheet_from_row reads (sizing.models.Accelerator names).
DATASHEET_FIELDS = (
    "key",
    "model",
    "memory_gb",
    "memory_type",
    "bf16_dense_tflops",
    "fp8_dense_tflops",
    "int8_dense_tops",
    "fp4_dense_tflops",
    "scaleup_link",
    "scaleup_gbs_per_gpu",
    "server_8gpu_max_kw",
    "form_factor",
    "source",
)
CLAIM_LABELS = {
    "memory_gb": gettext_lazy("Memory per GPU"),
    "memory_type": gettext_lazy("Memory type"),
    "tflops": gettext_lazy("Compute (TFLOPS)"),
    "server_power_kw": gettext_lazy("Server power"),
    "scaleup_gbs": gettext_lazy("Scale-up bandwidth"),
    "scaleup_generation": gettext_lazy("NVLink generation"),
    "nic_gbps": gettext_lazy("NIC speed"),
}
CLAIM_STATUS_LABELS = {
    ClaimStatus.OK: pgettext_lazy("spec claim", "matches"),
    ClaimStatus.MISMATCH: pgettext_lazy("spec claim", "mismatch"),
    ClaimStatus.UNVERIFIABLE: pgettext_lazy("spec claim", "unverifiable"),
}


def spec_claims_for(bid: Bid, accelerator, visibility: Visibility) -> list[dict]:
    """{kind, claim, claimed, datasheet, status, source, note} per claim, in the
    current language; ``accelerator`` is the catalog row (None when not in it)."""
    sheet = None
    if accelerator is not None:
        sheet = datasheet_from_row(
            {name: getattr(accelerator, name, None) for name in DATASHEET_FIELDS}
        )
    spec = BidSpec(
        proposal_text=visibility.redact(proposal_text(bid)),
        server_model=visibility.redact(bid.server_model or ""),
        scaleup_link=visibility.redact(bid.scaleup_link or ""),
        network_fabric=visibility.redact(bid.network_fabric or ""),
        gpu_count=bid.checked("gpu_count"),
        nodes=bid.checked("nodes"),
        peak_power_kw=bid.checked("peak_power_kw"),
    )
    lang = current_language()
    return [claim.as_dict(lang) for claim in check_spec_claims(spec, sheet)]


def claims_cell(claims: list[dict]) -> tuple[str, str, list[tuple[str, str, str]]]:
    """(text, css class, [(line, badge, tooltip)]) of one bid's cell in the
    comparison table: the mismatch count, each claim with the datasheet figure and
    its source in the tooltip, mismatches badged first."""
    if not claims:
        return "—", "", []
    mismatches = [c for c in claims if c["status"] == ClaimStatus.MISMATCH]
    text = _("%(bad)s of %(all)s claims contradict the datasheet") % {
        "bad": len(mismatches),
        "all": len(claims),
    }
    ordered = mismatches + [c for c in claims if c["status"] != ClaimStatus.MISMATCH]
    lines = [_claim_line(c) for c in ordered]
    return text, "status-fail" if mismatches else "status-pass", lines


def _claim_line(claim: dict) -> tuple[str, str, str]:
    label = CLAIM_LABELS.get(claim["kind"], claim["kind"])
    status = CLAIM_STATUS_LABELS[ClaimStatus(claim["status"])]
    line = _("%(label)s: %(claimed)s (datasheet: %(datasheet)s)") % {
        "label": label,
        "claimed": claim["claimed"],
        "datasheet": claim["datasheet"],
    }
    if claim["note"]:
        line += f" — {claim['note']}"
    if claim["status"] != ClaimStatus.MISMATCH:
        line = f"{status}: {line}"
    tooltip = _("“%(claim)s” · source: %(source)s") % {
        "claim": claim["claim"],
        "source": claim["source"] or "—",
    }
    badge = str(status) if claim["status"] == ClaimStatus.MISMATCH else ""
    return line, badge, tooltip
