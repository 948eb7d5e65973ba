"""The adjudication pages: merging two pyramids into a consensus, and a peer's annotations into a
consensus annotation (annotator.views.consensus)."""

import pytest
from django.urls import reverse

from annotator import annotation_consensus, peer_editing, pyramid_consensus
from annotator.alignment import ONLY_A, SPLIT
from annotator.models import PeerAnnotation, Pyramid, PyramidMerge
from scoring.records import score_annotations

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def started(client, pair):
    client.force_login(pair["adjudicator"])
    response = client.post(reverse("pyramid-consensus-start", args=[pair["a"].docset_id]),
                           {"a": pair["a"].pk, "b": pair["b"].pk})
    consensus = Pyramid.objects.get(merge__isnull=False)
    assert response.status_code == 302 and response.url == reverse("pyramid-merge", args=[consensus.pk])
    return consensus


def group(consensus, kind):
    return next(g for g in PyramidMerge.objects.get(consensus=consensus).groups if g["kind"] == kind)


def test_the_comparison_page_offers_the_merge_and_marks_the_words_in_the_model_texts(client, pair):
    client.force_login(pair["adjudicator"])
    page = client.get(reverse("pyramid-comparison", args=[pair["a"].docset_id]), {"a": pair["a"].pk, "b": pair["b"].pk})
    html = page.content.decode()
    assert 'id="start-consensus"' in html
    # Only A put "Collins orbited above ..." in an SCU; only B the crew's rock samples.
    assert '<span class="only-a">Collins</span>' in html and '<span class="only-b">rock</span>' in html
    # Each group's SCUs with their weights and contributors.
    assert '<li><span class="muted">D:</span> Neil Armstrong and Buzz Aldrin walked on the Moon</li>' in html


def test_deciding_groups_one_by_one_then_submitting(client, pair):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "1 of 4</strong> groups decided" in page and "Submit the consensus" in page
    assert page.count('class="card merge-group') == 4
    url = lambda choice: reverse("pyramid-merge-decide", args=[consensus.pk, choice])  # noqa: E731
    for key_kind, side in [(SPLIT, "b"), (ONLY_A, "a")]:
        consensus.refresh_from_db()
        answer = client.post(url("choose_version"), {"version": consensus.version, "group": group(consensus, key_kind)["key"],
                                                     "side": side}, **HTMX)
        assert answer.status_code == 200
    html = answer.content.decode()
    assert html.startswith('<div id="merge"') and "3 of 4</strong> groups decided" in html
    assert "chose A&#x27;s version" in html and "B&#x27;s version" in html  # the message, and the split group's choice
    consensus.refresh_from_db()
    # Submitting waits for the last group.
    refused = client.post(url("submit"), {"version": consensus.version}, **HTMX)
    assert refused.status_code == 422 and "1 aligned group of this consensus is not decided" in refused.content.decode()
    remaining = [g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups
                 if g["key"] not in pyramid_consensus.decisions(consensus)]
    client.post(url("keep_group"), {"version": consensus.version, "group": remaining[0]}, **HTMX)
    consensus.refresh_from_db()
    done = client.post(url("submit"), {"version": consensus.version}, **HTMX)
    assert done.status_code == 200 and "Submitted the pyramid" in done.content.decode()
    assert Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.SUBMITTED
    # Each decision is in the consensus's history, with who made it.
    history = client.get(reverse("pyramid-history", args=[consensus.pk])).content.decode()
    assert "chose B&#x27;s version" in history and "kept as edited" in history and "adjudicator" in history


def test_a_stale_page_is_refused_with_the_current_state(client, pair):
    consensus = started(client, pair)
    answer = client.post(reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
                         {"version": consensus.version - 1, "group": group(consensus, SPLIT)["key"], "side": "a"}, **HTMX)
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "changed elsewhere" in html and f'name="version" value="{Pyramid.objects.get(pk=consensus.pk).version}"' in html


def test_without_htmx_a_decision_redirects_with_its_message(client, pair):
    consensus = started(client, pair)
    answer = client.post(reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
                         {"version": consensus.version, "group": group(consensus, SPLIT)["key"], "side": "a"}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("pyramid-merge", args=[consensus.pk])
    assert "chose A&#x27;s version" in answer.content.decode()


def test_an_ordinary_pyramid_has_no_merge_page(client, pair):
    client.force_login(pair["adjudicator"])
    assert client.get(reverse("pyramid-merge", args=[pair["a"].pk])).status_code == 404
    assert "Back to the merge" not in client.get(reverse("pyramid-detail", args=[pair["a"].pk])).content.decode()


def test_the_consensus_builder_leads_back_to_the_merge(client, pair):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-detail", args=[consensus.pk])).content.decode()
    assert f'<a href="{reverse("pyramid-merge", args=[consensus.pk])}">Back to the merge</a>' in page


# -- a peer's annotations ------------------------------------------------------------------------

@pytest.fixture
def peer_twice(demo, pair):
    """Peer 1 annotated by the demo and by the annotator, who matched Collins to no SCU."""
    mine = PeerAnnotation.objects.create(pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"])
    text = mine.peer.text
    for phrase, label in [("Apollo 11 landed on the Moon in July 1969", "Apollo 11 landed"),
                          ("Michael Collins remained in orbit", None)]:
        mine.refresh_from_db()
        start = text.index(phrase)
        uid = demo["pyramid"].scus.get(label__startswith=label).uid if label else 0
        peer_editing.assign(mine.pk, demo["annotator"], mine.version, [(start, start + len(phrase))], uid)
    return {"url": reverse("peer-comparison", args=[demo["pyramid"].pk, mine.peer_id]), "mine": mine,
            "theirs": demo["annotations"]["1"], "adjudicator": pair["adjudicator"], "demo": demo}


def test_a_peers_annotations_side_by_side(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    html = client.get(peer_twice["url"]).content.decode()
    assert html.count('class="peer-text"') == 2
    # Collins: matched to no SCU by the annotator, to SCU 4 by the demo; both texts mark it.
    assert '<span class="w matched differs" title="matches no SCU">Collins</span>' in html
    collins = peer_twice["demo"]["pyramid"].scus.get(label__startswith="Michael Collins").uid
    assert f'<span class="w matched differs" title="SCU {collins}">Collins</span>' in html
    assert '<span class="w matched" title="SCU 1">Apollo</span>' in html  # alike: not marked as differing
    assert "Start a consensus annotation" in html and 'id="scu-readings"' in html


def test_merging_a_peers_annotations_and_the_score_shown(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    start = reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    assert client.post(start).status_code == 302
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    decide = lambda choice: reverse("peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, choice])  # noqa: E731
    for uid in annotation_consensus.undecided_scus(consensus):
        consensus.refresh_from_db()
        answer = client.post(decide("take_reading"), {"version": consensus.version, "scu": uid, "source": peer_twice["theirs"].pk}, **HTMX)
        assert answer.status_code == 200, answer.content.decode()[:300]
    assert "<strong>0</strong> left to decide" in answer.content.decode()
    consensus.refresh_from_db()
    assert client.post(decide("complete"), {"version": consensus.version}, **HTMX).status_code == 200
    (row,) = score_annotations(PeerAnnotation.objects.filter(pk=consensus.pk))
    html = client.get(peer_twice["url"]).content.decode()
    assert f'<td class="num score-modified">{row.scores.modified:.4f}</td>' in html
    # Taking the demo's reading everywhere gives the demo's score.
    (theirs,) = score_annotations(PeerAnnotation.objects.filter(pk=peer_twice["theirs"].pk))
    assert row.scores.modified == theirs.scores.modified


def test_bad_scu_arguments_are_refused_not_crashed(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    client.post(reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id]))
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    answer = client.post(reverse("peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, "take_reading"]),
                         {"version": consensus.version, "scu": "x", "source": 2**70}, **HTMX)
    assert answer.status_code == 422


def test_the_merge_page_says_when_a_source_changed_after_the_merge_began(client, pair):
    from annotator import editing

    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert 'id="sources-changed"' not in page
    source = Pyramid.objects.get(pk=pair["b"].pk)
    editing.set_label(source.pk, pair["demo"]["other_annotator"], source.version, 2, "Neil Armstrong")
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "B changed after this merge began" in page
