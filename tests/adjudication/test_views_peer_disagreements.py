"""GET /docsets/<pk>/peers-annotated-twice/: where two annotations of a peer disagree, worst
first."""

import re

import pytest
from django.urls import reverse

from annotator.models import Collection, Docset
from tests.helpers import import_files

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_d0631_by_two_sites_worst_first(client, demo, shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0631.pyr",
        *sorted((folder / "allpans").glob("11[45].D0631.*.pan")),
        collection="DUC 2006",
    )
    docset = Docset.objects.get(collection=Collection.objects.get(name="DUC 2006"), name="D0631")
    client.force_login(demo["admin"])
    page = client.get(reverse("peer-disagreements", args=[docset.pk])).content.decode()
    body = page.split("<tbody>")[1]
    assert body.count("<tr>") == 22
    assert body.count("/annotations/") == 44
    alphas = [
        float(cell)
        for cell in re.findall(r'<td class="num">(-?\d\.\d{4}|—)</td>\s*<td class="num">', body)
        if cell != "—"
    ]
    assert alphas == sorted(alphas)  # worst agreement first


def test_only_adjudicators_and_administrators(client, demo):
    docset_id = demo["pyramid"].docset_id
    client.force_login(demo["organizer"])
    assert client.get(reverse("peer-disagreements", args=[docset_id])).status_code == 403
    client.force_login(demo["admin"])
    page = client.get(reverse("peer-disagreements", args=[docset_id])).content.decode()
    assert "No peer of this docset is annotated more than once" in page


@pytest.mark.shared_data
def test_d0631_names_the_annotators_and_shows_each_consensus(client, demo, shared_data):
    """Issue 15: who matched each SCU the annotators differ on, by name; each peer's consensus
    state."""
    from annotator.adjudication import annotation_consensus
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0631.pyr",
        *sorted((folder / "allpans").glob("11[45].D0631.*.pan")),
        collection="DUC 2006",
    )
    docset = Docset.objects.get(collection=Collection.objects.get(name="DUC 2006"), name="D0631")
    sources = list(PeerAnnotation.objects.filter(pyramid__docset=docset, peer__author="1"))
    consensus = annotation_consensus.start(sources, demo["admin"])
    client.force_login(demo["admin"])
    page = client.get(reverse("peer-disagreements", args=[docset.pk])).content.decode()
    body = page.split("<tbody>")[1]
    assert not re.search(r"\(\d+ / \d+\)", body)  # no bare counts
    assert "matched by 114, not by 115" in body
    assert "matched by 115, not by 114" in body
    link = reverse("peer-comparison", args=[consensus.pyramid_id, consensus.peer_id])
    assert f'<td class="consensus"><a href="{link}">In progress</a></td>' in body
    assert body.count(">Not started</a></td>") == 21
    consensus.refresh_from_db()
    for uid in annotation_consensus.undecided_scus(consensus):
        consensus.refresh_from_db()
        annotation_consensus.keep(consensus.pk, demo["admin"], consensus.version, uid)
    consensus.refresh_from_db()
    peer_editing.complete(consensus.pk, demo["admin"], consensus.version)
    body = (
        client.get(reverse("peer-disagreements", args=[docset.pk]))
        .content.decode()
        .split("<tbody>")[1]
    )
    assert f'<td class="consensus"><a href="{link}">Submitted</a></td>' in body


def test_who_matched_wording():
    from annotator.adjudication.views.compare import _who_matched

    assert _who_matched(["114", "115"], [1, 0]) == "matched by 114, not by 115"
    assert _who_matched(["114", "115"], [2, 0]) == "matched by 114 ×2, not by 115"
    assert _who_matched(["114", "115"], [1, 2]) == "114 ×1, 115 ×2"
