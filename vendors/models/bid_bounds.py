"""What a bid's figures may be: the physical ceiling of each number, the shape of its
lists, the length of its proposal. The model fields carry these as validators (the one
home of each bound); forms and serializers derive theirs from the fields, and
`Bid.checked` runs the same validators on stored values."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from clusterbuy.bounds import bounded

SUPPORT_CHANNELS = ("phone", "wechat", "ticket", "email", "on_site")
MONITORING_ITEMS = (
    "gpu_temperature",
    "power",
    "utilisation",
    "ecc_xid",
    "interconnect_errors",
    "storage",
    "job_status",
)
SEVERITIES = ("sev1", "sev2", "sev3")

# Physical ceilings of a bid's figures: each far above any cluster sold today, low
# enough that the engines' arithmetic (TCO, compliance ratios) stays finite. The GPU
# count's is the platform's (clusterbuy.engine.limits.MAX_GPU_COUNT).
NETWORK_GBPS_PER_GPU_MAX = 100_000  # 100 Tb/s a GPU; today's fastest NIC is 800 Gb/s
STORAGE_TB_MAX = 10_000_000  # 10 EB
STORAGE_GBS_MAX = 1_000_000  # 1 PB/s
PEAK_POWER_KW_MAX = 100_000  # 100 MW, a whole campus
HOURS_MAX = 8_760  # a year: response and on-site times
DELIVERY_WEEKS_MAX = 520  # ten years
TEAM_ENGINEERS_MAX = 100_000
TRAINING_DAYS_MAX = 3_650  # ten years
# A billion tokens a second: far beyond any cluster a procurement buys (a DGX B200
# serves Llama 3.1 70B at ~10^4-10^5 tokens/s).
TOKENS_PER_S_MAX = 1_000_000_000
#: About 200 KB of prose: a long technical proposal fits, a pasted dump does not (the
#: template-proposal detector compares every pair of proposals).
PROPOSAL_TEXT_MAX_CHARS = 200_000


FRAMEWORKS_MAX_ITEMS = 50
FRAMEWORK_NAME_MAX_CHARS = 100


def _choice_list(value, choices: tuple[str, ...], message) -> None:
    if not isinstance(value, list) or any(item not in choices for item in value):
        raise ValidationError(message, code="choice")


def validate_support_channels(value) -> None:
    _choice_list(value, SUPPORT_CHANNELS, _("Unknown support channel."))


def validate_monitoring(value) -> None:
    _choice_list(value, MONITORING_ITEMS, _("Unknown monitoring item."))


def validate_frameworks(value) -> None:
    """A list of framework names (PyTorch, vLLM, ...), each a short text."""
    if (
        not isinstance(value, list)
        or len(value) > FRAMEWORKS_MAX_ITEMS
        or any(
            not isinstance(name, str) or len(name) > FRAMEWORK_NAME_MAX_CHARS
            for name in value
        )
    ):
        raise ValidationError(
            _(
                "List at most %(items)s frameworks of at most %(chars)s "
                "characters each."
            ),
            code="frameworks",
            params={"items": FRAMEWORKS_MAX_ITEMS, "chars": FRAMEWORK_NAME_MAX_CHARS},
        )


def validate_response_hours(value) -> None:
    """{"sev1": hours, ...}: known severities, each a number of hours within a year."""
    if not isinstance(value, dict) or set(value) - set(SEVERITIES):
        raise ValidationError(
            _("Response times are given per severity: sev1, sev2, sev3."),
            code="severity",
        )
    for severity, hours in value.items():
        if isinstance(hours, bool) or not isinstance(hours, int | float):
            raise ValidationError(
                _("Response time for %(sev)s must be a number of hours."),
                code="hours",
                params={"sev": severity},
            )
        for validator in bounded(0, HOURS_MAX):
            validator(hours)


#: The figures the comparison, the pages and the API read through `Bid.checked`.
CHECKED_BID_FIELDS = (
    "gpu_count",
    "nodes",
    "scaleup_domain_gpus",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "peak_power_kw",
    "delivery_weeks",
    "warranty_years",
    "support_channels",
    "response_hours",
    "onsite_hours",
    "availability_pct",
    "monitoring",
    "frameworks",
    "team_engineers",
    "promised_training_days",
    "promised_tokens_per_s",
)
