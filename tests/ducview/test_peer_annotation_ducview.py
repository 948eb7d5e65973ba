"""A DUCView .pan on the peer annotation page: every PSE shaded at its words, NIST's scores."""

import csv
import re
from html import unescape

import pytest
from django.urls import reverse

from annotator.ducview.reader import read_peer_annotation
from annotator.models import PeerAnnotation, PSESpan
from tests.helpers import import_files

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

MARK = re.compile(r'<mark data-start="(\d+)" data-scus="([\d ]+)"[^>]*>(.*?)</mark>', re.S)


def test_a_nist_pan_opens_with_every_pse_shaded_and_nists_scores(client, demo, shared_data):
    import_files(
        shared_data / "duc2007-main-nist/allpans/D0703.M.250.A.9.pan", collection="DUC 2007"
    )
    annotation = PeerAnnotation.objects.get(pyramid__docset__name="D0703")
    client.force_login(demo["admin"])
    page = client.get(reverse("annotation-detail", args=[annotation.pk])).content.decode()

    peer_html = re.search(r'<div class="text" id="peer-text"[^>]*>(.*?)</div>', page, re.S).group(1)
    shaded = {}
    for start, uids, text in MARK.findall(peer_html):
        for offset in range(int(start), int(start) + len(unescape(text))):
            shaded.setdefault(offset, set()).update(int(uid) for uid in uids.split())
    spans = PSESpan.objects.filter(pse__annotation=annotation).select_related("pse__scu")
    source = read_peer_annotation(
        (shared_data / "duc2007-main-nist/allpans/D0703.M.250.A.9.pan").read_bytes()
    )
    assert spans.count() == sum(len(c.parts) for scu in source.peer_scus for c in scu.contributors)
    for span in spans:
        uid = span.pse.scu.uid if span.pse.scu else 0
        assert all(uid in shaded[offset] for offset in range(span.start, span.end)), (
            uid,
            span.start,
        )

    nist = next(
        row
        for row in csv.reader(
            open(shared_data / "duc2007-main-nist/scoring/2007_modified_scores.txt"), delimiter="\t"
        )
        if row[:2] == ["D0703", "9"]
    )
    assert (
        f'<tr><th scope="row">Modified score</th><td>{float(nist[2]):.4f}</td></tr>' in page
    )  # 0.2286
    assert f"<td>{nist[3]} / {nist[4]} / 10</td>" in page  # numSCUs / numrepetitions / non-matching
