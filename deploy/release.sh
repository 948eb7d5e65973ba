#!/bin/sh
# The release step: run once, before any app server or worker starts (docker-compose.yml's `migrate`
# service, deploy/stack.sh). Migrations, the static files nginx and whitenoise serve, the user guide
# (GUIDE_ROOT), and the first administrator when one is asked for:
#   DJANGO_SUPERUSER_USERNAME, DJANGO_SUPERUSER_PASSWORD, DJANGO_SUPERUSER_EMAIL (optional)
#       Django's own `createsuperuser --noinput` reads them; the account is made only if no user
#       has that name yet (a second release leaves it, and a changed password, alone).
#   PYTHON  the interpreter with the app installed (default: python).
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"

# collectstatic and the user guide (built again only when docs/ changed) do not touch the database:
# they run beside the migrations.
"$PYTHON" manage.py collectstatic --noinput --verbosity 0 &
collecting=$!
"$PYTHON" manage.py build_guide --if-changed --verbosity 0 &
guide=$!
"$PYTHON" manage.py migrate --noinput
wait "$collecting" || { echo "collectstatic failed" >&2; exit 1; }
wait "$guide" || { echo "the user guide did not build" >&2; exit 1; }

if [ -n "${DJANGO_SUPERUSER_USERNAME:-}" ]; then
    # One process: is there such a user, and if not, Django's createsuperuser --noinput (which reads
    # the variables; an empty email is allowed, an unset one is not).
    DJANGO_SUPERUSER_EMAIL="${DJANGO_SUPERUSER_EMAIL-}" "$PYTHON" manage.py shell --verbosity 0 -c '
import os
from django.contrib.auth import get_user_model
from django.core.management import call_command
name = os.environ["DJANGO_SUPERUSER_USERNAME"]
if get_user_model().objects.filter(username=name).exists():
    print(f"Administrator {name} exists: left as it is.")
else:
    call_command("createsuperuser", interactive=False)
'
fi
