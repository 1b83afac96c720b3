"""Vendors, their bids and line items, case studies, checklists, scores and decisions.

Everything is reached through a procurement or an organisation, so the access rule of
the core (`Procurement.objects.for_user(user)`) covers it: bids hang off a procurement,
vendors and checklist templates off an organisation.

One module per room (``vendors``, ``bids`` with ``bid_bounds``, ``case_studies``, ``checklists``,
``evaluation``, ``audit``, ``rfp``, ``corrections``); every model and public name is re-exported here, so
``from vendors.models import Bid`` and the migrations' ``vendors.models.attachment_path``
keep working. The imports run in the order the models were declared in, so Django
registers them in the same order as before.
"""

from .vendors import Vendor, VendorKind, VendorQuerySet  # isort: skip
from .bid_bounds import (  # isort: skip
    CHECKED_BID_FIELDS,
    FRAMEWORK_NAME_MAX_CHARS,
    FRAMEWORKS_MAX_ITEMS,
    HOURS_MAX,
    MONITORING_ITEMS,
    PROPOSAL_TEXT_MAX_CHARS,
    SEVERITIES,
    SUPPORT_CHANNELS,
)
from .bids import (  # isort: skip
    Bid,
    BidAttachment,
    LINE_TERM_MAX_YEAR,
    SCOPE_HELP,
    TERM_HELP,
    BidLineItem,
    BidQuerySet,
    Cooling,
    RootAccess,
    SchedulerAccess,
    LineCategory,
    line_terms_errors,
    Scheduler,
    attachment_path,
)
from .case_studies import CaseStudy  # isort: skip
from .checklists import (  # isort: skip
    ChecklistCriterion,
    ChecklistSection,
    ChecklistTemplate,
)
from .evaluation import (  # isort: skip
    Decision,
    EvaluationSettings,
    Score,
    TechnicalSubmission,
)
from .audit import AuditAction, AuditEntry  # isort: skip
from .rfp import (  # isort: skip
    AddendumNotice,
    Invitation,
    RfpPackFile,
    RfpVersion,
    RfpQuestion,
    RfpSettings,
    Submission,
    SubmissionEvidence,
)
from .corrections import (  # isort: skip
    BidCorrection,
    CorrectionKind,
    CorrectionStatus,
)
from .acceptance import (  # isort: skip
    AcceptanceAttempt,
    AcceptanceClause,
    AcceptancePlan,
    AcceptanceVerdict,
    ClauseCategory,
    PlanBasis,
)
from .tender import (  # isort: skip
    MethodChoice,
    QualificationResult,
    RegimeChoice,
    StackingChoice,
    SubjectChoice,
    TenderSettings,
)
from .committee import (  # isort: skip
    BidContact,
    ChangeReason,
    Committee,
    CommitteeMember,
    CommitteeScore,
    EvaluationReport,
    ScoreChange,
    SeatRole,
)
from .evidence import DECLARATION_PURPOSES, EvidencePurpose  # isort: skip
from .price_justification import Judgement, PriceJustification  # isort: skip

__all__ = [
    "QualificationResult",
    "BidContact",
    "ChangeReason",
    "Committee",
    "CommitteeMember",
    "CommitteeScore",
    "EvaluationReport",
    "ScoreChange",
    "SeatRole",
    "AcceptanceAttempt",
    "AcceptanceClause",
    "AcceptancePlan",
    "AcceptanceVerdict",
    "ClauseCategory",
    "PlanBasis",
    "AddendumNotice",
    "RfpPackFile",
    "RfpVersion",
    "CHECKED_BID_FIELDS",
    "FRAMEWORK_NAME_MAX_CHARS",
    "FRAMEWORKS_MAX_ITEMS",
    "HOURS_MAX",
    "PROPOSAL_TEXT_MAX_CHARS",
    "MONITORING_ITEMS",
    "SEVERITIES",
    "SUPPORT_CHANNELS",
    "AuditAction",
    "AuditEntry",
    "Bid",
    "BidAttachment",
    "BidCorrection",
    "BidLineItem",
    "LINE_TERM_MAX_YEAR",
    "SCOPE_HELP",
    "TERM_HELP",
    "line_terms_errors",
    "BidQuerySet",
    "CaseStudy",
    "ChecklistCriterion",
    "ChecklistSection",
    "ChecklistTemplate",
    "Cooling",
    "RootAccess",
    "SchedulerAccess",
    "CorrectionKind",
    "CorrectionStatus",
    "Decision",
    "EvaluationSettings",
    "Invitation",
    "LineCategory",
    "RfpQuestion",
    "RfpSettings",
    "Scheduler",
    "Score",
    "Submission",
    "SubmissionEvidence",
    "TechnicalSubmission",
    "TenderSettings",
    "MethodChoice",
    "RegimeChoice",
    "StackingChoice",
    "SubjectChoice",
    "Vendor",
    "VendorKind",
    "VendorQuerySet",
    "attachment_path",
    "DECLARATION_PURPOSES",
    "EvidencePurpose",
    "Judgement",
    "PriceJustification",
]
