from django.urls import include, path, re_path

from clusterbuy.ids import IdRouter

from . import api

router = IdRouter()
router.register("vendors", api.VendorViewSet, basename="api-vendor")
router.register(
    "checklist-templates", api.ChecklistTemplateViewSet, basename="api-checklist"
)

bid_list = api.BidViewSet.as_view({"get": "list", "post": "create"})
bid_detail = api.BidViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)
case_list = api.CaseStudyViewSet.as_view({"get": "list", "post": "create"})
case_detail = api.CaseStudyViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)
P = "procurements/<int:procurement_pk>"

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
        api.LineItemImportView.as_view(),
        name="api-line-item-import",
    ),
    path(
        f"{P}/bids/<int:bid_pk>/attachments/",
        api.AttachmentView.as_view(),
        name="api-attachments",
    ),
    path(f"{P}/bids/<int:bid_pk>/scores/", api.ScoreView.as_view(), name="api-scores"),
    path(
        f"{P}/evaluation/", api.EvaluationSettingsView.as_view(), name="api-evaluation"
    ),
    path(
        f"{P}/evaluation/submit/",
        api.SubmitScoresView.as_view(),
        name="api-evaluation-submit",
    ),
    path(f"{P}/evaluation/weights/", api.WeightsView.as_view(), name="api-weights"),
    path(f"{P}/comparison/", api.ComparisonView.as_view(), name="api-comparison"),
    path(f"{P}/decision/", api.DecisionView.as_view(), name="api-decision"),
]
