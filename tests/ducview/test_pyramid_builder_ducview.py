"""A DUCView pyramid in the builder: every contributor shaded at its words; edits export back."""

import re
from html import unescape

import pytest
from django.urls import reverse

from annotator.ducview.reader import read_pyramid
from annotator.models import Pyramid, Span
from annotator.pyramids import editing
from annotator.pyramids.workspace import workspace_context
from annotator.text.selection import snap_to_words
from tests.helpers import import_files, run

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

MARK = re.compile(r'<mark data-start="(\d+)" data-scus="([\d ]+)"[^>]*>(.*?)</mark>', re.S)


@pytest.fixture
def d0601(shared_data, demo):
    import_files(shared_data / "duc2006-nist/allpyramids/D0601.pyr", collection="DUC 2006")
    pyramid = Pyramid.objects.get(name="D0601")
    editing.reopen(pyramid.pk, demo["admin"], pyramid.version)
    return Pyramid.objects.get(pk=pyramid.pk)


def test_every_contributor_is_shaded_at_its_words(client, demo, d0601, shared_data):
    client.force_login(demo["admin"])
    page = client.get(reverse("pyramid-detail", args=[d0601.pk])).content.decode()
    # Rebuild, from the page alone, which characters of each model carry which SCU.
    shaded = {}
    for block in re.findall(r'<div class="text" data-summary="(\d+)"[^>]*>(.*?)</div>', page, re.S):
        summary_id, html = block
        for start, uids, text in MARK.findall(html):
            for offset in range(int(start), int(start) + len(unescape(text))):
                shaded.setdefault((int(summary_id), offset), set()).update(
                    int(u) for u in uids.split()
                )
    spans = Span.objects.filter(contributor__scu__pyramid=d0601).select_related(
        "contributor__scu", "summary"
    )
    source = read_pyramid((shared_data / "duc2006-nist/allpyramids/D0601.pyr").read_bytes())
    assert spans.count() == sum(len(c.parts) for scu in source.scus for c in scu.contributors)
    for span in spans:
        for offset in range(span.start, span.end):
            assert span.contributor.scu.uid in shaded[(span.summary_id, offset)], (
                span.contributor.scu.uid,
                offset,
            )
    context = workspace_context(d0601, demo["admin"])
    assert len(context["scus"]) == 94
    assert [m["summary"].author for m in context["models"]] == [
        "A",
        "B",
        "C",
        "E",
    ]


def test_edits_export_back_to_a_valid_pyr(tmp_path, demo, d0601):
    a = d0601.models_used.get(author="A")
    version = d0601.version
    version = editing.set_label(
        d0601.pk, demo["admin"], version, 31, "Casinos are a privilege of tribal sovereignty"
    ).version
    version = editing.new_scu(
        d0601.pk, demo["admin"], version, a.pk, [(0, 20)], label="A new SCU"
    ).version
    uid = d0601.scus.get(label="A new SCU").uid
    editing.remove_scu(d0601.pk, demo["admin"], version, 91)
    run("export_ducview", collection="DUC 2006", out=str(tmp_path))
    exported = read_pyramid((tmp_path / "allpyramids" / "D0601.pyr").read_bytes())
    labels = {scu.uid: scu.label for scu in exported.scus}
    assert labels[31] == "Casinos are a privilege of tribal sovereignty"
    assert labels[uid] == "A new SCU"
    assert 91 not in labels
    assert len(labels) == 94
    new = next(scu for scu in exported.scus if scu.uid == uid)
    part = new.contributors[0].parts[0]
    start, end = snap_to_words(a.text, 0, 20)
    assert exported.text[part.start : part.end] == a.text[start:end]
    for scu in exported.scus:  # every part still at its words
        for contributor in scu.contributors:
            for part in contributor.parts:
                assert exported.text[part.start : part.end].replace("\n", "") == part.label
