from django.urls import include, path, re_path

from clusterbuy.ids import IdRouter

from .api import (
    acceptance,
    aliases,
    bids,
    checklists,
    committee,
    comparison,
    corrections,
    evaluation,
    price_justifications,
    rfp,
    rfp_invitations,
    suppliers,
    tender,
)
from .portal.api_urls import urlpatterns as portal_api_urlpatterns
from .rfp.pack import FORMATS as PACK_FORMATS

router = IdRouter()
router.register("vendors", suppliers.VendorViewSet, basename="api-vendor")
router.register(
    "checklist-templates", checklists.ChecklistTemplateViewSet, basename="api-checklist"
)

bid_list = bids.BidViewSet.as_view({"get": "list", "post": "create"})
bid_detail = bids.BidViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)
case_list = suppliers.CaseStudyViewSet.as_view({"get": "list", "post": "create"})
case_detail = suppliers.CaseStudyViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)
P = "procurements/<int:procurement_pk>"
RFP = f"{P}/rfp"

urlpatterns = [
    path("", include(router.urls)),
    path("vendors/<int:vendor_pk>/case-studies/", case_list, name="api-case-studies"),
    path(
        "vendors/<int:vendor_pk>/case-studies/<int:pk>/",
        case_detail,
        name="api-case-study",
    ),
    path(f"{P}/bids/", bid_list, name="api-bids"),
    path(f"{P}/bids/<int:pk>/", bid_detail, name="api-bid"),
    re_path(
        r"^procurements/(?P<procurement_pk>\d+)/bids/(?P<bid_pk>\d+)/line-items/import/?$",
        bids.LineItemImportView.as_view(),
        name="api-line-item-import",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/attachments/",
        bids.AttachmentView.as_view(),
        name="api-attachments",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/corrections/",
        corrections.CorrectionsView.as_view(),
        name="api-bid-corrections",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/scores/",
        evaluation.ScoreView.as_view(),
        name="api-scores",
    ),
    path(f"{P}/tender/", tender.TenderSettingsView.as_view(), name="api-tender"),
    path(f"{P}/committee/", committee.CommitteeView.as_view(), name="api-committee"),
    path(
        f"{P}/committee/scores/",
        committee.CommitteeScoresView.as_view(),
        name="api-committee-scores",
    ),
    path(
        f"{P}/committee/summation/",
        committee.CommitteeSummationView.as_view(),
        name="api-committee-summation",
    ),
    path(
        f"{P}/committee/changes/",
        committee.CommitteeChangesView.as_view(),
        name="api-committee-changes",
    ),
    path(
        f"{P}/committee/dissent/",
        committee.CommitteeDissentView.as_view(),
        name="api-committee-dissent",
    ),
    path(
        f"{P}/committee/collusion/",
        committee.CommitteeCollusionView.as_view(),
        name="api-committee-collusion",
    ),
    path(
        f"{P}/committee/report/",
        committee.CommitteeReportView.as_view(),
        name="api-committee-report",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/contact/",
        committee.BidContactView.as_view(),
        name="api-bid-contact",
    ),
    path(
        f"{P}/committee/report.pdf",
        committee.CommitteeReportPdfView.as_view(),
        name="api-committee-report-pdf",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/declarations/",
        tender.DeclarationsView.as_view(),
        name="api-bid-declarations",
    ),
    path(
        f"{P}/tender/qualification/<int:bid_pk>/",
        tender.QualificationView.as_view(),
        name="api-tender-qualification",
    ),
    path(
        f"{P}/tender/review/",
        tender.TenderReviewView.as_view(),
        name="api-tender-review",
    ),
    path(
        f"{P}/evaluation/",
        evaluation.EvaluationSettingsView.as_view(),
        name="api-evaluation",
    ),
    path(
        f"{P}/evaluation/submit/",
        evaluation.SubmitScoresView.as_view(),
        name="api-evaluation-submit",
    ),
    path(
        f"{P}/evaluation/weights/",
        evaluation.WeightsView.as_view(),
        name="api-weights",
    ),
    path(
        f"{P}/blind-preview/",
        aliases.BlindPreviewView.as_view(),
        name="api-blind-preview",
    ),
    path(
        f"{P}/comparison/",
        comparison.ComparisonView.as_view(),
        name="api-comparison",
    ),
    path(f"{P}/rfp/", rfp.RfpView.as_view(), name="api-rfp"),
    path(f"{P}/rfp/versions/", rfp.RfpVersionsView.as_view(), name="api-rfp-versions"),
    *(
        # one fixed route per format: the schema names each file, no free `fmt`
        path(
            f"{P}/rfp/pack.{fmt}",
            rfp.RfpPackView.as_view(),
            {"fmt": fmt},
            name=f"api-rfp-pack-{fmt}",
        )
        for fmt in PACK_FORMATS
    ),
    path(f"{P}/decision/", comparison.DecisionView.as_view(), name="api-decision"),
    path(
        f"{P}/decision/memo.pdf",
        comparison.DecisionMemoView.as_view(),
        name="api-decision-memo",
    ),
    path(
        f"{P}/acceptance/",
        acceptance.AcceptancePlanView.as_view(),
        name="api-acceptance",
    ),
    path(
        f"{P}/acceptance/results/",
        acceptance.AcceptanceResultsView.as_view(),
        name="api-acceptance-results",
    ),
    path(
        f"{P}/acceptance/sign/",
        acceptance.AcceptanceSignView.as_view(),
        name="api-acceptance-sign",
    ),
    path(
        f"{P}/acceptance/certificate.pdf",
        acceptance.AcceptanceCertificateView.as_view(),
        name="api-acceptance-certificate",
    ),
    path(
        f"{RFP}/invitations/",
        rfp_invitations.InvitationListView.as_view(),
        name="api-rfp-invitations",
    ),
    path(
        f"{RFP}/invitations/<int:pk>/",
        rfp_invitations.InvitationDetailView.as_view(),
        name="api-rfp-invitation",
    ),
    path(
        f"{RFP}/invitations/<int:pk>/resend/",
        rfp_invitations.InvitationResendView.as_view(),
        name="api-rfp-invitation-resend",
    ),
    path(
        f"{RFP}/questions/",
        rfp_invitations.QuestionListView.as_view(),
        name="api-rfp-questions",
    ),
    path(
        f"{RFP}/questions/<int:pk>/",
        rfp_invitations.QuestionAnswerView.as_view(),
        name="api-rfp-question",
    ),
    path(
        f"{RFP}/questions/<int:pk>/redaction/",
        rfp_invitations.QuestionRedactionView.as_view(),
        name="api-rfp-question-redaction",
    ),
    path(
        f"{RFP}/submissions/",
        rfp_invitations.SubmissionListView.as_view(),
        name="api-rfp-submissions",
    ),
    path(f"{RFP}/open/", rfp_invitations.OpenView.as_view(), name="api-rfp-open"),
]
urlpatterns += [
    path(
        f"{P}/bids/<int:bid_pk>/price-justification/",
        price_justifications.PriceJustificationView.as_view(),
        name="api-bid-price-justification",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/price-justification/judgement/",
        price_justifications.JudgementView.as_view(),
        name="api-bid-price-judgement",
    ),
]
urlpatterns += portal_api_urlpatterns
