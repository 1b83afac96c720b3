from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClusterbuyConfig(AppConfig):
    name = "clusterbuy"
    verbose_name = _("ClusterBuy")
