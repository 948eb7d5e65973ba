"""The home page: the user's own work in order (their dashboard), and the collections they read."""

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import render

from ..access import readable_collections
from ..models import Assignment
from ..progress import totals, work_rows


@login_required
def home(request):
    rows = work_rows(
        Assignment.objects.filter(user=request.user).exclude(status=Assignment.Status.WITHDRAWN), sort="status"
    )
    collections = readable_collections(request.user).annotate(docset_count=Count("docsets")).order_by("name")
    return render(request, "annotator/home.html", {"rows": rows, "totals": totals(rows), "collections": collections})
