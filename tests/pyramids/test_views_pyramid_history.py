import pytest
from django.urls import reverse

from annotator.models import Assignment, Pyramid, PyramidModel
from annotator.pyramids import editing

pytestmark = pytest.mark.django_db


def test_lists_every_change_newest_first(client, demo):
    source = demo["pyramid"]
    pyramid = Pyramid.objects.create(
        docset=source.docset, name="new", status=Pyramid.Status.IN_PROGRESS
    )
    for link in source.model_links.all():
        PyramidModel.objects.create(pyramid=pyramid, summary=link.summary, position=link.position)
    summary = pyramid.models_used.get(author="A")
    editing.new_scu(pyramid.pk, demo["admin"], 1, summary.pk, [(0, 9)])
    editing.set_label(pyramid.pk, demo["admin"], 2, 1, "Apollo")
    editing.undo(pyramid.pk, demo["admin"], 3)
    client.force_login(demo["admin"])
    page = client.get(reverse("pyramid-history", args=[pyramid.pk])).content.decode()
    rows = [
        page.index(text)
        for text in (
            "Undid: Relabelled SCU 1",
            "Relabelled SCU 1 “Apollo”",
            "New SCU 1 “Apollo 11”",
        )
    ]
    assert rows == sorted(rows)
    assert "Undone" in page
    assert "<td>admin</td>" in page


def test_an_imported_pyramid_says_where_it_came_from(client, demo):
    client.force_login(demo["admin"])
    demo["pyramid"].source_name = "D0601.pyr"
    demo["pyramid"].save()
    page = client.get(reverse("pyramid-history", args=[demo["pyramid"].pk])).content.decode()
    assert "imported from D0601.pyr" in page


def test_others_cannot_read_it(client, demo):
    client.force_login(demo["outsider"])
    assert client.get(reverse("pyramid-history", args=[demo["pyramid"].pk])).status_code == 404
    Assignment.objects.create(user=demo["outsider"], task="pyramid", pyramid=demo["pyramid"])
    assert client.get(reverse("pyramid-history", args=[demo["pyramid"].pk])).status_code == 200


def test_anonymous_visitors_log_in(client, demo):
    assert client.get(reverse("pyramid-history", args=[demo["pyramid"].pk])).status_code == 302
