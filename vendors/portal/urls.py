"""Portal URLs, included into the vendors namespace (`vendors:portal`, ...)."""

from django.urls import path

from . import views

urlpatterns = [
    path("portal/<str:token>/", views.portal_home, name="portal"),
]
