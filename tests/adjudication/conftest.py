"""Fixtures the adjudication tests share."""

import pytest
from django.urls import reverse

from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing


@pytest.fixture
def peer_twice(demo, pair):
    """Peer 1 annotated by the demo and by the annotator, who matched Collins to no SCU."""
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    text = mine.peer.text
    for phrase, label in [
        ("Apollo 11 landed on the Moon in July 1969", "Apollo 11 landed"),
        ("Michael Collins remained in orbit", None),
    ]:
        mine.refresh_from_db()
        start = text.index(phrase)
        uid = demo["pyramid"].scus.get(label__startswith=label).uid if label else 0
        peer_editing.assign(
            mine.pk, demo["annotator"], mine.version, [(start, start + len(phrase))], uid
        )
    return {
        "url": reverse("peer-comparison", args=[demo["pyramid"].pk, mine.peer_id]),
        "mine": mine,
        "theirs": demo["annotations"]["1"],
        "adjudicator": pair["adjudicator"],
        "demo": demo,
    }
