"""The peer page's proposals to confirm: /annotations/<pk>/proposals/ (annotator.assist.views)."""

import pytest
from django.urls import reverse

from annotator.models import PSE, PeerAnnotation, Proposal

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def version(annotation):
    return PeerAnnotation.objects.get(pk=annotation.pk).version


def test_the_page_offers_proposals_to_its_annotator_only(client, demo, annotation):
    url = reverse("annotation-detail", args=[annotation.pk])
    client.force_login(demo["annotator"])
    page = client.get(url).content.decode()
    assert 'id="propose-matches"' in page
    assert f'hx-get="{reverse("proposal-list", args=[annotation.pk])}"' in page
    assert "js/proposals.js" in page
    client.force_login(demo["admin"])
    assert 'id="propose-matches"' not in client.get(url).content.decode()


def test_proposing_then_listing(client, demo, annotation):
    client.force_login(demo["annotator"])
    response = client.post(reverse("propose", args=[annotation.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert 'id="proposal-list" hx-swap-oob="true"' in page
    assert "Proposed 4 matches: Enter accepts, Backspace rejects" in page
    assert page.count('class="proposal"') == 4
    assert "“Buzz Aldrin followed him”" in page
    again = client.post(reverse("propose", args=[annotation.pk])).content.decode()
    assert "No confident match left to propose" in again
    listed = client.get(reverse("proposal-list", args=[annotation.pk])).content.decode()
    assert listed.count('class="proposal"') == 4
    assert "hx-swap-oob" not in listed


def test_accepting_answers_as_an_edit_and_rejecting_with_the_list(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    apollo = annotation.proposals.get(scu__uid=1)
    response = client.post(
        reverse("proposal-accept", args=[annotation.pk, apollo.pk]),
        {"version": version(annotation)},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert (
        "Accepted a proposal: matched “Apollo 11 landed on the Moon in July 1969” to SCU 1" in page
    )
    assert 'id="peer-text" hx-swap-oob="true"' in page  # the PSE's mark, as after an assignment
    assert page.count('class="proposal"') == 3
    assert PSE.objects.get(annotation=annotation).scu.uid == 1

    aldrin = annotation.proposals.get(scu__uid=2)
    response = client.post(reverse("proposal-reject", args=[annotation.pk, aldrin.pk]))
    assert response.status_code == 200
    assert "Rejected the proposal of SCU 2" in response.content.decode()
    assert Proposal.objects.get(pk=aldrin.pk).state == "rejected"
    assert "1 accepted, 1 rejected so far." in response.content.decode()


def test_accepting_selected_words_instead(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    collins = annotation.proposals.get(scu__uid=4)
    start = annotation.peer.text.index("Michael Collins")
    client.post(
        reverse("proposal-accept", args=[annotation.pk, collins.pk]),
        {"version": version(annotation), "ranges": f"[[{start}, {start + 15}]]"},
    )
    pse = PSE.objects.get(annotation=annotation)
    assert list(pse.spans.values_list("start", "end")) == [(start, start + 15)]


def test_a_stale_page_gets_a_conflict_and_nothing_is_accepted(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    proposal = annotation.proposals.first()
    response = client.post(
        reverse("proposal-accept", args=[annotation.pk, proposal.pk]),
        {"version": version(annotation) - 1},
    )
    assert response.status_code == 409
    assert 'id="workspace"' in response.content.decode()  # the page as it now is
    assert Proposal.objects.get(pk=proposal.pk).state == "open"
    assert not PSE.objects.filter(annotation=annotation).exists()


def test_others_may_not_propose_nor_decide(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    proposal = annotation.proposals.first()
    for user, status in ((demo["other_annotator"], 404), (demo["admin"], 403)):
        client.force_login(user)  # another annotator cannot even see the annotation
        assert client.post(reverse("propose", args=[annotation.pk])).status_code == status
        accept = reverse("proposal-accept", args=[annotation.pk, proposal.pk])
        assert client.post(accept, {"version": version(annotation)}).status_code == status
        reject = reverse("proposal-reject", args=[annotation.pk, proposal.pk])
        assert client.post(reject).status_code == status
    assert Proposal.objects.get(pk=proposal.pk).state == "open"
    assert annotation.proposals.count() == 4
    client.logout()
    assert client.post(reverse("propose", args=[annotation.pk])).status_code == 302


def test_undo_answers_with_the_proposal_open_again_and_redo_with_it_accepted(
    client, demo, annotation
):
    """Found by a tester: after Ctrl+Z of an acceptance, the list still said "1 accepted" and did
    not show the proposal. Every edit's answer now brings the list as it is."""
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    collins = annotation.proposals.get(scu__uid=4)
    client.post(
        reverse("proposal-accept", args=[annotation.pk, collins.pk]),
        {"version": version(annotation)},
    )
    undo = reverse("annotation-edit", args=[annotation.pk, "undo"])
    page = client.post(undo, {"version": version(annotation)}).content.decode()
    assert 'id="proposal-list" hx-swap-oob="true"' in page
    assert page.count('class="proposal"') == 4
    assert f'data-proposal="{collins.pk}"' in page
    assert "accepted, " not in page  # nothing decided any more
    assert Proposal.objects.get(pk=collins.pk).state == "open"

    redo = reverse("annotation-edit", args=[annotation.pk, "redo"])
    page = client.post(redo, {"version": version(annotation)}).content.decode()
    assert page.count('class="proposal"') == 3
    assert "1 accepted, 0 rejected so far." in page
    assert Proposal.objects.get(pk=collins.pk).state == "accepted"


def test_an_edit_of_an_annotation_without_proposals_sends_no_list(client, demo, annotation):
    client.force_login(demo["annotator"])
    start = annotation.peer.text.index("Michael Collins")
    page = client.post(
        reverse("annotation-edit", args=[annotation.pk, "assign"]),
        {"version": version(annotation), "ranges": f"[[{start}, {start + 15}]]", "scu": 4},
    ).content.decode()
    assert "Matched “Michael Collins” to SCU 4" in page
    assert "proposal-list" not in page


def test_deciding_the_last_open_proposal_says_none_is_left(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    *others, last = annotation.proposals.order_by("start")
    for proposal in others:
        page = client.post(
            reverse("proposal-accept", args=[annotation.pk, proposal.pk]),
            {"version": version(annotation)},
        ).content.decode()
        assert "No open proposal left" not in page
    assert page.count('id="proposal-list"') == 1  # the list once, not twice
    page = client.post(reverse("proposal-reject", args=[annotation.pk, last.pk])).content.decode()
    assert "Rejected the proposal of SCU 4 (Ctrl+Z reopens it). No open proposal left" in page
    client.post(
        reverse("annotation-edit", args=[annotation.pk, "undo"]), {"version": version(annotation)}
    )
    reopened = annotation.proposals.get(state="open")
    page = client.post(
        reverse("proposal-accept", args=[annotation.pk, reopened.pk]),
        {"version": version(annotation)},
    ).content.decode()
    assert "to SCU 2. No open proposal left" in page
    assert Proposal.objects.filter(annotation=annotation, state="open").count() == 0


def test_a_rejected_proposal_reopens(client, demo, annotation):
    """Found by a tester: a rejection (Backspace, Delete: slips happen) could not be undone and the
    proposal was lost for good. Reopening it makes it open again, undecided, as before."""
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    aldrin = annotation.proposals.get(scu__uid=2)
    page = client.post(reverse("proposal-reject", args=[annotation.pk, aldrin.pk])).content.decode()
    assert "Ctrl+Z reopens it" in page
    # The rejected ones listed, each with a button that reopens it.
    assert f'data-proposal-reopen="{aldrin.pk}"' in page
    assert "“Buzz Aldrin followed him”" in page

    response = client.post(reverse("proposal-reopen", args=[annotation.pk, aldrin.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert "Reopened the proposal of SCU 2" in page
    assert page.count('class="proposal"') == 4
    assert "data-proposal-reopen" not in page
    stored = Proposal.objects.get(pk=aldrin.pk)
    assert (stored.state, stored.decided_at, stored.decided_by) == ("open", None, None)

    # Only a rejected proposal reopens: an open one is refused, nothing changes.
    again = client.post(reverse("proposal-reopen", args=[annotation.pk, aldrin.pk]))
    assert again.status_code == 422
    assert Proposal.objects.get(pk=aldrin.pk).state == "open"

    # Accepted once reopened: a PSE of its words.
    client.post(
        reverse("proposal-accept", args=[annotation.pk, aldrin.pk]),
        {"version": version(annotation)},
    )
    assert Proposal.objects.get(pk=aldrin.pk).state == "accepted"
    pse = PSE.objects.get(annotation=annotation)
    assert pse.scu.uid == 2
    text = annotation.peer.text
    assert [text[s:e] for s, e in pse.spans.values_list("start", "end")] == [
        "Buzz Aldrin followed him"
    ]


def test_others_may_not_reopen_nor_once_complete(client, demo, annotation):
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    proposal = annotation.proposals.first()
    client.post(reverse("proposal-reject", args=[annotation.pk, proposal.pk]))
    reopen = reverse("proposal-reopen", args=[annotation.pk, proposal.pk])
    for user, status in ((demo["other_annotator"], 404), (demo["admin"], 403)):
        client.force_login(user)  # another annotator cannot even see the annotation
        assert client.post(reopen).status_code == status
    PeerAnnotation.objects.filter(pk=annotation.pk).update(status=PeerAnnotation.Status.SUBMITTED)
    client.force_login(demo["annotator"])
    assert client.post(reopen).status_code == 403  # complete: read-only
    stored = Proposal.objects.get(pk=proposal.pk)
    assert (stored.state, stored.decided_by) == ("rejected", demo["annotator"])
    client.logout()
    assert client.post(reopen).status_code == 302
