"""GET /collections/<pk>/: the docsets with their counts; the administrator's actions."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_docsets_with_their_counts(client, demo, django_assert_max_num_queries):
    client.force_login(demo["organizer"])
    # 3 of them: the problems to review; 1 the unit set names offered in the downloads, 1 whether
    # there are judgment tasks (their scores offered).
    with django_assert_max_num_queries(19):
        page = client.get(
            reverse("collection-detail", args=[demo["collection"].pk])
        ).content.decode()
    # DEMO01: 4 models, 3 peers, 1 submitted pyramid, 3 peer annotations, 2 open assignments.
    assert '<td class="num">4</td><td class="num">3</td>' in page
    assert '<td class="num">1</td><td class="num">0</td>' in page
    assert "Upload summaries" not in page  # organizers read


def test_administrators_get_the_actions(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    for name in (
        "docset-create",
        "summaries-upload",
        "ducview-import",
        "assign",
        "collection-members",
    ):
        assert reverse(name, args=[demo["collection"].pk]) in page


def test_readers_of_the_collection_see_the_problems_imports_kept_and_annotators_do_not(
    client, demo
):
    from annotator.models import Summary

    docset = demo["pyramid"].docset
    Summary.objects.create(docset=docset, kind="peer", author="31", text="")
    url = reverse("collection-detail", args=[demo["collection"].pk])
    client.force_login(demo["organizer"])
    page = client.get(url).content.decode()
    assert 'id="problems">Problems to review (1)</h2>' in page
    assert "DEMO01: peer 31 is empty (the system produced nothing); it scores 0" in page
    client.force_login(demo["annotator"])
    page = client.get(url).content.decode()
    assert "Problems to review" not in page
    assert "peer 31 is empty" not in page


def test_recent_imports_say_how_many_files_were_refused(client, demo):
    from annotator.models import ImportJob

    ImportJob.objects.create(
        collection=demo["collection"],
        kind="ducview",
        file_name="mixed.zip",
        status="done",
        report=["3 files: …", "refused: a.pyr: broken", "refused: b.pan: broken"],
    )
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert (
        "mixed.zip</a> · DUCView files (.pyr, .pan or a zip of them) · Done · 2 files refused ·"
        in page
    )


def test_keyboard_users_can_skip_to_the_content_and_landmarks_are_named(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert page.index('<a class="skip-link" href="#content">Skip to content</a>') < page.index(
        "<header"
    )
    assert '<main id="content" tabindex="-1">' in page
    assert '<nav aria-label="Site">' in page
    assert '<nav class="actions" aria-label="Collection pages">' in page
