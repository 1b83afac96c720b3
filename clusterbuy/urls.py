from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import api, views
from .ids import IdDefaultRouter

router = IdDefaultRouter()
router.register("procurements", api.ProcurementViewSet, basename="api-procurement")

api_v1 = [
    path("", include(router.urls)),
    path("", include("sizing.api_urls")),
    path("", include("tco.api_urls")),
    path("", include("vendors.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("procurements/", views.procurement_list, name="procurement-list"),
    path("procurements/new/", views.procurement_create, name="procurement-create"),
    path("procurements/<int:pk>/", views.procurement_detail, name="procurement-detail"),
    path(
        "procurements/<int:pk>/edit/", views.procurement_edit, name="procurement-edit"
    ),
    path(
        "procurements/<int:pk>/stage/",
        views.procurement_stage,
        name="procurement-stage",
    ),
    path(
        "procurements/<int:pk>/tab/<slug:slug>/",
        views.procurement_tab,
        name="procurement-tab",
    ),
    path("settings/api-tokens/", views.api_tokens, name="api-tokens"),
    path("", include("sizing.urls")),
    path("", include("tco.urls")),
    path("", include("vendors.urls")),
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
]

handler403 = "clusterbuy.views.permission_denied"
handler404 = "clusterbuy.views.page_not_found"
handler500 = "clusterbuy.views.server_error"
