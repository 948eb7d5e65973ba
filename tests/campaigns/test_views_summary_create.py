"""GET/POST /docsets/<pk>/summaries/new/: a summary pasted in."""

import pytest
from django.urls import reverse

from annotator.models import Summary
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_a_pasted_peer_is_stored_with_unix_line_breaks(client, demo):
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    response = client.post(
        reverse("summary-create", args=[docset.pk]),
        {"kind": "peer", "author": "42", "name": "", "text": "First line.\r\nSecond line."},
    )
    assert response.url == reverse("docset-detail", args=[docset.pk])
    assert (
        Summary.objects.get(docset=docset, kind="peer", author="42").text
        == "First line.\nSecond line."
    )


def test_duplicates_and_empty_texts_are_refused(client, demo):
    client.force_login(demo["admin"])
    url = reverse("summary-create", args=[demo["pyramid"].docset_id])
    page = client.post(url, {"kind": "peer", "author": "1", "text": "Again."}).content.decode()
    assert "Docset DEMO01 already has a peer summary by 1." in page
    assert (
        "This field is required."
        in client.post(url, {"kind": "peer", "author": "43", "text": "  "}).content.decode()
    )


def test_a_peer_id_written_with_a_leading_zero_is_the_system_it_numbers(client, demo):
    client.force_login(demo["admin"])
    url = reverse("summary-create", args=[demo["pyramid"].docset_id])
    page = client.post(url, {"kind": "peer", "author": "01", "text": "Again."}).content.decode()
    assert "Docset DEMO01 already has a peer summary by 1." in page  # 01 is system 1
    client.post(url, {"kind": "peer", "author": "09", "text": "Old Mac.\rText."})
    assert (
        Summary.objects.get(docset_id=demo["pyramid"].docset_id, author="9").text
        == "Old Mac.\nText."
    )


@pytest.mark.parametrize("field", ["author", "name", "text"])
def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo, field):
    """Issue 16: 400 naming the field, no summary."""
    client.force_login(demo["admin"])
    before = Summary.objects.count()
    values = {
        "kind": "peer",
        "author": "42",
        "name": "forty-two",
        "text": "First line.\nSecond line.",
    }
    values[field] += NUL
    response = client.post(reverse("summary-create", args=[demo["pyramid"].docset_id]), values)
    assert refuses_nul(response, field)
    assert Summary.objects.count() == before
