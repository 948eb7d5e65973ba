FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

# The app runs from this checkout (templates/ and static/ sit beside config/), installed in place.
COPY . .
RUN pip install --no-cache-dir -e . \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && SECRET_KEY=build-only python manage.py build_guide

RUN useradd --create-home app && chown -R app /app/staticfiles /app/site
USER app
EXPOSE 8000
# An app server. Migrations are not run here: with two app servers and two workers they run once,
# before any of them, in docker-compose.yml's `migrate` service (deploy/release.sh).
CMD ["sh", "-c", "exec gunicorn config.wsgi:application --config config/gunicorn.py --bind 0.0.0.0:8000 --workers ${GUNICORN_WORKERS:-3} --access-logfile -"]
