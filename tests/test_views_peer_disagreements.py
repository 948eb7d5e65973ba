"""GET /docsets/<pk>/peers-annotated-twice/: where two annotations of a peer disagree, worst first."""

import re

import pytest
from django.urls import reverse

from annotator.models import Collection, Docset

from .helpers import import_files

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_d0631_by_two_sites_worst_first(client, demo, shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(folder / "allpyramids/D0631.pyr", *sorted((folder / "allpans").glob("11[45].D0631.*.pan")), collection="DUC 2006")
    docset = Docset.objects.get(collection=Collection.objects.get(name="DUC 2006"), name="D0631")
    client.force_login(demo["admin"])
    page = client.get(reverse("peer-disagreements", args=[docset.pk])).content.decode()
    body = page.split('<tbody>')[1]
    assert body.count("<tr>") == 22 and body.count("/annotations/") == 44
    alphas = [float(cell) for cell in re.findall(r'<td class="num">(-?\d\.\d{4}|—)</td>\s*<td class="num">', body)
              if cell != "—"]
    assert alphas == sorted(alphas)  # worst agreement first


def test_only_adjudicators_and_administrators(client, demo):
    docset_id = demo["pyramid"].docset_id
    client.force_login(demo["organizer"])
    assert client.get(reverse("peer-disagreements", args=[docset_id])).status_code == 403
    client.force_login(demo["admin"])
    page = client.get(reverse("peer-disagreements", args=[docset_id])).content.decode()
    assert "No peer of this docset is annotated more than once" in page
