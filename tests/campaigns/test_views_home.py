import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("who", ["admin", "organizer"])
def test_readers_see_their_collections_with_links(client, demo, who):
    client.force_login(demo[who])
    page = client.get(reverse("home")).content.decode()
    collection = demo["collection"]
    assert (
        f'<a href="{reverse("collection-detail", args=[collection.pk])}">Demo: Apollo 11</a>'
        in page
    )
    assert reverse("collection-progress", args=[collection.pk]) in page
    assert reverse("collection-scores", args=[collection.pk]) in page
    assert "No work is assigned to you." in page


def test_an_annotator_sees_only_assigned_work(client, demo):
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    # Assigned one peer: their dashboard lists it, with a button to start; no collection, no scores.
    assert "Annotate peer 1 against DEMO01" in page
    assert "peer 2" not in page
    assert reverse("assignment-start", args=[demo["annotator"].assignments.get().pk]) in page
    assert "1 assigned · 0 started · 0 submitted" in page
    assert reverse("collection-scores", args=[demo["collection"].pk]) not in page


def test_an_outsider_sees_nothing(client, demo):
    client.force_login(demo["outsider"])
    page = client.get(reverse("home")).content.decode()
    assert "Apollo" not in page
    assert "An administrator will assign work to you" in page


def test_login_page_logs_in(client, demo):
    response = client.post(
        reverse("login"), {"username": "organizer", "password": "organizer-pass-1"}
    )
    assert response.status_code == 302
    assert response.url == reverse("home")
    bad = client.post(reverse("login"), {"username": "organizer", "password": "wrong"})
    assert "didn't match" in bad.content.decode()


def peers_numbered(demo, authors):
    """Peers of the demo docset with these authors, assigned to the demo annotator."""
    from annotator.models import Assignment, Summary

    docset = demo["pyramid"].docset
    for author in authors:
        peer, _ = Summary.objects.get_or_create(
            docset=docset,
            kind=Summary.Kind.PEER,
            author=author,
            defaults={"text": f"Peer {author} wrote this."},
        )
        Assignment.objects.get_or_create(
            user=demo["annotator"], task="peer", pyramid=demo["pyramid"], peer=peer
        )


def test_peers_are_listed_by_number_not_as_text(client, demo):
    peers_numbered(demo, ["10", "2", "14", "A"])
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    listed = [
        int(n) if n.isdigit() else n
        for n in __import__("re").findall(r"Annotate peer (\w+) against", page)
    ]
    assert listed == [1, 2, 10, 14, "A"]


# -- the adjudication queue (issue 15) -------------------------------------------------------------


def submitted(*pyramids):
    from annotator.models import Pyramid

    Pyramid.objects.filter(pk__in=[p.pk for p in pyramids]).update(status=Pyramid.Status.SUBMITTED)


def queue_rows(page):
    """The queue's rows as (state class, text of the "What" cell)."""
    import re

    body = page.split('id="adjudication-queue"')[1].split("</section>")[0]
    return re.findall(
        r'<tr class="queue-item (?:pyramids|peer) (\w+)">'
        r".*?<td>.*?</td><td>.*?</td>\s*<td>(.*?)</td>",
        body,
        re.S,
    )


def test_an_adjudicator_sees_the_pairs_waiting_for_a_consensus(client, pair):
    from annotator.adjudication import pyramid_consensus

    a, b = pair["a"], pair["b"]
    client.force_login(pair["adjudicator"])
    page = client.get(reverse("home")).content.decode()
    # Pyramids still being built wait for nothing yet; the demo docset's one submitted pyramid has
    # no pair.
    assert "Waiting for a consensus" in page
    assert "Nothing waits for a consensus" in page
    submitted(a, b)
    page = client.get(reverse("home")).content.decode()
    # The demo's pyramid and the two annotators' pyramids: three pairs, not started, each with a
    # start form.
    assert queue_rows(page) == [
        ("not_started", "Pyramids DEMO01 + by-annotator"),
        ("not_started", "Pyramids DEMO01 + by-other"),
        ("not_started", "Pyramids by-annotator + by-other"),
    ]
    assert "3 not started · 0 in progress · 0 submitted" in page
    assert page.count(f'action="{reverse("pyramid-consensus-start", args=[a.docset_id])}"') == 3
    pair_inputs = (
        f'<input type="hidden" name="a" value="{a.pk}">'
        f'<input type="hidden" name="b" value="{b.pk}">'
    )
    assert pair_inputs in page
    assert "<td>annotator, other_annotator</td>" in page  # who built each pyramid
    consensus = pyramid_consensus.start(a, b, pair["adjudicator"])
    page = client.get(reverse("home")).content.decode()
    assert queue_rows(page)[0] == ("in_progress", "Pyramids by-annotator + by-other")
    assert (
        f'<a class="button" href="{reverse("pyramid-merge", args=[consensus.pk])}">Continue</a>'
        in page
    )
    assert "2 not started · 1 in progress · 0 submitted" in page
    type(consensus).objects.filter(pk=consensus.pk).update(status="submitted")
    page = client.get(reverse("home")).content.decode()
    assert queue_rows(page)[-1] == ("submitted", "Pyramids by-annotator + by-other")
    merge_link = (
        f'<a class="button secondary" href="{reverse("pyramid-merge", args=[consensus.pk])}">'
        "Open</a>"
    )
    assert merge_link in page
    # The consensus pyramid itself is no annotator's pyramid: it makes no new pair.
    assert len(queue_rows(page)) == 3


def test_peers_annotated_twice_wait_too(client, demo):
    from annotator.models import PeerAnnotation
    from tests.helpers import complete_consensus_of_peer_1

    theirs = demo["annotations"]["1"]
    second = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=theirs.peer, annotator=demo["annotator"]
    )
    client.force_login(demo["admin"])
    assert (
        "Nothing waits for a consensus" in client.get(reverse("home")).content.decode()
    )  # one is in progress
    PeerAnnotation.objects.filter(pk=second.pk).update(status=PeerAnnotation.Status.SUBMITTED)
    page = client.get(reverse("home")).content.decode()
    assert queue_rows(page) == [("not_started", "peer 1 against DEMO01")]
    assert (
        f'action="{reverse("peer-consensus-start", args=[demo["pyramid"].pk, theirs.peer_id])}"'
        in page
    )
    assert f"<td>annotator, {theirs.annotator_code or theirs.annotator.username}</td>" in page
    second.delete()
    consensus = complete_consensus_of_peer_1(demo)
    page = client.get(reverse("home")).content.decode()
    assert queue_rows(page) == [("submitted", "peer 1 against DEMO01")]
    comparison_link = (
        f'href="{reverse("peer-comparison", args=[consensus.pyramid_id, consensus.peer_id])}">'
        "Open</a>"
    )
    assert comparison_link in page


@pytest.mark.parametrize("who", ["organizer", "annotator", "outsider"])
def test_only_adjudicators_and_administrators_see_the_queue(client, pair, who):
    submitted(pair["a"], pair["b"])
    client.force_login(pair["demo"][who])
    page = client.get(reverse("home")).content.decode()
    assert "adjudication-queue" not in page
    assert "Start consensus" not in page


def test_an_adjudicator_of_another_collection_sees_nothing_of_this_one(
    client, pair, django_user_model
):
    from annotator.models import Collection, Membership, Role

    submitted(pair["a"], pair["b"])
    elsewhere = django_user_model.objects.create_user("elsewhere")
    Membership.objects.create(
        collection=Collection.objects.create(name="Elsewhere"),
        user=elsewhere,
        role=Role.ADJUDICATOR,
    )
    client.force_login(elsewhere)
    page = client.get(reverse("home")).content.decode()
    assert "Nothing waits for a consensus" in page
    assert "by-annotator" not in page


def test_the_queue_costs_the_same_queries_whatever_its_size(
    client, pair, django_assert_max_num_queries
):
    from annotator.models import Docset, PeerAnnotation, Pyramid, PyramidModel, Summary

    demo = pair["demo"]
    submitted(pair["a"], pair["b"])
    client.force_login(pair["adjudicator"])
    with django_assert_max_num_queries(20) as small:
        client.get(reverse("home"))
    # Ten more docsets, each with two submitted pyramids and a peer annotated twice.
    links = list(demo["pyramid"].model_links.all())
    for n in range(10):
        docset = Docset.objects.create(collection=demo["collection"], name=f"D{n:04}")
        peer = Summary.objects.create(
            docset=docset, kind=Summary.Kind.PEER, author="7", text="A peer."
        )
        for name in ("x", "y"):
            pyramid = Pyramid.objects.create(
                docset=docset, name=f"D{n:04}-{name}", status=Pyramid.Status.SUBMITTED
            )
            PyramidModel.objects.bulk_create(
                PyramidModel(pyramid=pyramid, summary_id=link.summary_id, position=link.position)
                for link in links
            )
        for code in ("114", "115"):
            PeerAnnotation.objects.create(
                pyramid=pyramid,
                peer=peer,
                annotator_code=code,
                status=PeerAnnotation.Status.SUBMITTED,
            )
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = client.get(reverse("home")).content.decode()
    assert len(queue_rows(page)) == 3 + 10 * 2


@pytest.mark.shared_data
def test_pyramids_of_separate_files_naming_their_models_differently_wait_as_pairs(
    client, shared_data, django_user_model
):
    """The three MATTER pyramids name the same five summaries "TCstudent1", "1.txt" and "1": the
    queue pairs them by their words, as the comparison aligns them."""
    from annotator.models import Collection, Membership, Pyramid, Role
    from tests.helpers import import_files

    folder = shared_data / "pyreval-matter"
    import_files(
        folder / "IA/Yinghui_12_10_09_MATTER_fixed.pyr",
        folder / "Becky_MATTER.pyr",
        collection="MATTER",
        docset="MATTER",
    )
    import_files(
        folder / "IA/12_10_09_MATTER_fixed.pyr",
        collection="MATTER",
        docset="MATTER",
        model_regex=r"(?m)^---\n",
    )
    pyramids = Pyramid.objects.filter(docset__name="MATTER")
    assert (
        len({tuple(p.model_links.values_list("summary__author", flat=True)) for p in pyramids}) == 3
    )
    submitted(*pyramids)
    adjudicator = django_user_model.objects.create_user(
        "adjudicator", password="adjudicator-pass-1"
    )
    Membership.objects.create(
        collection=Collection.objects.get(name="MATTER"), user=adjudicator, role=Role.ADJUDICATOR
    )
    client.force_login(adjudicator)
    assert queue_rows(client.get(reverse("home")).content.decode()) == [
        ("not_started", "Pyramids 12_10_09_MATTER_fixed + Becky_MATTER"),
        ("not_started", "Pyramids 12_10_09_MATTER_fixed + Yinghui_12_10_09_MATTER_fixed"),
        ("not_started", "Pyramids Becky_MATTER + Yinghui_12_10_09_MATTER_fixed"),
    ]


# -- the two kinds of work, alike (issue 17) -------------------------------------------------------


def work_controls(page):
    """Each row's control: (kind, what it says, where it goes) — kind "link" (GET) or "button"
    (POST)."""
    import re

    body = page.split('id="your-work"')[1].split("</table>")[0]
    found = []
    for tag, attrs, label in re.findall(
        r'<(a|button) ([^>]*class="[^"]*work-action[^"]*"[^>]*)>(.*?)</\1>', body
    ):
        if tag == "a":
            found.append(("link", label, re.search(r'href="([^"]+)"', attrs).group(1)))
        else:
            form = body[: body.index(attrs)].rsplit("<form", 1)[1]
            assert 'method="post"' in form
            found.append(("button", label, re.search(r'action="([^"]+)"', form).group(1)))
    return found


def test_building_and_annotating_say_what_happens_and_open_alike(client, demo):
    """Issue 17: "Build" became "Continue" while "Annotate" was a form button: now a link wherever
    the control only opens the work, a button (POST) where opening changes something (the first
    time, the annotation is made and the assignment started); the labels say which."""
    from annotator.models import Assignment, PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing
    from annotator.pyramids import editing
    from tests.helpers import Builder

    builder = Builder(demo, name="DEMO01-B", user="annotator")  # a pyramid to build, assigned
    peer = Assignment.objects.get(user=demo["annotator"], task="peer")
    build = Assignment.objects.get(user=demo["annotator"], task="pyramid")
    client.force_login(demo["annotator"])
    pyramid_url = reverse("pyramid-detail", args=[builder.pyramid.pk])
    start_url = reverse("assignment-start", args=[peer.pk])
    assert set(work_controls(client.get(reverse("home")).content.decode())) == {
        ("link", "Build pyramid", pyramid_url),
        ("button", "Annotate", start_url),
    }
    assert not PeerAnnotation.objects.filter(
        annotator=demo["annotator"]
    ).exists()  # the page changed nothing

    builder.new_scu("A", "Apollo 11 landed on the Moon")  # started by the first edit
    client.post(start_url)  # started by opening it
    annotation = PeerAnnotation.objects.get(annotator=demo["annotator"])
    annotation_url = reverse("annotation-detail", args=[annotation.pk])
    page = client.get(reverse("home")).content.decode()
    assert set(work_controls(page)) == {
        ("link", "Continue building", pyramid_url),
        ("link", "Continue annotating", annotation_url),
    }
    # Each control is described by its row's task, for those who hear the page.
    assert f'aria-describedby="work-{build.pk}"' in page
    assert f'<td id="work-{peer.pk}">Annotate peer 1 against DEMO01</td>' in page

    editing.submit(builder.pyramid.pk, demo["annotator"], builder.version)
    text = annotation.peer.text
    peer_editing.assign(
        annotation.pk, demo["annotator"], annotation.version, [(0, text.index(" in July"))], 1
    )
    peer_editing.complete(
        annotation.pk, demo["annotator"], PeerAnnotation.objects.get(pk=annotation.pk).version
    )
    assert set(work_controls(client.get(reverse("home")).content.decode())) == {
        ("link", "View pyramid", pyramid_url),
        ("link", "View annotation", annotation_url),
    }


def test_an_annotation_assigned_again_is_opened_by_the_button(client, demo):
    """An annotation that exists while its assignment is not started (given back after a
    withdrawal): opening it marks the assignment started, so it stays a POST."""
    from annotator.models import Assignment, PeerAnnotation

    peer = Assignment.objects.get(user=demo["annotator"], task="peer")
    PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=peer.peer, annotator=demo["annotator"]
    )
    client.force_login(demo["annotator"])
    assert work_controls(client.get(reverse("home")).content.decode()) == [
        ("button", "Annotate", reverse("assignment-start", args=[peer.pk]))
    ]


def test_the_totals_say_one_scu_and_one_pse(client, demo):
    """Issue 17: "1 SCUs · 1 PSEs"."""
    from tests.helpers import Builder

    Builder(demo, name="DEMO01-B", user="annotator").new_scu("A", "Apollo 11 landed on the Moon")
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    assert "submitted · 1 SCU · 0 PSEs · 0 min active</p>" in page


@pytest.mark.parametrize(
    ("who", "sees_accounts"), [("admin", True), ("organizer", False), ("annotator", False)]
)
def test_only_site_administrators_see_the_accounts_link(client, demo, who, sees_accounts):
    """The navigation asks for the user's roles only as it shows them (the context processor's
    values are evaluated by the template: an edit's answer, which shows no navigation, does not
    query permissions)."""
    client.force_login(demo[who])
    page = client.get(reverse("home")).content.decode()
    assert (f'<a href="{reverse("user-list")}">Accounts</a>' in page) is sees_accounts
