from django.core.management.base import BaseCommand

from sizing import services


class Command(BaseCommand):
    help = (
        "Load the hardware catalogue and model presets from sizing/data (idempotent)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--data-dir", default=None, help="another data directory")

    def handle(self, *args, **options):
        counts = services.load_reference_catalog(data_dir=options["data_dir"])
        for table, c in counts.items():
            self.stdout.write(
                f"{table}: {c['created']} created, {c['updated']} updated"
            )
