from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from annotator.demo import load_demo

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "pyramid-demo"


class Command(BaseCommand):
    help = (
        "Try the app locally: migrate, load the demo data, create the demo login, and start the "
        "development server. Refuses to run unless DEBUG is on (it creates a known password)."
    )

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("rundemo creates a login with a published password: run it with DEBUG=1 only")
        call_command("migrate", interactive=False, verbosity=0)
        load_demo()
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        address = options["addrport"]
        self.stdout.write(self.style.SUCCESS(f"\nPyramid annotator: http://{address}/"))
        self.stdout.write(f"Log in as {DEMO_USERNAME} / {DEMO_PASSWORD} (an administrator).\n")
        call_command("runserver", address, use_reloader=False)
