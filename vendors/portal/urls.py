"""Portal URLs, included into the vendors namespace (`vendors:portal`, ...)."""

from django.urls import path

from ..views import portal_corrections
from . import views

T = "portal/<str:token>"

urlpatterns = [
    path(f"{T}/", views.portal_home, name="portal"),
    path(f"{T}/submit/", views.portal_submit, name="portal-submit"),
    path(f"{T}/versions/<int:version>/", views.portal_version, name="portal-version"),
    path(f"{T}/evidence/", views.portal_evidence_add, name="portal-evidence"),
    path(
        f"{T}/evidence/<int:evidence_pk>/remove/",
        views.portal_evidence_remove,
        name="portal-evidence-remove",
    ),
    path(f"{T}/questions/", views.portal_question, name="portal-question"),
    path(f"{T}/rfp.<str:fmt>", views.portal_pack, name="portal-pack"),
    path(
        f"{T}/addenda/<int:number>/acknowledge/",
        views.portal_acknowledge,
        name="portal-acknowledge",
    ),
    path(
        f"{T}/corrections/<int:correction_pk>/",
        portal_corrections.portal_correction,
        name="portal-correction",
    ),
    path(
        f"{T}/price-justifications/<int:justification_pk>/",
        portal_corrections.portal_justification,
        name="portal-justification",
    ),
]
