from django.urls import path

from . import views

app_name = "sizing"
urlpatterns = [
    path("catalog/", views.catalog, name="catalog"),
    path("quick/", views.quick, name="quick"),
    path(
        "procurements/<int:pk>/requirements/",
        views.requirements,
        name="requirements",
    ),
    path(
        "procurements/<int:pk>/requirements/preview/",
        views.requirements_preview,
        name="requirements-preview",
    ),
    path(
        "procurements/<int:pk>/requirements/workloads/new/",
        views.workload_create,
        name="workload-create",
    ),
    path(
        "procurements/<int:pk>/requirements/workloads/preview/",
        views.workload_preview,
        name="workload-preview",
    ),
    path(
        "procurements/<int:pk>/requirements/workloads/<int:workload_id>/",
        views.workload_edit,
        name="workload-edit",
    ),
    path(
        "procurements/<int:pk>/requirements/workloads/<int:workload_id>/delete/",
        views.workload_delete,
        name="workload-delete",
    ),
    path("procurements/<int:pk>/sizing/", views.plan, name="plan"),
    path(
        "procurements/<int:pk>/sizing/recompute/",
        views.plan_recompute,
        name="plan-recompute",
    ),
]
