from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotator.demo import DEMO_USERNAME, EXAMPLE_USERNAME, install_demo


class Command(BaseCommand):
    help = (
        "Load the demo docset (Apollo 11: 4 models, 3 peers, a finished pyramid and peer "
        f"annotations, the work of the account {EXAMPLE_USERNAME!r}) and give a user open work in "
        "it: a pyramid of their own to build from the same models, and the 3 peers to annotate "
        "against the finished pyramid. Idempotent: the data is loaded once, and a user is given "
        "the work once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--user",
            metavar="USERNAME",
            help=f"the user given the open work (default: {DEMO_USERNAME!r}, which rundemo "
            "creates, if it exists)",
        )

    def handle(self, *args, **options):
        users = get_user_model().objects
        if options["user"]:
            user = users.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(
                    f"No user {options['user']!r}: create it first (python manage.py "
                    "createsuperuser)"
                )
        else:
            user = users.filter(username=DEMO_USERNAME).first()
        setup = install_demo(user)
        for line in setup.lines():
            self.stdout.write(line)
        if user is None:
            self.stdout.write(
                "No open work given to anyone: name a user with --user USERNAME for a pyramid to "
                "build and peers to annotate."
            )
