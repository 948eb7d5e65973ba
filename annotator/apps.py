from django.apps import AppConfig


class AnnotatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "annotator"
    verbose_name = "Pyramid annotation"
