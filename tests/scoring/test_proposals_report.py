"""The report "Proposals confirmed" (scoring.reports.proposals.proposals_report): precision per
annotator."""

import pytest

from annotator.assist import proposals
from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing
from scoring.reports.compute import KINDS
from scoring.reports.proposals import proposals_report

pytestmark = pytest.mark.django_db


def test_precision_counts_decided_proposals_only(demo):
    user = demo["annotator"]
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=user
    )
    empty = proposals_report(demo["collection"], {})["tables"][0]
    assert empty["rows"] == []
    assert "No proposal was made" in empty["empty"]

    proposals.propose(annotation.pk, user)  # 4 proposals (SCUs 1, 2, 3, 4)
    text = annotation.peer.text

    def version():
        return PeerAnnotation.objects.get(pk=annotation.pk).version

    editing.accept_proposal(annotation.pk, user, version(), annotation.proposals.get(scu__uid=1).pk)
    collins = text.index("Michael Collins")
    editing.accept_proposal(
        annotation.pk,
        user,
        version(),
        annotation.proposals.get(scu__uid=4).pk,
        [(collins, collins + len("Michael Collins"))],  # edited first
    )
    proposals.reject(annotation.pk, user, annotation.proposals.get(scu__uid=2).pk)

    table = proposals_report(demo["collection"], {})["tables"][0]
    assert table["columns"] == [
        "annotator",
        "accepted",
        "rejected",
        "accepted, span edited",
        "open",
        "precision",
    ]
    assert table["rows"] == [
        ["annotator", 2, 1, 1, 1, 0.6667],
        ["all", 2, 1, 1, 1, 0.6667],
    ]
    assert KINDS["proposals"] == "Proposals confirmed"


def test_the_report_page(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        client.get(f"/collections/{demo['collection'].pk}/reports/proposals/")
    response = client.get(f"/collections/{demo['collection'].pk}/reports/proposals/")
    assert response.status_code == 200
    assert "Precision of proposals" in response.content.decode()
    index = client.get(f"/collections/{demo['collection'].pk}/reports/").content.decode()
    assert "/reports/proposals/" in index
