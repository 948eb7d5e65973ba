"""GET /summaries/<pk>/: a summary's text, for whoever may read the summary (as the API serves it:
annotator.campaigns.access.visible_summaries); 404 for anyone else, as if it did not exist."""

import pytest
from django.urls import reverse

from annotator.models import Summary

pytestmark = pytest.mark.django_db


def summary(demo, kind, author):
    return Summary.objects.get(docset=demo["pyramid"].docset, kind=kind, author=author)


def test_shows_the_text(client, demo):
    client.force_login(demo["organizer"])
    peer = demo["annotations"]["1"].peer
    page = client.get(reverse("summary-detail", args=[peer.pk])).content.decode()
    assert "Peer summary by 1" in page
    assert peer.text.split("\n")[0] in page


@pytest.mark.parametrize(("kind", "author"), [("model", "A"), ("model", "D"), ("peer", "1")])
def test_an_annotator_reads_their_docsets_models_and_their_assigned_peer(
    client, demo, kind, author
):
    client.force_login(demo["annotator"])
    response = client.get(reverse("summary-detail", args=[summary(demo, kind, author).pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert f"{kind.capitalize()} summary by {author}" in page
    # Their way back is their work, not the collection's pages (those are for its readers: 403).
    assert reverse("collection-detail", args=[demo["collection"].pk]) not in page
    assert reverse("docset-detail", args=[demo["pyramid"].docset_id]) not in page
    trail = (
        f'<a href="{reverse("home")}">Your work</a> › <span>{demo["collection"].name}</span> › '
        "<span>Docset DEMO01</span>"
    )
    assert trail in page


@pytest.mark.parametrize("author", ["2", "3"])
def test_an_annotator_does_not_see_the_docsets_other_peers(client, demo, author):
    client.force_login(demo["annotator"])
    response = client.get(reverse("summary-detail", args=[summary(demo, "peer", author).pk]))
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_a_withdrawn_assignment_takes_the_summaries_out_of_sight(client, demo):
    demo["annotator"].assignments.update(status="withdrawn")
    client.force_login(demo["annotator"])
    for kind, author in [("model", "A"), ("peer", "1")]:
        assert (
            client.get(reverse("summary-detail", args=[summary(demo, kind, author).pk])).status_code
            == 404
        )


@pytest.mark.parametrize("role", ["organizer", "admin"])
def test_readers_of_the_collection_read_every_summary_with_links_to_its_pages(client, demo, role):
    client.force_login(demo[role])
    for kind, author in [("model", "A"), ("peer", "1"), ("peer", "3")]:
        page = client.get(
            reverse("summary-detail", args=[summary(demo, kind, author).pk])
        ).content.decode()
        assert f"summary by {author}" in page
        assert reverse("docset-detail", args=[demo["pyramid"].docset_id]) in page


@pytest.mark.parametrize("role", ["outsider", "annotator"])
def test_a_summary_of_another_collection_is_not_found(client, demo, role):
    from annotator.models import Collection, Docset

    elsewhere = Docset.objects.create(
        collection=Collection.objects.create(name="Elsewhere"), name="D1"
    )
    other = Summary.objects.create(
        docset=elsewhere, kind="model", author="A", text="Another model."
    )
    client.force_login(demo[role])
    assert client.get(reverse("summary-detail", args=[other.pk])).status_code == 404
    assert client.get(
        reverse("summary-detail", args=[summary(demo, "model", "A").pk])
    ).status_code == (404 if role == "outsider" else 200)


def test_anonymous_users_are_sent_to_log_in(client, demo):
    response = client.get(reverse("summary-detail", args=[summary(demo, "model", "A").pk]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
