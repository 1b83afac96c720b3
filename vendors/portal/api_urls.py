"""/api/v1/portal/{token}/...: the supplier portal's API (included by vendors.api_urls)."""

from django.urls import path

from ..api import portal_corrections, portal_price_justifications
from . import api

T = "portal/<str:token>"

urlpatterns = [
    path(f"{T}/", api.PortalHomeView.as_view(), name="api-portal"),
    path(
        f"{T}/submissions/",
        api.SubmissionsView.as_view(),
        name="api-portal-submissions",
    ),
    path(
        f"{T}/submissions/<int:receipt>/",
        api.SubmissionDetailView.as_view(),
        name="api-portal-submission",
    ),
    path(f"{T}/questions/", api.QuestionsView.as_view(), name="api-portal-questions"),
    path(f"{T}/addenda/", api.AddendaView.as_view(), name="api-portal-addenda"),
    path(
        f"{T}/addenda/<int:number>/acknowledge/",
        api.AcknowledgeView.as_view(),
        name="api-portal-acknowledge",
    ),
    path(f"{T}/evidence/", api.EvidenceView.as_view(), name="api-portal-evidence"),
    path(
        f"{T}/evidence/<int:evidence_pk>/",
        api.EvidenceDetailView.as_view(),
        name="api-portal-evidence-detail",
    ),
    path(
        f"{T}/corrections/",
        portal_corrections.PortalCorrectionsView.as_view(),
        name="api-portal-corrections",
    ),
    path(
        f"{T}/corrections/<int:correction_pk>/",
        portal_corrections.PortalCorrectionAnswerView.as_view(),
        name="api-portal-correction",
    ),
    path(
        f"{T}/price-justifications/",
        portal_price_justifications.PortalJustificationsView.as_view(),
        name="api-portal-justifications",
    ),
    path(
        f"{T}/price-justifications/<int:justification_pk>/",
        portal_price_justifications.PortalJustificationAnswerView.as_view(),
        name="api-portal-justification",
    ),
]
