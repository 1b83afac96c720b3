from django.urls import path

from . import views

app_name = "tco"
urlpatterns = [
    path("procurements/<int:pk>/tco/", views.tco_tab, name="tab"),
    path("procurements/<int:pk>/tco/preview/", views.tco_preview, name="preview"),
    path(
        "procurements/<int:pk>/tco/start/",
        views.scenario_from_source,
        name="start-from",
    ),
    path(
        "procurements/<int:pk>/tco/scenarios/<int:scenario_id>/run/",
        views.run_start,
        name="run-start",
    ),
    path("procurements/<int:pk>/tco/runs/<int:run_id>/", views.run_detail, name="run"),
    path(
        "procurements/<int:pk>/tco/runs/<int:run_id>/progress/",
        views.run_progress,
        name="run-progress",
    ),
    path(
        "procurements/<int:pk>/tco/runs/<int:run_id>/cancel/",
        views.run_cancel,
        name="run-cancel",
    ),
    path(
        "procurements/<int:pk>/tco/runs/<int:run_id>/report.pdf",
        views.run_pdf,
        name="run-pdf",
    ),
    path("reports/", views.reports, name="reports"),
]
