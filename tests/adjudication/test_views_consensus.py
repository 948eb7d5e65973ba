"""The adjudication pages: merging two pyramids into a consensus, and a peer's annotations into a
consensus annotation (annotator.adjudication.views.consensus)."""

import re

import pytest
from django.urls import reverse

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.adjudication.alignment import ONLY_A, SPLIT
from annotator.models import Assignment, PeerAnnotation, Pyramid, PyramidMerge
from annotator.peer_annotation import editing as peer_editing
from scoring.scores.records import score_annotations
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def started(client, pair):
    client.force_login(pair["adjudicator"])
    response = client.post(
        reverse("pyramid-consensus-start", args=[pair["a"].docset_id]),
        {"a": pair["a"].pk, "b": pair["b"].pk},
    )
    consensus = Pyramid.objects.get(merge__isnull=False)
    assert response.status_code == 302
    assert response.url == reverse("pyramid-merge", args=[consensus.pk])
    return consensus


def group(consensus, kind):
    return next(
        g for g in PyramidMerge.objects.get(consensus=consensus).groups if g["kind"] == kind
    )


def test_the_comparison_page_offers_the_merge_and_marks_the_words_in_the_model_texts(client, pair):
    client.force_login(pair["adjudicator"])
    page = client.get(
        reverse("pyramid-comparison", args=[pair["a"].docset_id]),
        {"a": pair["a"].pk, "b": pair["b"].pk},
    )
    html = page.content.decode()
    assert 'id="start-consensus"' in html
    # Only A put "Collins orbited above ..." in an SCU; only B the crew's rock samples.
    assert (
        'class="only-a" title="group a3-b: only A has these words">'
        "Michael Collins orbited above in the command module</a>" in html
    )
    assert (
        'class="only-b" title="group a-b4: only B has these words">'
        "The crew collected rock samples</a>" in html
    )
    # Each group's SCUs with their weights and contributors.
    assert (
        '<li><span class="muted">D:</span> Neil Armstrong and Buzz Aldrin walked on the Moon</li>'
        in html
    )


def test_deciding_groups_one_by_one_then_submitting(client, pair):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "1 of 4</strong> groups decided" in page
    assert "Submit the consensus" in page
    assert page.count('class="card merge-group') == 4
    url = lambda choice: reverse("pyramid-merge-decide", args=[consensus.pk, choice])  # noqa: E731
    for key_kind, side in [(SPLIT, "b"), (ONLY_A, "a")]:
        consensus.refresh_from_db()
        answer = client.post(
            url("choose_version"),
            {
                "version": consensus.version,
                "group": group(consensus, key_kind)["key"],
                "side": side,
            },
            **HTMX,
        )
        assert answer.status_code == 200
    html = answer.content.decode()
    # Only what the decision changed, each piece swapped in out of band (issue 32): its group, the
    # counts, the controls; not the other groups, nor the model texts.
    assert answer["HX-Reswap"] == "none"
    assert html.count('class="card merge-group') == 1
    assert f'id="group-{group(consensus, ONLY_A)["key"]}"' in html
    assert "model-text" not in html
    assert "3 of 4</strong> groups decided" in html
    assert "chose A&#x27;s version" in html
    consensus.refresh_from_db()
    # Submitting waits for the last group.
    refused = client.post(url("submit"), {"version": consensus.version}, **HTMX)
    assert refused.status_code == 422
    assert "1 aligned group of this consensus is not decided" in refused.content.decode()
    remaining = [
        g["key"]
        for g in PyramidMerge.objects.get(consensus=consensus).groups
        if g["key"] not in pyramid_consensus.decisions(consensus)
    ]
    client.post(url("keep_group"), {"version": consensus.version, "group": remaining[0]}, **HTMX)
    consensus.refresh_from_db()
    done = client.post(url("submit"), {"version": consensus.version}, **HTMX)
    assert done.status_code == 200
    assert "Submitted the pyramid" in done.content.decode()
    assert Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.SUBMITTED
    # Each decision is in the consensus's history, with who made it.
    history = client.get(reverse("pyramid-history", args=[consensus.pk])).content.decode()
    assert "chose B&#x27;s version" in history
    assert "kept as edited" in history
    assert "adjudicator" in history


def took_b(client, consensus, key: str) -> str:
    """The answer to taking B's version of the group `key` (htmx)."""
    return client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
        {"version": consensus.version, "group": key, "side": "b"},
        **HTMX,
    ).content.decode()


def test_a_decision_answers_with_pieces_of_the_page_each_in_its_place(client, pair):
    """Every piece of a decision's answer replaces an element of the page by its id, the group
    decided shown as decided with its note; Undo answers with the whole region."""
    consensus = started(client, pair)
    key = group(consensus, SPLIT)["key"]
    answer = took_b(client, consensus, key)
    pieces = re.findall(r'<[a-z]+ [^>]*?id="([^"]+)"[^>]*hx-swap-oob="true"', answer)
    assert pieces == [
        "merge-version",
        "merge-counts",
        "merge-controls",
        "status",
        "merge-summary",
        f"group-{key}",
        "merge-all-decided",
        "merge-added",
    ]
    assert answer.count("hx-swap-oob") == len(pieces)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert all(f'id="{piece}"' in page for piece in pieces)
    assert f'data-version="{consensus.version + 1}"' in answer
    assert 'class="card merge-group decided just-decided"' in answer
    assert '<p class="group-note message saved">' in answer
    assert "chose B&#x27;s version (2 SCUs of by-other) · saved" in answer
    consensus.refresh_from_db()
    undone = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "undo"]),
        {"version": consensus.version},
        **HTMX,
    )
    assert undone.content.decode().startswith('<div id="merge"')
    assert "HX-Reswap" not in undone


def made_by(adjudicator, consensus, words: str, label: str) -> None:
    """An SCU of the adjudicator's own in the consensus, over these words of model A."""
    from annotator.models import Summary
    from annotator.pyramids import editing

    model_a = Summary.objects.get(docset=consensus.docset, kind="model", author="A")
    start = model_a.text.index(words)
    editing.new_scu(
        consensus.pk,
        adjudicator,
        Pyramid.objects.get(pk=consensus.pk).version,
        model_a.pk,
        [(start, start + len(words))],
        label,
    )


def _element(html: str, element_id: str, tag: str) -> str:
    """The element of `html` with this id, up to its closing tag (the pieces do not nest their own
    tag), its swap attribute, CSRF token and the class and note of a group just decided left out."""
    start = html.index(f'id="{element_id}"')
    start = html.rindex(f"<{tag}", 0, start)
    found = html[start : html.index(f"</{tag}>", start)]
    found = found.replace(' hx-swap-oob="true"', "").replace(" just-decided", "")
    found = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", found)  # masked anew each time
    return re.sub(r'<p class="group-note[^"]*">.*?</p>', "", found, flags=re.S)


def test_a_decisions_answer_shows_its_group_and_the_added_scus_as_the_page_then_does(client, pair):
    """The answer to a decision loads the decided group's SCUs alone (issue 32): what it shows of
    the group (every side, the consensus's copies, the SCUs made for it) and of the adjudicator's
    added SCUs is what the whole page shows after it."""
    consensus = started(client, pair)
    adjudicator = pair["adjudicator"]
    made_by(
        adjudicator, consensus, "The crew collected rock samples", "Rock samples were brought back"
    )  # only in B's words
    made_by(adjudicator, consensus, "Apollo 11 landed", "An added SCU of no group")
    only_b, split = group(consensus, "only in B")["key"], group(consensus, SPLIT)["key"]
    for key, action, values in (
        (split, "choose_version", {"side": "b"}),
        (split, "choose_version", {"side": "a"}),
        (only_b, "keep_group", {}),
    ):
        version = Pyramid.objects.get(pk=consensus.pk).version
        answer = client.post(
            reverse("pyramid-merge-decide", args=[consensus.pk, action]),
            {"version": version, "group": key, **values},
            **HTMX,
        ).content.decode()
        assert 'id="merge-words"' not in answer  # pieces, not the whole region
        page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
        for element_id, tag in ((f"group-{key}", "section"), ("merge-added", "div")):
            assert _element(answer, element_id, tag) == _element(page, element_id, tag), element_id
    assert "Rock samples were brought back" in _element(answer, f"group-{only_b}", "section")
    assert "An added SCU of no group" in _element(answer, "merge-added", "div")
    assert "Rock samples were brought back" not in _element(answer, "merge-added", "div")


def test_a_stale_page_is_refused_with_the_current_state(client, pair):
    """409, as the builder's: the merge region as it now is, with the reason in the status line."""
    consensus = started(client, pair)
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
        {"version": consensus.version - 1, "group": group(consensus, SPLIT)["key"], "side": "a"},
        **HTMX,
    )
    assert answer.status_code == 409
    html = answer.content.decode()
    assert html.startswith('<div id="merge"')
    assert 'data-edit-url="' in html
    current = Pyramid.objects.get(pk=consensus.pk).version
    assert f'data-version="{current}"' in html
    assert f'name="version" value="{current}"' in html
    assert '<p id="status" class="status message conflict"' in html
    assert "Not saved: this pyramid was changed elsewhere" in html
    assert "1 of 4</strong> groups decided" in html
    assert "hx-swap-oob" not in html
    assert list(pyramid_consensus.decisions(consensus)) == [
        g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups if g["identical"]
    ]
    assert "decided meanwhile" not in html  # that group is still undecided


def test_a_stale_decision_on_a_group_decided_meanwhile_says_retry_would_replace_it(client, pair):
    consensus = started(client, pair)
    key = group(consensus, SPLIT)["key"]
    stale = Pyramid.objects.get(pk=consensus.pk).version
    pyramid_consensus.choose(consensus.pk, pair["adjudicator"], stale, key, "b")  # another tab
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
        {"version": stale, "group": key, "side": "a"},
        **HTMX,
    )
    assert answer.status_code == 409
    assert (
        f"Group {key} was decided meanwhile (B&#x27;s version, by adjudicator): "
        "Retry replaces that decision." in answer.content.decode()
    )
    assert pyramid_consensus.decisions(consensus)[key].decision["choice"] == "b"


def test_a_decision_on_a_consensus_submitted_meanwhile_is_refused_with_the_current_state(
    client, pair
):
    """403, as the builder's: the merge region as it now is (read-only), with the reason."""
    consensus = started(client, pair)
    Pyramid.objects.filter(pk=consensus.pk).update(status=Pyramid.Status.SUBMITTED)
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "keep_group"]),
        {"version": consensus.version, "group": group(consensus, SPLIT)["key"]},
        **HTMX,
    )
    assert answer.status_code == 403
    html = answer.content.decode()
    assert html.startswith('<div id="merge"')
    assert '<p id="status" class="status message error"' in html
    assert "submitted and read-only" in html
    assert "<strong>submitted</strong>" in html
    assert "Keep as edited" not in html  # nothing left to decide on this page


def test_a_broken_rule_answers_with_the_status_line_only(client, pair):
    """422, as the builder's: the page was current, so only the status line comes, out of band,
    and htmx swaps nothing else (the scroll and the focus stay as they are)."""
    consensus = started(client, pair)
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
        {"version": consensus.version, "group": "no-such-group", "side": "a"},
        **HTMX,
    )
    assert answer.status_code == 422
    assert answer["HX-Reswap"] == "none"
    html = answer.content.decode().strip()
    assert html.startswith('<p id="status" hx-swap-oob="true" class="status message error"')
    assert 'id="merge"' not in html
    assert "There is no such group in this consensus" in html


@pytest.mark.parametrize("field", ["group", "side"])
def test_a_nul_character_in_a_decision_is_a_broken_rule_and_nothing_is_decided(client, pair, field):
    """A NUL (issue 16) is refused as the builder refuses it: 422, the status line only."""
    consensus = started(client, pair)
    values = {"version": consensus.version, "group": group(consensus, SPLIT)["key"], "side": "a"}
    values[field] += NUL
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]), values, **HTMX
    )
    assert refuses_nul(answer, field, status=422)
    assert answer["HX-Reswap"] == "none"
    assert Pyramid.objects.get(pk=consensus.pk).version == consensus.version
    assert group(consensus, SPLIT)["key"] not in pyramid_consensus.decisions(consensus)


def test_the_merge_pages_send_their_decisions_through_the_builders_mechanism(
    client, pair, peer_twice
):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert (
        f'data-edit-url="{reverse("pyramid-merge-decide", args=[consensus.pk, "ACTION"])}"' in page
    )
    assert "js/workspace-actions.js" in page
    assert "js/merge-decisions.js" in page
    assert 'id="status"' in page
    assert "hx-post" not in page  # a second way of sending would handle no refusal
    client.post(
        reverse(
            "peer-consensus-start",
            args=[peer_twice["demo"]["pyramid"].pk, peer_twice["mine"].peer_id],
        )
    )
    page = client.get(peer_twice["url"]).content.decode()
    assert "js/workspace-actions.js" in page
    assert 'data-edit-url="' in page
    assert "hx-post" not in page


def test_without_htmx_a_decision_redirects_with_its_message(client, pair):
    consensus = started(client, pair)
    answer = client.post(
        reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
        {"version": consensus.version, "group": group(consensus, SPLIT)["key"], "side": "a"},
        follow=True,
    )
    # Back to the merge page, at the group decided.
    assert (
        answer.redirect_chain[-1][0]
        == reverse("pyramid-merge", args=[consensus.pk])
        + f"#group-{group(consensus, SPLIT)['key']}"
    )
    assert "chose A&#x27;s version" in answer.content.decode()


def test_an_ordinary_pyramid_has_no_merge_page(client, pair):
    client.force_login(pair["adjudicator"])
    assert client.get(reverse("pyramid-merge", args=[pair["a"].pk])).status_code == 404
    assert (
        "Back to the merge"
        not in client.get(reverse("pyramid-detail", args=[pair["a"].pk])).content.decode()
    )


def test_the_consensus_builder_leads_back_to_the_merge(client, pair):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-detail", args=[consensus.pk])).content.decode()
    assert (
        f'<a href="{reverse("pyramid-merge", args=[consensus.pk])}">Back to the merge</a>' in page
    )


# -- a peer's annotations ------------------------------------------------------------------------


def test_a_peers_annotations_side_by_side(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    html = client.get(peer_twice["url"]).content.decode()
    assert html.count('class="peer-text"') == 2
    # Collins: matched to no SCU by the annotator, to SCU 4 by the demo; both texts mark it.
    # Each column tells its annotator's reading: the annotator did not match it to an SCU, the demo
    # did.
    assert '<span class="w matched differs not-here" title="matches no SCU">Collins</span>' in html
    collins = peer_twice["demo"]["pyramid"].scus.get(label__startswith="Michael Collins").uid
    assert f'<span class="w matched differs here" title="SCU {collins}">Collins</span>' in html
    assert (
        '<span class="w matched" title="SCU 1">Apollo</span>' in html
    )  # alike: not marked as differing
    assert "Start a consensus annotation" in html
    assert 'id="scu-readings"' in html


def test_merging_a_peers_annotations_and_the_score_shown(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    start = reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    assert client.post(start).status_code == 302
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    decide = lambda choice: reverse(
        "peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, choice]
    )  # noqa: E731
    for uid in annotation_consensus.undecided_scus(consensus):
        consensus.refresh_from_db()
        answer = client.post(
            decide("take_reading"),
            {"version": consensus.version, "scu": uid, "source": peer_twice["theirs"].pk},
            **HTMX,
        )
        assert answer.status_code == 200, answer.content.decode()[:300]
    assert "<strong>0</strong> left to decide" in answer.content.decode()
    assert "<strong>in progress</strong>. Decide each SCU here" in answer.content.decode()
    consensus.refresh_from_db()
    completed = client.post(decide("complete"), {"version": consensus.version}, **HTMX)
    assert completed.status_code == 200
    # The answer carries the consensus's new state: complete, read-only, no more "continue".
    state = completed.content.decode().split('id="peer-consensus-state">')[1].split("</p>")[0]
    assert "<strong>complete</strong>" in state
    assert "Open the consensus annotation</a> (read-only)" in state
    assert "in progress" not in state
    assert "Decide each SCU" not in state
    (row,) = score_annotations(PeerAnnotation.objects.filter(pk=consensus.pk))
    html = client.get(peer_twice["url"]).content.decode()
    assert f'<td class="num score-modified">{row.scores.modified:.4f}</td>' in html
    # Taking the demo's reading everywhere gives the demo's score.
    (theirs,) = score_annotations(PeerAnnotation.objects.filter(pk=peer_twice["theirs"].pk))
    assert row.scores.modified == theirs.scores.modified


def test_bad_scu_arguments_are_refused_not_crashed(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    client.post(
        reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    )
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    answer = client.post(
        reverse("peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, "take_reading"]),
        {"version": consensus.version, "scu": "x", "source": 2**70},
        **HTMX,
    )
    assert answer.status_code == 422


def test_the_merge_page_says_when_a_source_changed_after_the_merge_began(client, pair):
    from annotator.pyramids import editing

    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert 'id="sources-changed"' not in page
    source = Pyramid.objects.get(pk=pair["b"].pk)
    editing.set_label(
        source.pk, pair["demo"]["other_annotator"], source.version, 2, "Neil Armstrong"
    )
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "B (by-other) changed after this merge began" in page
    key = group(consensus, SPLIT)["key"]
    assert (
        f'<li>B\'s SCUs of <a href="#group-{key}">group {key}</a></li>' in page
    )  # named, the only one
    assert page.count("s SCUs of <a") == 1
    # Undone, the source is as it was: no warning (content compared, not times).
    editing.undo(
        source.pk, pair["demo"]["other_annotator"], Pyramid.objects.get(pk=source.pk).version
    )
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert 'id="sources-changed"' not in page


def test_the_merge_page_names_words_counted_twice_and_submit_asks_to_confirm(client, pair):
    from tests.adjudication.test_pyramid_consensus import consensus_counting_words_twice

    consensus, groups, _ = consensus_counting_words_twice(pair)
    client.force_login(pair["adjudicator"])
    html = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "Model words counted twice (1):" in html
    assert "Model D: “Neil Armstrong and Buzz Aldrin walked on the Moon” is in SCU" in html
    assert f'<a href="#group-{groups[SPLIT]["key"]}">group {groups[SPLIT]["key"]}</a>' in html
    assert (
        '<input type="checkbox" name="confirm" value="1"> Submit with the words counted twice'
        in html
    )
    url = reverse("pyramid-merge-decide", args=[consensus.pk, "submit"])
    refused = client.post(url, {"version": Pyramid.objects.get(pk=consensus.pk).version}, **HTMX)
    assert refused.status_code == 422
    assert "Not submitted: 1 stretch of model words is in two SCUs" in refused.content.decode()
    assert Pyramid.objects.get(pk=consensus.pk).status == "in_progress"
    client.post(
        url, {"version": Pyramid.objects.get(pk=consensus.pk).version, "confirm": "1"}, **HTMX
    )
    assert Pyramid.objects.get(pk=consensus.pk).status == "submitted"
    # Submitted, the list stays as a record, without advice to change what can no longer change.
    html = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert "Model words counted twice (1):" in html
    assert "Take another version" not in html


def test_peer_merge_refusals_answer_as_the_builders(client, peer_twice):
    """The peer merge page: 409 and 403 with the region as it now is, 422 with the status line
    only."""
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    client.post(
        reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    )
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    uid = annotation_consensus.undecided_scus(consensus)[0]
    decide = reverse(
        "peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, "keep_reading"]
    )
    stale = client.post(decide, {"version": consensus.version - 1, "scu": uid}, **HTMX)
    assert stale.status_code == 409
    html = stale.content.decode()
    assert html.startswith('<div id="merge"')
    assert '<p id="status" class="status message conflict"' in html
    assert "this annotation was changed elsewhere" in html
    assert f'data-version="{consensus.version}"' in html
    assert not annotation_consensus.decisions(PeerAnnotation.objects.get(pk=consensus.pk)).get(
        str(uid)
    )

    broken = client.post(decide, {"version": consensus.version, "scu": 2**70}, **HTMX)
    assert broken.status_code == 422
    assert broken["HX-Reswap"] == "none"
    assert (
        broken.content.decode()
        .strip()
        .startswith('<p id="status" hx-swap-oob="true" class="status message error"')
    )

    PeerAnnotation.objects.filter(pk=consensus.pk).update(status=PeerAnnotation.Status.SUBMITTED)
    refused = client.post(decide, {"version": consensus.version, "scu": uid}, **HTMX)
    assert refused.status_code == 403
    html = refused.content.decode()
    assert html.startswith('<div id="merge"')
    assert "complete and read-only" in html
    assert "Keep as edited" not in html


def test_scus_the_adjudicator_makes_for_a_group_kept_as_edited_are_shown_in_it(client, pair):
    from annotator.models import SCU

    consensus = started(client, pair)
    only_b = group(consensus, "only in B")
    adjudicator = pair["adjudicator"]
    pyramid_consensus.choose(
        consensus.pk, adjudicator, Pyramid.objects.get(pk=consensus.pk).version, only_b["key"], "a"
    )
    made_by(
        adjudicator, consensus, "The crew collected rock samples", "Rock samples were brought back"
    )
    pyramid_consensus.keep(
        consensus.pk, adjudicator, Pyramid.objects.get(pk=consensus.pk).version, only_b["key"]
    )
    made = SCU.objects.get(pyramid=consensus, label="Rock samples were brought back")
    assert pyramid_consensus.decisions(consensus)[only_b["key"]].decision["scus"] == [made.uid]
    html = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    section = html[html.index(f'id="group-{only_b["key"]}"') :]
    section = section[: section.index("</section>")]
    assert "Rock samples were brought back" in section
    assert "SCUs the adjudicator added" not in html


def test_where_an_annotator_matched_nothing_for_an_scu_their_button_leaves_it_out(
    client, peer_twice
):
    demo = peer_twice["demo"]
    client.force_login(peer_twice["adjudicator"])
    client.post(
        reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    )
    html = client.get(peer_twice["url"]).content.decode()
    collins = demo["pyramid"].scus.get(label__startswith="Michael Collins").uid
    mine, theirs = peer_twice["mine"], peer_twice["theirs"]
    assert (
        f'id="take-{mine.pk}-{collins}">Leave out'
        '<span class="visually-hidden"> (as annotator: no PSE)</span>' in html
    )
    assert f'id="take-{theirs.pk}-{collins}">Take demo\'s</button>' in html


def test_the_merge_page_marks_the_words_only_one_side_has_and_links_them_to_their_group(
    client, pair
):
    consensus = started(client, pair)
    html = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    only_a, only_b = group(consensus, ONLY_A)["key"], group(consensus, "only in B")["key"]
    words = html.split('id="merge-words"')[1]
    # A stretch of words is one link to its group (not a link per word), marked with its side.
    assert (
        f'<a href="#group-{only_a}" class="only-a" title="group {only_a}: only A has these words">'
        "Michael Collins orbited above in the command module</a>"
    ) in words
    assert (
        f'<a href="#group-{only_b}" class="only-b" title="group {only_b}: only B has these words">'
        "The crew collected rock samples</a>"
    ) in words
    # Words both put in the group's SCUs are not marked.
    assert "walked on the surface" in words
    assert '">walked' not in words


def test_a_decision_is_confirmed_beside_its_group_with_the_way_to_the_next(client, pair):
    consensus = started(client, pair)
    key = group(consensus, SPLIT)["key"]
    answer = took_b(client, consensus, key)
    card = answer.split(f'id="group-{key}"')[1].split("</section>")[0]
    assert "just-decided" in answer.split(f'id="group-{key}"')[0].rsplit("<section", 1)[1]
    assert 'class="group-note message saved"' in card
    assert "chose B&#x27;s version" in card
    assert "· saved" in card
    # The next undecided after the group decided, in the page's order, coming round from the top.
    order = [g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups]
    at = order.index(key)
    next_key = next(
        k for k in order[at + 1 :] + order[:at] if k not in pyramid_consensus.decisions(consensus)
    )
    assert f'<a href="#group-{next_key}" class="next-undecided">Next undecided group</a>' in card
    # Other groups say nothing of it.
    assert answer.count('class="group-note') == 1


def test_undo_and_redo_on_the_merge_page(client, pair):
    consensus = started(client, pair)
    url = lambda action: reverse("pyramid-merge-decide", args=[consensus.pk, action])  # noqa: E731
    key = group(consensus, SPLIT)["key"]
    client.post(
        url("choose_version"), {"version": consensus.version, "group": key, "side": "b"}, **HTMX
    )
    consensus.refresh_from_db()
    assert key in pyramid_consensus.decisions(consensus)
    undone = client.post(url("undo"), {"version": consensus.version}, **HTMX)
    assert undone.status_code == 200
    assert "Undid: Group" in undone.content.decode()
    consensus.refresh_from_db()
    assert key not in pyramid_consensus.decisions(consensus)
    assert consensus.scus.filter(source__pyramid=pair["b"]).count() == 0  # B's copies went with it
    html = undone.content.decode()
    # Redo is possible now, and says what it would re-apply; Undo, what it would take back next.
    assert (
        'id="merge-redo" aria-keyshortcuts="Control+Y" '
        f'title="Redo: Group {key} (split/merged): chose B&#x27;s version' in html
    )
    assert (
        'id="merge-undo" aria-keyshortcuts="Control+Z" '
        'title="Undo: Started the consensus of by-annotator and by-other' in html
    )
    redone = client.post(url("redo"), {"version": consensus.version}, **HTMX)
    assert redone.status_code == 200
    consensus.refresh_from_db()
    assert pyramid_consensus.decisions(consensus)[key].decision["choice"] == "b"
    assert (
        'id="merge-redo" aria-keyshortcuts="Control+Y" title="Ctrl+Y" disabled>'
        in redone.content.decode()
    )


def test_submit_is_asked_for_twice_and_disabled_while_groups_are_left(client, pair):
    consensus = started(client, pair)
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    assert '<button type="button" id="submit-consensus" disabled>' in page
    assert "Decide every group first (3 left)" in page
    assert 'id="confirm-submit"' not in page
    for g in PyramidMerge.objects.get(consensus=consensus).groups:
        consensus.refresh_from_db()
        if g["key"] not in pyramid_consensus.decisions(consensus):
            pyramid_consensus.keep(consensus.pk, pair["adjudicator"], consensus.version, g["key"])
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    # Submit opens a confirmation saying what submitting does; the form is inside it.
    confirm = page.split('<details class="confirm-submit" id="confirm-submit">')[1].split(
        "</details>"
    )[0]
    assert '<summary class="button">Submit the consensus…</summary>' in confirm
    assert "only an administrator of the collection can reopen it" in confirm
    assert 'id="submit-now"' in confirm
    # Every group is decided, and hidden unless asked: the page says so.
    assert "Every group is decided; untick “Hide decided groups” to see them." in page


def test_the_peer_merge_page_undoes_a_decision_and_confirms_beside_the_scu(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    client.post(
        reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    )
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    decide = lambda choice: reverse(
        "peer-merge-decide", args=[demo["pyramid"].pk, consensus.peer_id, choice]
    )  # noqa: E731
    uid = annotation_consensus.undecided_scus(consensus)[0]
    answer = client.post(
        decide("take_reading"),
        {"version": consensus.version, "scu": uid, "source": peer_twice["theirs"].pk},
        **HTMX,
    )
    row = answer.content.decode().split(f'id="scu-{uid}"')[1].split("</tr>")[0]
    assert 'class="group-note message saved"' in row
    consensus.refresh_from_db()
    assert str(uid) in annotation_consensus.decisions(consensus)
    undone = client.post(decide("undo"), {"version": consensus.version}, **HTMX)
    assert undone.status_code == 200
    assert "Undid:" in undone.content.decode()
    consensus.refresh_from_db()
    assert str(uid) not in annotation_consensus.decisions(consensus)


def test_the_consensus_annotation_leads_back_to_the_comparison(client, peer_twice):
    client.force_login(peer_twice["adjudicator"])
    demo = peer_twice["demo"]
    client.post(
        reverse("peer-consensus-start", args=[demo["pyramid"].pk, peer_twice["mine"].peer_id])
    )
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    page = client.get(reverse("annotation-detail", args=[consensus.pk])).content.decode()
    assert (
        f'<a href="{peer_twice["url"]}" id="back-to-comparison">'
        "Back to the comparison of the annotations</a>" in page
    )
    ordinary = client.get(
        reverse("annotation-detail", args=[peer_twice["theirs"].pk])
    ).content.decode()
    assert "back-to-comparison" not in ordinary


def test_three_annotations_of_a_peer_compared_and_merged_at_once(client, peer_twice):
    """More than two annotators (issue 15): every annotation of the peer is a column and a
    source."""
    demo = peer_twice["demo"]
    mine, theirs = peer_twice["mine"], peer_twice["theirs"]
    third = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=mine.peer, annotator=demo["other_annotator"]
    )
    Assignment.objects.create(
        user=demo["other_annotator"], task="peer", pyramid=demo["pyramid"], peer=mine.peer
    )
    collins = demo["pyramid"].scus.get(label__startswith="Michael Collins").uid
    phrase = "Michael Collins remained in orbit"
    start = mine.peer.text.index(phrase)
    peer_editing.assign(
        third.pk, demo["other_annotator"], third.version, [(start, start + len(phrase))], collins
    )
    client.force_login(peer_twice["adjudicator"])
    html = client.get(peer_twice["url"]).content.decode()
    assert html.count('class="peer-text"') == 3
    header = html.split('<table id="scu-readings">')[1].split("</thead>")[0]
    assert header.count("<th>") == 4
    assert "<th>other_annotator</th>" in header
    # Started from all three; the third's reading of Collins taken, with its provenance.
    client.post(reverse("peer-consensus-start", args=[demo["pyramid"].pk, mine.peer_id]))
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    assert set(consensus.merge.sources.values_list("pk", flat=True)) == {
        mine.pk,
        theirs.pk,
        third.pk,
    }
    answer = client.post(
        reverse("peer-merge-decide", args=[demo["pyramid"].pk, mine.peer_id, "take_reading"]),
        {"version": consensus.version, "scu": collins, "source": third.pk},
        **HTMX,
    )
    assert answer.status_code == 200
    assert "chose annotator other_annotator&#x27;s reading (1 PSE)" in answer.content.decode()
    (taken,) = PeerAnnotation.objects.get(pk=consensus.pk).pses.filter(scu__uid=collins)
    assert taken.source.annotation_id == third.pk
    assert annotation_consensus.decisions(consensus)[str(collins)].decision["choice"] == third.pk


def test_a_group_left_out_reads_so_and_undo_and_redo_answer_beside_their_group(client, pair):
    consensus = started(client, pair)
    only_b = group(consensus, "only in B")["key"]
    url = lambda action: reverse("pyramid-merge-decide", args=[consensus.pk, action])  # noqa: E731
    left = client.post(
        url("choose_version"),
        {"version": Pyramid.objects.get(pk=consensus.pk).version, "group": only_b, "side": "a"},
        **HTMX,
    ).content.decode()
    card = left.split(f'id="group-{only_b}"')[1].split("</section>")[0]
    assert '<span class="decision">✓ left out (as A) · adjudicator' in card
    assert "left out, as A (by-annotator) has nothing there" in card
    # Undo: its note is beside the group it undid, which is kept in view (just-decided).
    undone = client.post(
        url("undo"), {"version": Pyramid.objects.get(pk=consensus.pk).version}, **HTMX
    ).content.decode()
    assert f'merge-group just-decided" id="group-{only_b}"' in undone
    assert "Undid: Group" in undone.split(f'id="group-{only_b}"')[1].split("</section>")[0]
    redone = client.post(
        url("redo"), {"version": Pyramid.objects.get(pk=consensus.pk).version}, **HTMX
    ).content.decode()
    assert f'merge-group decided just-decided" id="group-{only_b}"' in redone
    assert pyramid_consensus.decisions(consensus)[only_b].decision["choice"] == "a"


def test_the_merge_page_takes_the_same_queries_whatever_the_number_of_groups(
    client, pair, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.pyramids import editing

    client.force_login(pair["adjudicator"])
    first = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("pyramid-merge", args=[first.pk])).status_code == 200
    # Each annotator marks three more SCUs of their own (each a group of its own), and a new merge
    # begins.
    for pyramid, who, model in ((pair["a"], "annotator", "B"), (pair["b"], "other_annotator", "C")):
        summary = pyramid.models_used.get(author=model)
        for start in range(0, 3 * 12, 12):
            editing.new_scu(
                pyramid.pk,
                pair["demo"][who],
                Pyramid.objects.get(pk=pyramid.pk).version,
                summary.pk,
                [(start, start + 10)],
                f"words at {start}",
            )
    more = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    assert len(more.merge.groups) >= len(first.merge.groups) + 6
    with django_assert_max_num_queries(len(few)):
        assert client.get(reverse("pyramid-merge", args=[more.pk])).status_code == 200


def test_a_decision_takes_the_same_queries_whatever_the_size_of_its_group(client, pair):
    """Issue 32: a decision cost about 55 queries, ten more for each SCU it replaced. Now the
    consensus, its merge and the adjudicator's right are read once, before the edit (the merge is
    not read again), the SCUs it replaces go in one deletion and the answer reads the models' texts
    once: the same queries for a group of one SCU a side as for a group of two, and no
    permissions read for an adjudicator."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    consensus = started(client, pair)
    split = group(consensus, SPLIT)["key"]  # A: one SCU, B: two
    alone = group(consensus, ONLY_A)["key"]  # A: one SCU, B: none

    def decide(key, side):
        version = Pyramid.objects.get(pk=consensus.pk).version
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"]),
                {"version": version, "group": key, "side": side},
                **HTMX,
            )
        assert response.status_code == 200
        return [q["sql"] for q in queries]

    decide(alone, "a")
    decide(split, "a")  # takes one SCU
    one = decide(alone, "a")  # replaces one SCU with one
    two = decide(split, "b")  # replaces one SCU with two
    assert len(two) == len(one)
    back = decide(split, "a")  # replaces two with one
    assert len(back) == len(one)
    for sql in two:
        assert "auth_permission" not in sql
        # The other groups' decisions are counted, not shown: read without their users.
        assert not ('FROM "annotator_pyramidchange"' in sql and '"auth_user"' in sql)
    assert sum('"annotator_pyramidmerge"."groups"' in sql for sql in two) == 1  # read once
    # The models' texts: by the edit, to map the source's words onto the consensus's models, and
    # by the answer, once for every SCU shown and the words counted twice.
    assert sum('"annotator_summary"."text"' in sql for sql in two) == 2
    assert (
        sorted(
            Pyramid.objects.get(pk=consensus.pk).scus.values_list("source__pyramid_id", flat=True)
        )
        == [pair["a"].pk] * 3
    )
