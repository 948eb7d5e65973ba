"""load_demo: the demo docset loads once, with real SCUs, PSEs and the scores they imply; the
finished example is the work of the account `example` (its assignments done), and the user `demo`
(or the one named) is given open work once: a pyramid of their own to build, peers to annotate."""

import pytest
from django.core.management import CommandError
from django.urls import reverse

from annotator.models import (
    SCU,
    Assignment,
    Collection,
    HumanJudgment,
    Membership,
    PeerAnnotation,
    Pyramid,
    Summary,
)
from scoring.agreement.records import peer_agreement
from scoring.scores.records import score_collection
from tests.helpers import record_counts, run

pytestmark = pytest.mark.django_db


def everything() -> dict[str, int]:
    from django.contrib.auth import get_user_model

    return {
        **record_counts(),
        "Assignment": Assignment.objects.count(),
        "Membership": Membership.objects.count(),
        "User": get_user_model().objects.count(),
        "HumanJudgment": HumanJudgment.objects.count(),
    }


def work_of(username: str) -> list[tuple[str, str, str, str]]:
    """(task, pyramid, peer, status) of the user's assignments."""
    return sorted(
        (a.task, a.pyramid.name, a.peer.author if a.peer_id else "", a.status)
        for a in Assignment.objects.filter(user__username=username).select_related(
            "pyramid", "peer"
        )
    )


@pytest.fixture
def demo_user(django_user_model):
    return django_user_model.objects.create_superuser("demo", password="pyramid-demo")


def test_loads_the_demo_docset():
    out, _ = run("load_demo")
    assert "docset DEMO01 with 4 models, 3 peers and a pyramid of 11 SCUs, DEMO01-example" in out
    collection = Collection.objects.get()
    weights = {s.label: s.contributors.count() for s in SCU.objects.all()}
    assert weights["Apollo 11 landed the first people on the Moon in July 1969"] == 4
    assert sorted(weights.values(), reverse=True) == [4, 4, 3, 3, 3, 2, 2, 1, 1, 1, 1]
    scores = {row.peer: row.scores for row in score_collection(collection)}
    # 25 contributors / 4 models = 6.25 -> X_a = 6; the six heaviest SCUs weigh 19.
    assert scores["1"].modified == 1.0
    assert scores["1"].raw_score == 19
    assert (scores["2"].raw_score, scores["2"].non_matching) == (6, 2)
    assert f"{scores['2'].modified:.4f}" == "0.3158"
    assert f"{scores['2'].original:.4f}" == "0.4286"
    assert (scores["3"].unique_scus, scores["3"].repetitions, scores["3"].non_matching) == (1, 1, 1)
    assert HumanJudgment.objects.count() == 3


def test_every_span_covers_the_words_it_names():
    run("load_demo")
    annotation = PeerAnnotation.objects.get(peer__author="2")
    texts = [
        annotation.peer.text[s.start : s.end]
        for pse in annotation.pses.all()
        for s in pse.spans.all()
    ]
    assert texts[0] == "The Apollo program was run by NASA"
    model_c = Summary.objects.get(kind="model", author="C")
    spans = SCU.objects.get(uid=1).contributors.get(summary=model_c).spans.all()
    assert [model_c.text[s.start : s.end] for s in spans] == [
        "Apollo 11 was the first crewed mission to land on the Moon",
        "in July 1969",
    ]


def test_the_finished_example_is_the_done_work_of_the_example_account(client, django_user_model):
    out, _ = run("load_demo")
    example = django_user_model.objects.get(username="example")
    assert not example.has_usable_password()
    pyramid = Pyramid.objects.get()
    assert (pyramid.name, pyramid.status, pyramid.created_by, pyramid.creator_code) == (
        "DEMO01-example",
        "submitted",
        example,
        "",
    )
    assert [m.author for m in pyramid.models_used.order_by("pyramid_links__position")] == [
        "A",
        "B",
        "C",
        "D",
    ]
    assert work_of("example") == [
        ("peer", "DEMO01-example", "1", "done"),
        ("peer", "DEMO01-example", "2", "done"),
        ("peer", "DEMO01-example", "3", "done"),
        ("pyramid", "DEMO01-example", "", "done"),
    ]
    assert set(PeerAnnotation.objects.values_list("annotator__username", "annotator_code")) == {
        ("example", "")
    }
    assert Membership.objects.filter(user=example, role="annotator").count() == 1
    # Nobody named demo yet: nobody else has work, and the output says how to give some.
    assert Assignment.objects.exclude(user=example).count() == 0
    assert "No open work given to anyone: name a user with --user USERNAME" in out
    # The progress page counts the example's work as done and submitted.
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    page = client.get(
        reverse("collection-progress", args=[Collection.objects.get().pk])
    ).content.decode()
    assert "4 assigned · 4 started · 4 submitted · 11 SCUs · 13 PSEs" in page


def test_the_demo_user_is_given_a_pyramid_to_build_and_the_peers_to_annotate(demo_user):
    out, _ = run("load_demo")
    assert (
        "Open work for demo: build the pyramid DEMO01-demo from the same models; annotate peers 1, "
        "2, 3 against DEMO01-example." in out
    )
    assert work_of("demo") == [
        ("peer", "DEMO01-example", "1", "assigned"),
        ("peer", "DEMO01-example", "2", "assigned"),
        ("peer", "DEMO01-example", "3", "assigned"),
        ("pyramid", "DEMO01-demo", "", "assigned"),
    ]
    theirs = Pyramid.objects.get(name="DEMO01-demo")
    assert (theirs.status, theirs.created_by, theirs.scus.count(), theirs.models_used.count()) == (
        "in_progress",
        demo_user,
        0,
        4,
    )
    assert Membership.objects.filter(user=demo_user, role="annotator").exists()


def test_the_demo_users_annotations_stand_beside_the_examples_in_scores_and_agreement(demo_user):
    """The example's annotations are not named "demo": the demo user's own annotation of a peer is a
    second annotator's, in the score table and the agreement report."""
    run("load_demo")
    example = Pyramid.objects.get(name="DEMO01-example")
    peer = Summary.objects.get(kind="peer", author="1")
    PeerAnnotation.objects.create(
        pyramid=example, peer=peer, annotator=demo_user, status="submitted"
    )
    collection = Collection.objects.get()
    assert sorted((row.peer, row.annotator) for row in score_collection(collection)) == [
        ("1", "demo"),
        ("1", "example"),
        ("2", "example"),
        ("3", "example"),
    ]
    peers, _ = peer_agreement(collection)
    assert [(p.peer, sorted(p.annotators)) for p in peers] == [("1", ["demo", "example"])]


def test_the_second_time_changes_nothing(demo_user):
    run("load_demo")
    before = everything()
    out, _ = run("load_demo")
    assert "already loaded; nothing changed" in out
    assert everything() == before


def test_a_user_made_after_the_first_load_is_given_the_work_once(django_user_model):
    run("load_demo")
    django_user_model.objects.create_superuser("demo", password="pyramid-demo")
    out, _ = run("load_demo")
    assert "The demo data is already loaded." in out
    assert "Open work for demo" in out
    assert len(work_of("demo")) == 4
    before = everything()
    out, _ = run("load_demo")
    assert "nothing changed" in out
    assert everything() == before


def test_work_once_given_is_not_given_again_whatever_became_of_it(demo_user):
    """Submitting their own pyramid makes it the docset's latest; withdrawing is an administrator's
    choice: neither brings new or renewed assignments on the next run."""
    run("load_demo")
    Pyramid.objects.filter(name="DEMO01-demo").update(status="submitted")
    Assignment.objects.filter(user=demo_user, peer__author="3").update(status="withdrawn")
    before = everything()
    out, _ = run("load_demo")
    assert "nothing changed" in out
    assert everything() == before
    assert ("peer", "DEMO01-example", "3", "withdrawn") in work_of("demo")


def test_another_user_can_be_named(django_user_model):
    django_user_model.objects.create_user("alice", password="alice-pass-1")
    out, _ = run("load_demo", user="alice")
    assert "Open work for alice: build the pyramid DEMO01-alice" in out
    assert len(work_of("alice")) == 4
    assert "No open work given" not in out
    with pytest.raises(CommandError, match="No user 'nobody'"):
        run("load_demo", user="nobody")
