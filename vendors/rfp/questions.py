"""The questions every bid must answer, one per checklist criterion they serve, and
the four pitfalls (`vendors.engine.detectors`) asked as questions, so that a vendor knows
what the evaluation looks for before writing (buyer's guide, issue 5 checklist).

Texts are msgids, translated when the pack is assembled in its language."""

from __future__ import annotations

from django.utils.translation import gettext_noop as _

from ..engine.detectors import PitfallCode

# (checklist section code, criterion code, question)
QUESTIONS: tuple[tuple[str, str, str], ...] = (
    (
        "architecture",
        "arch_balance",
        _(
            "Explain how your design follows the workloads and data above: compute, "
            "network and storage balanced for them, with the parallel layout you "
            "assume."
        ),
    ),
    (
        "cost",
        "cost_lifecycle",
        _(
            "Give the cost over the planning horizon, year by year, in the line-item "
            "workbook: hardware, installation, software, support after the warranty."
        ),
    ),
    (
        "cases",
        "case_outcome",
        _(
            "Give two or three case studies of similar clients and workloads, each "
            "with a measurable outcome (before and after: training time, throughput, "
            "utilisation), the network and storage chosen, the problems met and how "
            "they were solved, and whether a site visit or remote demo is possible."
        ),
    ),
    (
        "service",
        "svc_response",
        _(
            "State the SLA by severity: response time and on-site arrival time for "
            "severity 1 (cluster down), severity 2 (degraded) and severity 3 "
            "(question), and the support channels."
        ),
    ),
    (
        "service",
        "svc_monitoring",
        _(
            "Describe the monitoring from hardware to jobs: GPU, node, network and "
            "storage health, scheduler and job metrics, and how alert rules are set."
        ),
    ),
    (
        "team",
        "svc_team",
        _(
            "Name the team who will deliver and run the cluster: roles, experience "
            "with deep-learning frameworks and schedulers (Slurm, Kubernetes), and "
            "who is on site."
        ),
    ),
)

HIDDEN_COSTS = "hidden_costs"

# (code, question): the four pitfalls of the buyer's guide, asked before they happen.
PITFALL_QUESTIONS: tuple[tuple[str, str], ...] = (
    (
        HIDDEN_COSTS,
        _(
            "Are there service, software or licence costs that are not in your line "
            "items? List every one, with the years it recurs; costs found later are "
            "counted against the bid."
        ),
    ),
    (
        PitfallCode.OVER_PROMISING.value,
        _(
            "For every performance promise (training time, MFU, throughput, "
            "availability, delivery and acceptance time) give the calculation and "
            "the evidence: a measured case, a benchmark we can reproduce or a demo. "
            "A promise faster than physics allows counts against the bid, whatever "
            "penalty comes with it."
        ),
    ),
    (
        PitfallCode.TEMPLATE_PROPOSAL.value,
        _(
            "Write the proposal for our workloads, data and site named above; a "
            "generic or copied proposal scores low."
        ),
    ),
    (
        PitfallCode.CLOSED_ECOSYSTEM.value,
        _(
            "Answer each in the bid's fields: do our engineers get root / "
            "cluster-admin access to every node and the scheduler (yes, limited, "
            "no)? Is the native Slurm or Kubernetes interface open to us, wrapped by "
            "your platform, or absent? How are jobs submitted? Is there a licence "
            "fee per GPU or per node (amount)? Does expanding the cluster require "
            'your licence? "Compatible with Slurm" is not Slurm.'
        ),
    ),
    (
        PitfallCode.GPU_ONLY.value,
        _(
            "Is the GPU memory enough for the workloads above, and does the offer "
            "include the network, storage and power the GPUs need (a complete "
            "cluster, not GPU servers alone)?"
        ),
    ),
)
