from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.module_loading import import_string, module_has_submodule

from clusterbuy.demo import DEMO_PASSWORD, DEMO_USERS


class Command(BaseCommand):
    help = "Load the demo organisation and procurement (idempotent)."

    @transaction.atomic
    def handle(self, *args, **options):
        context: dict = {}
        for config in apps.get_app_configs():
            if config.name in {"clusterbuy", "sizing", "tco", "vendors"} and (
                module_has_submodule(config.module, "demo")
            ):
                import_string(f"{config.name}.demo.load")(context)
        self.stdout.write(
            "Demo organisation loaded. Log in at http://127.0.0.1:8000/ with:"
        )
        for username, role in DEMO_USERS.items():
            self.stdout.write(f"  {username:14} / {DEMO_PASSWORD}   ({role.label})")
