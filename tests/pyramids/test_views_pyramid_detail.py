import re

import pytest
from django.urls import reverse

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("pyramid-detail", args=[demo["pyramid"].pk])


def test_shows_models_shaded_and_scus_by_weight(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert page.count('<article class="summary" id="model-') == 4
    assert (
        '<mark data-start="0" data-scus="1" '
        'title="SCU 1: Apollo 11 landed the first people on the Moon in July 1969">'
        "Apollo 11 landed on the Moon on July 20, 1969</mark>"
    ) in page
    # Neighbouring SCUs' words alternate shades; a legend says what the shades mean.
    assert 'class="t1" title="SCU 2: Aldrin also walked on the Moon"' in page
    assert 'class="legend"' in page
    scu_list = page[page.index('<ol class="scu-list"') :]
    heaviest, lightest = (
        scu_list.index("Apollo 11 landed the first people"),
        scu_list.index("Kennedy&#x27;s goal"),
    )
    assert heaviest < lightest  # weight 4 before weight 1
    # A discontinuous contributor: its parts with a gap between them.
    # Each part is an item of the SCU tree (it can be selected and removed from the keyboard).
    assert re.search(
        r">Apollo 11 was the first crewed mission to land on the Moon</span>"
        r'<span class="gap" aria-hidden="true">…</span>'
        r'<span class="part" data-span="\d+" data-key="s-\d+" role="treeitem" aria-level="3" '
        r'tabindex="-1">in July 1969<',
        page,
    )
    assert "% in SCUs" in page


def test_lists_rule_violations_as_problems(client, demo):
    from annotator.models import Contributor, Span

    client.force_login(demo["admin"])
    assert "to review" not in client.get(url(demo)).content.decode()
    # A second contributor from model A in an SCU that already has one (as imported DUC data can).
    scu = demo["pyramid"].scus.get(uid=1)
    summary = demo["pyramid"].models_used.get(author="A")
    contributor = Contributor.objects.create(scu=scu, summary=summary)
    Span.objects.create(contributor=contributor, summary=summary, start=0, end=9)
    page = client.get(url(demo)).content.decode()
    assert "problems to review" in page
    assert "SCU 1 has 2 contributors from model A" in page
    assert "SCU 1 overlaps SCU 1 in model A" in page
    assert (
        '<li><a href="#scu-1" data-goto="1">SCU 1 has 2 contributors from model A</a></li>' in page
    )


def test_a_problem_names_a_model_as_written_and_escaped():
    """The problems' links are built in Python (issue 32): a model's name from a file is text."""
    from annotator.pyramids.problems import OVERLAP, Problem, problem_links

    links = problem_links([Problem(OVERLAP, 3, "SCU 3 overlaps SCU 4 in model <b>&A</b>")])
    assert links == (
        '<li><a href="#scu-3" data-goto="3">'
        "SCU 3 overlaps SCU 4 in model &lt;b&gt;&amp;A&lt;/b&gt;</a></li>"
    )
    assert problem_links([]) == ""


def test_assigned_annotator_may_see_the_pyramid(client, demo):
    Assignment.objects.create(user=demo["outsider"], task="pyramid", pyramid=demo["pyramid"])
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 200


def test_the_annotator_of_one_of_its_peers_may_read_it(client, demo):
    client.force_login(demo["annotator"])
    assert client.get(url(demo)).status_code == 200


def test_others_get_404(client, demo):
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 404


def test_anonymous_is_redirected(client, demo):
    assert client.get(url(demo)).status_code == 302


def test_the_page_is_sent_compressed(client, demo):
    import gzip

    client.force_login(demo["admin"])
    response = client.get(
        reverse("pyramid-detail", args=[demo["pyramid"].pk]), headers={"accept-encoding": "gzip"}
    )
    assert response["Content-Encoding"] == "gzip"
    page = gzip.decompress(response.content).decode()
    assert "Pyramid DEMO01" in page
    assert len(response.content) < len(page) / 3
