"""annotator.adjudication.aligned_pyramids: two stored pyramids aligned by the words of their
contributors."""

import pytest

from annotator.adjudication.aligned_pyramids import NotComparable, align_pyramids
from annotator.adjudication.alignment import ONE_TO_ONE, summary
from annotator.models import Pyramid
from tests.helpers import empty_pyramid, import_files

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_the_two_independent_matter_pyramids(shared_data):
    folder = shared_data / "pyreval-matter"
    import_files(
        folder / "IA/Yinghui_12_10_09_MATTER_fixed.pyr", collection="MATTER", docset="MATTER"
    )
    import_files(
        folder / "IA/12_10_09_MATTER_fixed.pyr",
        collection="MATTER",
        docset="MATTER",
        model_regex=r"(?m)^---\n",
    )
    yinghui, other = (
        Pyramid.objects.get(name="Yinghui_12_10_09_MATTER_fixed"),
        Pyramid.objects.get(name="12_10_09_MATTER_fixed"),
    )
    groups = align_pyramids(yinghui, other)
    # Every SCU of each pyramid is in exactly one group.
    assert sorted(uid for g in groups for uid in g.a) == sorted(
        yinghui.scus.values_list("uid", flat=True)
    )
    assert sorted(uid for g in groups for uid in g.b) == sorted(
        other.scus.values_list("uid", flat=True)
    )
    counts = summary(groups)
    assert counts[ONE_TO_ONE] > 10  # two careful annotators agree on many SCUs


def test_a_pyramid_aligns_with_itself_and_not_with_other_models(demo):
    pyramid = demo["pyramid"]
    assert all(g.identical for g in align_pyramids(pyramid, pyramid))
    other = empty_pyramid(demo, name="partial")
    other.model_links.order_by("-position").first().delete()  # one model fewer
    with pytest.raises(NotComparable):
        align_pyramids(pyramid, Pyramid.objects.get(pk=other.pk))
