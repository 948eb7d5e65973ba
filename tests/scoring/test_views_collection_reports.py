"""GET /collections/<pk>/reports/: the reports page, its links and forms."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_reports_that_count_work_in_progress_offer_it(client, demo):
    """Time on task accepted ?include=in-progress, but its entry was a bare link (found by a
    tester): each report that can count work in progress has the checkbox, unchecked (submitted
    work only, the reports' default), in a form to that report."""
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-reports", args=[demo["collection"].pk])).content.decode()
    forms = re.findall(r'<form method="get" action="([^"]+)"[^>]*>(.*?)</form>', page, re.S)
    offering = [
        action.rstrip("/").rsplit("/", 1)[1]
        for action, body in forms
        if '<input type="checkbox" name="include" value="in-progress">' in body
    ]
    assert offering == ["work-time", "peer-agreement", "pyramid-agreement", "coverage"]
    assert page.count("> work in progress too</label>") == 4
