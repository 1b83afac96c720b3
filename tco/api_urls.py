from django.urls import path

from . import api

urlpatterns = [
    path("tco/estimate", api.EstimateView.as_view(), name="tco-api-estimate"),
    path("tco/runs/", api.RunListCreateView.as_view(), name="tco-api-runs"),
    path("tco/runs/<int:pk>/", api.RunDetailView.as_view(), name="tco-api-run-detail"),
    path(
        "tco/runs/<int:pk>/cancel/",
        api.RunCancelView.as_view(),
        name="tco-api-run-cancel",
    ),
    path(
        "tco/runs/<int:pk>/report.pdf",
        api.RunReportView.as_view(),
        name="tco-api-run-report",
    ),
    path(
        "procurements/<int:pk>/tco-scenarios/",
        api.ScenarioListCreateView.as_view(),
        name="tco-api-scenarios",
    ),
    path(
        "procurements/<int:pk>/tco-scenarios/<int:scenario_pk>/reconciliation/",
        api.ReconciliationView.as_view(),
        name="tco-api-scenario-reconciliation",
    ),
]
