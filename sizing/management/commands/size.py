import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from sizing import services
from sizing.engine import SizingInputError
from sizing.messages import labelled_result


class Command(BaseCommand):
    help = (
        "Size one workload from a JSON file with the body of POST "
        "/api/v1/sizing/estimate; prints the same JSON as the API."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="JSON file ('-' for standard input)")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
            body = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc
        try:
            result = services.estimate_from_body(body)
        except SizingInputError as exc:
            raise CommandError(f"{exc.field}: {exc.message}") from exc
        self.stdout.write(
            json.dumps(labelled_result(result), ensure_ascii=False, indent=2)
        )
