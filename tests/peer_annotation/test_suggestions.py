"""The peer page's suggestions (annotation_suggestions): the SCUs the selected words may express,
best first; the sentence around the caret when nothing is selected. The rankers themselves are
tested in tests/assist/test_rankers.py."""

import re
import time

import pytest
from django.urls import reverse

from annotator.peer_annotation.suggestions import suggest

pytestmark = pytest.mark.django_db


def suggested(client, annotation, start, end) -> list[int]:
    response = client.get(
        reverse("annotation-suggestions", args=[annotation.pk]), {"start": start, "end": end}
    )
    assert response.status_code == 200
    return [int(uid) for uid in re.findall(r'data-uid="(\d+)"', response.content.decode())]


def test_the_selected_words_decide_not_the_sentence_around(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    # "Neil Armstrong and Buzz Aldrin walked on the Moon while Michael Collins remained in orbit":
    # one sentence, two SCUs; each selection finds its own.
    start = text.index("Michael Collins remained in orbit")
    assert (
        suggested(client, annotation, start, start + len("Michael Collins remained in orbit"))[0]
        == 4
    )
    start = text.index("Buzz Aldrin")
    assert suggested(client, annotation, start, start + len("Buzz Aldrin"))[0] == 2


def test_nothing_selected_ranks_the_sentence_around_the_caret(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    caret = annotation.peer.text.index("remained")
    assert 4 in suggested(client, annotation, caret, caret)[:3]


def test_selections_outside_the_text_are_clamped(demo):
    annotation = demo["annotations"]["1"]
    assert suggest(annotation, -5, 10**6)  # the whole text, not an error


def test_refusals(client, demo):
    annotation = demo["annotations"]["1"]
    url = reverse("annotation-suggestions", args=[annotation.pk])
    client.force_login(demo["outsider"])
    assert client.get(url, {"start": 0, "end": 5}).status_code == 404
    client.force_login(demo["admin"])
    assert client.get(url, {"start": "x", "end": 5}).status_code == 404
    assert client.get(url).status_code == 404


def test_the_ranking_takes_under_20_ms_once_the_pyramid_is_prepared(demo):
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    suggest(annotation, 0, 20)  # prepares and caches the pyramid's index (and loads the model)
    timings = []
    for start in range(0, len(text) - 30, 25):
        started = time.perf_counter()
        suggest(annotation, start, start + 30)
        timings.append(time.perf_counter() - started)
    assert sorted(timings)[len(timings) // 2] < 0.020
