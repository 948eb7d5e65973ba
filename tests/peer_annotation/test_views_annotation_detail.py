import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(annotation):
    return reverse("annotation-detail", args=[annotation.pk])


def test_shows_the_peer_its_pses_and_scores(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo["annotations"]["2"])).content.decode()
    assert (
        '<mark data-start="0" data-scus="0" class="zero" '
        'title="Matches nothing in the pyramid (weight 0)">'
        "The Apollo program was run by NASA</mark>"
    ) in page
    assert 'Matches nothing in the pyramid</i> <span class="count">×2</span>' in page
    assert "<td>0.3158</td>" in page
    assert "<td>0.4286</td>" in page
    assert "2 / 0 / 2" in page  # SCUs expressed / repetitions / non-matching


def test_the_assigned_annotator_sees_their_own_annotation_only(client, demo):
    from annotator.models import PeerAnnotation

    own = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    client.force_login(demo["annotator"])
    assert client.get(url(own)).status_code == 200
    # Not someone else's annotation of the same peer, nor anything of a peer not assigned to them.
    assert client.get(url(demo["annotations"]["1"])).status_code == 404
    assert client.get(url(demo["annotations"]["2"])).status_code == 404


def test_outsiders_get_404_and_anonymous_users_log_in(client, demo):
    client.force_login(demo["outsider"])
    assert client.get(url(demo["annotations"]["1"])).status_code == 404
    client.logout()
    assert client.get(url(demo["annotations"]["1"])).status_code == 302


def test_weights_and_scores_follow_the_collections_weight_convention(client, demo):
    """Under the "models" convention an SCU with two contributors from one model weighs 1 per
    model: the page shows the weight its scores use, and the scores equal export_scores'."""
    from annotator.models import PSE, Contributor, Span, WeightConvention
    from scoring.scores.records import score_annotations

    annotation = demo["annotations"]["2"]
    scu = PSE.objects.filter(annotation=annotation, scu__isnull=False).first().scu
    contributor = scu.contributors.first()
    span = contributor.spans.first()
    twin = Contributor.objects.create(scu=scu, summary=contributor.summary, position=99)
    Span.objects.create(
        contributor=twin, summary=span.summary, start=span.start, end=span.end, position=0
    )
    collection = demo["pyramid"].docset.collection
    client.force_login(demo["admin"])

    for convention, weight in [
        (WeightConvention.CONTRIBUTORS, scu.contributors.count()),
        (WeightConvention.MODELS, scu.contributors.count() - 1),
    ]:
        collection.weight_convention = convention
        collection.save()
        page = client.get(url(annotation)).content.decode()
        (row,) = score_annotations(type(annotation).objects.filter(pk=annotation.pk))
        assert (
            f'id="scu-{scu.uid}-name"><span class="weight">{weight}</span> '
            f'<span class="scu-text"><span class="label">{scu.label}</span>'
        ) in page
        assert (
            f'<tr><th scope="row">Modified score</th><td>{row.scores.modified:.4f}</td></tr>'
            in page
        )
        assert (
            f"<span>Modified <b>{row.scores.modified:.4f}</b></span>" in page
        )  # the strip always in view
        assert f"<td>{row.scores.raw_score} / {row.scores.max_modified} (X<sub>a</sub>" in page


def test_an_empty_peer_summary_opens_says_so_and_scores_zero(client, demo):
    from annotator.models import PeerAnnotation, Summary

    empty = Summary.objects.create(docset=demo["pyramid"].docset, kind="peer", author="31", text="")
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=empty, annotator_code="100", status="submitted"
    )
    client.force_login(demo["admin"])
    response = client.get(url(annotation))
    assert response.status_code == 200
    page = response.content.decode()
    assert "The peer summary is empty" in page
    assert "<td>0.0000</td>" in page  # original and modified: 0, as NIST scored empty peers


def test_the_trail_says_which_crumb_is_the_docset_and_which_the_pyramid(client, demo):
    """Issue 17: the demo's docset and pyramid are both DEMO01, and the trail read
    "DEMO01 › DEMO01"."""
    client.force_login(demo["admin"])
    pyramid = demo["pyramid"]
    page = client.get(url(demo["annotations"]["1"])).content.decode()
    assert (
        f'<a href="{reverse("docset-detail", args=[pyramid.docset.pk])}">Docset DEMO01</a> › '
        f'<a href="{reverse("pyramid-detail", args=[pyramid.pk])}">Pyramid DEMO01</a></nav>'
    ) in page
    assert ">DEMO01</a> › <a" not in page
