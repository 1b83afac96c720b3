from django.urls import path

from clusterbuy.ids import IdRouter

from . import api

router = IdRouter()
router.register("accelerators", api.AcceleratorViewSet, basename="api-accelerator")
router.register("model-presets", api.ModelPresetViewSet, basename="api-model-preset")
router.register(
    r"procurements/(?P<procurement_pk>\d+)/workloads",
    api.WorkloadViewSet,
    basename="api-workload",
)
router.register(
    r"procurements/(?P<procurement_pk>\d+)/sizing-plans",
    api.SizingPlanViewSet,
    basename="api-sizing-plan",
)

urlpatterns = [
    path("sizing/estimate", api.EstimateView.as_view(), name="api-sizing-estimate"),
    path(
        "procurements/<int:procurement_pk>/requirement/",
        api.RequirementView.as_view(),
        name="api-requirement",
    ),
    *router.urls,
]
