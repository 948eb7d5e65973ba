"""Every record has an admin page that lists and opens without error, for staff only."""

import pytest
from django.contrib import admin
from django.urls import reverse

from annotator.models import Assignment, Pyramid

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(demo, django_user_model):
    return django_user_model.objects.create_superuser("root", password="root-pass-123")


def annotator_models():
    return [model for model in admin.site._registry if model._meta.app_label == "annotator"]


def test_every_annotator_model_is_registered():
    names = {model.__name__ for model in annotator_models()}
    assert names >= {
        "Collection",
        "Docset",
        "Summary",
        "Pyramid",
        "SCU",
        "Contributor",
        "Span",
        "PeerAnnotation",
        "PSE",
        "PSESpan",
        "Assignment",
        "HumanJudgment",
        "Membership",
        "ImportJob",
    }


def test_every_changelist_and_change_page_opens(client, superuser):
    client.force_login(superuser)
    Assignment.objects.create(user=superuser, task="pyramid", pyramid=Pyramid.objects.get())
    for model in annotator_models():
        meta = model._meta
        changelist = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert changelist.status_code == 200, meta.model_name
        instance = model.objects.first()
        if instance is not None:
            change = client.get(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[instance.pk])
            )
            assert change.status_code == 200, meta.model_name


def test_pyramid_admin_shows_problems(client, superuser):
    client.force_login(superuser)
    page = client.get(
        reverse("admin:annotator_pyramid_change", args=[Pyramid.objects.get().pk])
    ).content.decode()
    assert "Problems to review" in page


def test_non_staff_cannot_open_the_admin(client, demo):
    client.force_login(demo["annotator"])
    response = client.get(reverse("admin:annotator_pyramid_changelist"))
    assert response.status_code == 302
    assert "login" in response.url


def test_columns_and_filters_spell_scu_and_pse_as_the_method_does(client, superuser):
    """Issue 17: Django named the fields "Scu", "Pse" and "Uid" (from `scu`, `pse`, `uid`)."""
    import re

    from django.apps import apps

    client.force_login(superuser)
    headers = {}
    for model in ("pse", "contributor", "scu", "psespan"):
        page = client.get(reverse(f"admin:annotator_{model}_changelist")).content.decode()
        headers[model] = re.findall(
            r'<th scope="col"[^>]*>\s*<div class="text">(?:<a[^>]*>)?([^<]+)', page
        )
    assert "SCU" in headers["pse"]
    assert "SCU" in headers["contributor"]
    assert "UID" in headers["scu"]
    assert "PSE" in headers["psespan"]
    spelt_as_words = [
        f"{model.__name__}.{field.name}: {field.verbose_name}"
        for app in ("annotator", "scoring")
        for model in apps.get_app_config(app).get_models()
        for field in model._meta.get_fields()
        if hasattr(field, "verbose_name")
        if re.search(r"\b(scus?|pses?|uid|pid)\b", str(field.verbose_name))
    ]
    assert spelt_as_words == []
