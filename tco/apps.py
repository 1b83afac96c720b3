from django.apps import AppConfig


class TcoConfig(AppConfig):
    name = "tco"
