"""The platform's limits: figures a form, an API, a model field and an engine must
agree on, so each has one home here."""

from __future__ import annotations

#: The largest GPU count ClusterBuy plans, prices or accepts in a bid. 1,000,000 is
#: well above the largest clusters announced (xAI Colossus, 200,000 GPUs in 2025), so it
#: only rejects typing errors, and it keeps every product of counts inside float and
#: Decimal range.
MAX_GPU_COUNT = 1_000_000
