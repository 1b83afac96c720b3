from django.core.management.base import BaseCommand, CommandError

from clusterbuy import services


class Command(BaseCommand):
    help = "Create an organisation and its first admin (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument(
            "--admin", required=True, help="username of the first admin"
        )
        parser.add_argument("--password", required=True)

    def handle(self, *args, name, admin, password, **options):
        try:
            setup = services.create_organisation(
                name=name, admin_username=admin, password=password
            )
        except services.ServiceError as exc:
            raise CommandError(exc.message) from exc
        verb = "Created" if setup.created else "Already present:"
        self.stdout.write(
            f"{verb} organisation {setup.organisation.name!r}, admin {admin!r}"
        )
