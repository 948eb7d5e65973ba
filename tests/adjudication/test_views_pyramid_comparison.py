"""GET /docsets/<pk>/compare/: two pyramids aligned, for adjudicators and administrators."""

import re

import pytest
from django.urls import reverse

from annotator.models import Membership, Pyramid, Role
from annotator.pyramids import editing
from tests.helpers import empty_pyramid, refuses_nul

pytestmark = pytest.mark.django_db


@pytest.fixture
def second(demo):
    """A second pyramid of the demo docset: SCU 1 of the first, and an SCU of its own."""
    pyramid = empty_pyramid(demo, name="DEMO01-second", assign_to="annotator")
    model = pyramid.models_used.get(author="A")
    text = model.text
    editing.new_scu(pyramid.pk, demo["annotator"], 1, model.pk, [(0, text.index(" on the Moon"))])
    return Pyramid.objects.get(pk=pyramid.pk)


def url(demo, query=""):
    return reverse("pyramid-comparison", args=[demo["pyramid"].docset_id]) + query


def test_the_groups_agreement_and_peer_scores(client, demo, second):
    client.force_login(demo["admin"])
    page = client.get(url(demo, f"?a={demo['pyramid'].pk}&b={second.pk}")).content.decode()
    # The three alphas say which is which, MASI as Passonneau 2009 defines it first, the one to
    # read.
    alphas = page.split('<dl class="alphas" id="alphas">')[1].split("</dl>")[0]
    assert (
        alphas.index("Passonneau 2009 §4.1.4: the figure to report")
        < alphas.index("MASI as NLTK computes it")
        < alphas.index("Jaccard")
    )
    assert re.search(r'id="alpha-masi"><strong>-?[01]\.\d{4}</strong>', alphas)
    # B's only SCU is a part of A's SCU 1; A's ten other SCUs are A's alone.
    assert "1 one-to-one (0 identical) · 0 split by one annotator and merged by the other" in page
    assert "0 many-to-many · 10 only in A · 0 only in B" in page
    assert page.count('<tr class="group ') == demo["pyramid"].scus.count()
    assert (
        '<span class="weight">1</span> <strong class="label">Apollo 11 landed</strong> '
        '<span class="muted">#1</span>' in page
    )
    # The demo's peers are annotated against A only.
    assert page.count('<td class="num">—</td></tr>') == 3


def test_an_adjudicator_may_compare_an_annotator_may_not(client, demo, second):
    Membership.objects.create(
        collection=demo["collection"], user=demo["outsider"], role=Role.ADJUDICATOR
    )
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 200
    client.force_login(demo["annotator"])
    assert client.get(url(demo)).status_code == 403
    client.force_login(demo["organizer"])
    assert client.get(url(demo)).status_code == 403


def test_one_pyramid_is_not_enough(client, demo):
    client.force_login(demo["admin"])
    assert "fewer than two pyramids" in client.get(url(demo)).content.decode()


def test_the_pairs_agreement_is_kept_until_a_pyramid_changes(client, demo, second):
    from scoring.models import Report

    client.force_login(demo["admin"])
    query = f"?a={demo['pyramid'].pk}&b={second.pk}"
    first = client.get(url(demo, query)).content.decode()
    client.get(url(demo, query))
    assert Report.objects.filter(kind="pair-agreement").count() == 1
    model = second.models_used.get(author="B")
    editing.new_scu(second.pk, demo["annotator"], second.version, model.pk, [(0, 9)])
    changed = client.get(url(demo, query)).content.decode()
    assert Report.objects.filter(kind="pair-agreement").count() == 2
    masi = lambda page: page.split('id="alpha-masi"><strong>')[1][:6]  # noqa: E731
    assert masi(first) != masi(changed)  # the new SCU changed alpha


# -- a second consensus of the same pair (issue 15) ------------------------------------------------


def start(client, demo, a, b, **extra):
    return client.post(
        reverse("pyramid-consensus-start", args=[demo["pyramid"].docset_id]),
        {"a": a.pk, "b": b.pk, **extra},
    )


def test_a_pair_with_a_consensus_says_so_and_starts_another_only_when_confirmed(
    client, demo, second
):
    from annotator.models import PyramidMerge

    client.force_login(demo["admin"])
    first = start(client, demo, demo["pyramid"], second)
    consensus = PyramidMerge.objects.get().consensus
    assert first.status_code == 302
    assert first.url == reverse("pyramid-merge", args=[consensus.pk])
    Pyramid.objects.filter(pk=consensus.pk).update(status=Pyramid.Status.SUBMITTED)

    # The comparison of the pair names the consensus, links it, and asks for a confirmation.
    page = client.get(url(demo, f"?a={second.pk}&b={demo['pyramid'].pk}")).content.decode()
    assert "already have a consensus" in page
    assert (
        f'href="{reverse("pyramid-merge", args=[consensus.pk])}">Open {consensus.name}</a>' in page
    )
    assert '<input type="checkbox" name="again" value="1" required>' in page
    assert "Merge A and B into a consensus pyramid" not in page

    # Posting without the confirmation (in either order) starts nothing and leads back to it.
    refused = start(client, demo, second, demo["pyramid"])
    assert refused.status_code == 302
    assert refused.url.startswith(url(demo, f"?a={second.pk}&b={demo['pyramid'].pk}"))
    assert PyramidMerge.objects.count() == 1
    page = client.get(refused.url).content.decode()
    assert f"already have a consensus: {consensus.name} (submitted)" in page

    # Confirmed: a second consensus of the pair.
    again = start(client, demo, demo["pyramid"], second, again="1")
    assert PyramidMerge.objects.count() == 2
    newer = PyramidMerge.objects.latest("pk").consensus
    assert again.url == reverse("pyramid-merge", args=[newer.pk])
    assert newer.name == f"{consensus.name} (2)"
    page = client.get(url(demo, f"?a={demo['pyramid'].pk}&b={second.pk}")).content.decode()
    assert f"Open {consensus.name}</a>" in page
    assert f"Continue {newer.name}</a>" in page


def test_another_pair_starts_without_confirmation(client, demo, second):
    from annotator.models import PyramidMerge
    from tests.helpers import empty_pyramid

    third = empty_pyramid(demo, name="DEMO01-third", assign_to="annotator")
    client.force_login(demo["admin"])
    start(client, demo, demo["pyramid"], second)
    page = client.get(url(demo, f"?a={demo['pyramid'].pk}&b={third.pk}")).content.decode()
    assert "already have a consensus" not in page
    assert "Merge A and B into a consensus pyramid" in page
    start(client, demo, demo["pyramid"], third)
    assert PyramidMerge.objects.count() == 2


def test_starting_is_for_adjudicators(client, demo, second):
    from annotator.models import PyramidMerge

    for who in ("organizer", "annotator"):
        client.force_login(demo[who])
        assert start(client, demo, demo["pyramid"], second).status_code == 403
    assert not PyramidMerge.objects.exists()


def test_three_pyramids_compared_at_once(client, trio):
    client.force_login(trio["adjudicator"])
    a, b, c = trio["a"], trio["b"], trio["c"]
    page = client.get(
        reverse("pyramid-comparison", args=[a.docset_id]), {"a": a.pk, "b": b.pk, "c": c.pk}
    ).content.decode()
    # A column for each pyramid, and the words each has that not every pyramid does.
    header = page.split('<table id="groups">')[1].split("</thead>")[0]
    assert "<th>A: by-annotator</th><th>B: by-other</th><th>C: by-third</th>" in header
    assert "<th>Words C has, not every pyramid</th>" in header
    assert "· 1 in some pyramids only · 0 only in A · 1 only in B · 1 only in C</p>" in page
    # The model texts say who has the words: Collins's orbit, A and C, not B.
    assert (
        'class="only-a only-c" '
        'title="group a3-b-c3: A and C put these words in the group&#x27;s SCUs, B did not">'
        "Michael Collins orbited above in the command module</a>" in page
    )
    # Alpha over the three; and the merge of the three, offered.
    assert re.search(r'id="alpha-masi"><strong>-?[01]\.\d{4}</strong>', page)
    assert "Merge A, B and C into a consensus pyramid" in page
    assert f'<input type="hidden" name="c" value="{c.pk}">' in page


def test_a_consensus_of_three_is_started_from_the_page_and_not_twice_unasked(client, trio):
    client.force_login(trio["adjudicator"])
    a, b, c = trio["a"], trio["b"], trio["c"]
    start = reverse("pyramid-consensus-start", args=[a.docset_id])
    answer = client.post(start, {"a": a.pk, "b": b.pk, "c": c.pk})
    consensus = Pyramid.objects.get(merge__isnull=False)
    assert answer.status_code == 302
    assert answer.url == reverse("pyramid-merge", args=[consensus.pk])
    assert [p.pk for _, p in consensus.merge.sides()] == [a.pk, b.pk, c.pk]
    again = client.post(start, {"a": a.pk, "b": b.pk, "c": c.pk}, follow=True).content.decode()
    assert "by-annotator, by-other and by-third already have a consensus" in again
    assert Pyramid.objects.filter(merge__isnull=False).count() == 1
    # The merge page: a column and a button for each pyramid.
    page = client.get(reverse("pyramid-merge", args=[consensus.pk])).content.decode()
    partial = next(g["key"] for g in consensus.merge.groups if g["kind"] == "in some pyramids only")
    card = page.split(f'id="group-{partial}"')[1].split("</section>")[0]
    assert card.count('<div class="merge-side ') == 4
    assert "<h3>C</h3>" in card
    assert f'id="take-c-{partial}" name="side" value="c">Take C\'s version</button>' in card
    assert f'id="take-b-{partial}" name="side" value="b">Leave out (as B)</button>' in card
    assert "Merging <a" in page
    assert "C: by-third</a>" in page


def test_comparing_part_of_the_pyramids_a_consensus_merged_names_that_consensus(client, trio):
    from annotator.adjudication import pyramid_consensus

    consensus = pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])
    client.force_login(trio["adjudicator"])
    a, b = trio["a"], trio["b"]
    page = client.get(
        reverse("pyramid-comparison", args=[a.docset_id]), {"a": a.pk, "b": b.pk}
    ).content.decode()
    note = page.split('id="wider-consensus">')[1].split("</p>")[0]
    merge_url = reverse("pyramid-merge", args=[consensus.pk])
    assert f'<a href="{merge_url}">{consensus.name}</a> (in progress) already merges' in note
    assert "with by-third:" in note
    assert (
        'id="pair-consensus"' not in page
    )  # not a consensus of A and B alone: starting one stays possible
    everything = client.get(
        reverse("pyramid-comparison", args=[a.docset_id]), {"a": a.pk, "b": b.pk, "c": trio["c"].pk}
    )
    assert 'id="wider-consensus"' not in everything.content.decode()


def test_a_nul_character_in_the_query_is_refused_as_bad_input(client, demo, second):
    """Issue 16: 400 naming the parameter."""
    client.force_login(demo["admin"])
    assert refuses_nul(client.get(url(demo, f"?a={demo['pyramid'].pk}&b=%00")), "b")


def test_a_refusal_keeps_its_abbreviations_and_names(client, demo, second, monkeypatch):
    """Issue 17: the page capitalised a refusal with str.capitalize(), which lowers the rest: "SCU"
    became "scu" and "DEMO01" "demo01". Only the first letter is raised now."""
    from annotator.adjudication.aligned_pyramids import NotComparable
    from annotator.adjudication.views import compare

    def refuse(pyramids):
        raise NotComparable("no SCU of DEMO01 has a contributor in these models")

    monkeypatch.setattr(compare, "align_many_pyramids", refuse)
    client.force_login(demo["admin"])
    page = client.get(url(demo, f"?a={demo['pyramid'].pk}&b={second.pk}")).content.decode()
    assert "No SCU of DEMO01 has a contributor in these models." in page
