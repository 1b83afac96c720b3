"""Which categories a bid line's price covers besides its own: one rule for the
detectors (``gpu_only``: a lump sum that covers network is no missing network) and
for the TCO (``vendors.comparison.pricing.bid_lines``: a covered category is not
filled in again; issue 24, a 服务包 "含网络、存储及安装" was double-counted).

The line's declared ``scope`` (the line-item form's "also covers" column, the
import's scope column, the API's ``scope``) is the vendor's structured answer and
wins. When it is empty, a description that states what it includes is read instead:
an inclusion word (含/包含/包括/涵盖, including/incl./covers) before a category's word,
not negated ("不含存储" covers no storage). Support is never read from a description:
"含三年维保" on a server line says nothing about which contract years it covers, and
a support line without a term would count for the whole horizon.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .detectors.text import is_negated

#: The categories a description can be read as covering, with the words that name them.
DESCRIBED_SCOPE = {
    "network": re.compile(
        r"网络|交换机|组网|网卡|线缆|光模块|InfiniBand|\bIB\b|RoCE|network|switch"
        r"|fabric|cabl|optic",
        re.IGNORECASE,
    ),
    "storage": re.compile(
        r"存储|文件系统|storage|file ?system|GPFS|Lustre|\bPFS\b", re.IGNORECASE
    ),
    "software": re.compile(
        r"软件|平台|调度|software|platform|scheduler|Slurm|Kubernetes", re.IGNORECASE
    ),
    "installation": re.compile(r"安装|installation|\binstall", re.IGNORECASE),
}
_INCLUDES = re.compile(
    r"含|包含|包括|涵盖|覆盖|内含|including|includes?|incl\.?|covers?|bundl",
    re.IGNORECASE,
)


def described_scope(category: str, description: str) -> tuple[str, ...]:
    """The categories other than ``category`` that ``description`` says it includes,
    in ``DESCRIBED_SCOPE`` order."""
    text = description or ""
    return tuple(
        other
        for other, pattern in DESCRIBED_SCOPE.items()
        if other != category and _states(text, pattern)
    )


def _states(text: str, pattern: re.Pattern[str]) -> bool:
    for match in pattern.finditer(text):
        if not is_negated(text, match.start(), match.end()) and _INCLUDES.search(
            text[: match.start()]
        ):
            return True
    return False


def line_scope(
    category: str, description: str = "", declared: Iterable[str] | None = ()
) -> tuple[str, ...]:
    """The categories the line's price also covers: its declared scope when it has
    one, else what its description states (``described_scope``); never its own."""
    chosen = tuple(c for c in (declared or ()) if c != category)
    if chosen:
        return tuple(dict.fromkeys(chosen))
    return described_scope(category, description)
